# vkautotune.bash — bash completion for vkautotune (installed as share/bash-completion/completions/vkautotune).
# Completes commands, each command's options, and files for the options that take paths.
_vkautotune()
{
    local cur prev cmd i
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    cmd=tune
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            tune|init|compile|export|devices|replay|peaks|compare|merge|report|help|version) cmd=${COMP_WORDS[i]}; break ;;
        esac
    done
    case $prev in
        --space) COMPREPLY=($(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur")); return ;;
        --db|--pipeline-cache|--device-profile) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -o|--output|--export) COMPREPLY=($(compgen -d -- "$cur")); case $cmd in compile | init) COMPREPLY=($(compgen -f -- "$cur")) ;; esac; return ;;
        --device) COMPREPLY=($(compgen -W "all" -- "$cur")); return ;;
        --strategy) COMPREPLY=($(compgen -W "auto exhaustive random annealing genetic local de model forest gp" -- "$cur")); return ;;
        --check-on) COMPREPLY=($(compgen -W "auto gpu host" -- "$cur")); return ;;
        --missing) COMPREPLY=($(compgen -W "free charged" -- "$cur")); return ;;
        --problem|--config|--start|--budget|--seed|--seeds|--shard|--top|--warmup|--warmup-min|--min-sample|--race-tolerance|--repetitions|--header|--candidates|--jobs|--watchdog|--kernel-timeout|--param|--param2|--title|--kernel|--window) return ;;
    esac
    local opts
    case $cmd in
        tune) opts="--space --problem --device --strategy --budget --seed --start --warm-start --shard --db --export --top --json --csv
                    --include-transfers --jobs --pipeline-cache --stats --check-on --watchdog --kernel-timeout --warmup --warmup-min --min-sample
                    --repetitions --race --no-race --race-tolerance --dry-run
                    --device-profile --quiet --verbose --help" ;;
        replay) opts="--strategy --budget --seed --seeds --window --kernel --missing --constraints --json --help" ;;
        peaks) opts="--device --db --refresh --json --help" ;;
        compare) opts="--db --kernel --problem --space --include-transfers --help" ;;
        report) opts="--db -o --param --param2 --title --help" ;;
        merge) opts="--help" ;;
        init) opts="-o --force -I -D --help" ;;
        compile) opts="--space --config --problem --device --device-profile -o --disassemble --verbose --help" ;;
        export) opts="--space --output -o --db --device --all-devices-in-db --device-profile --problem --header --candidates --quiet --verbose
                      --help" ;;
        devices) opts="--json --help" ;;
        *) opts="" ;;
    esac
    if [ "$COMP_CWORD" = 1 ] && [[ $cur != -* ]]; then
        COMPREPLY=($(compgen -W "tune init compile export devices replay peaks compare merge report help version" -- "$cur") $(compgen -f -X '!*.comp*' -- "$cur"))
    elif [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _vkautotune vkautotune
