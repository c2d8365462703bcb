#!/bin/sh
# submit.sh — submits a tuning search shared across a Slurm cluster: one job array per device class
# (vkautotune-array.sh, a task per shard), then the merge + export job (vkautotune-merge.sh) with
# --dependency=afterok on every array, so it runs once all shards succeeded. Prints the job ids.
#
#   tools/slurm/submit.sh --space SPACE --out DIR --shards N [options] [--class NAME SBATCH_OPTS TUNE_ARGS]...
#
# options:
#   --space PATH         the space file (resolved to an absolute path; every node must see it)
#   --out DIR            the shared output directory: db/, merged.db, export/, logs/
#   --shards N           tasks per array (shards of the search)
#   --bin PATH           the vkautotune program (default: vkautotune on PATH, resolved here)
#   --tune-args ARGS     tune options for every class, split at spaces (e.g. "--budget 200 --strategy auto")
#   --export-args ARGS   export options (e.g. "--header kernels.h")
#   --sbatch ARGS        sbatch options for every job, split at spaces (e.g. "--account=gpu --time=2:00:00")
#   --class NAME SBATCH_OPTS TUNE_ARGS
#                        one array for a device class: its sbatch options (partition, constraint, gres) and its
#                        tune options (--device ...); repeat for each class. Without --class: one array, "all".
# docs/cluster.md explains the layout and a mixed-vendor cluster.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
space="" out="" shards="" bin="" tune_args="" export_args="" sbatch_args="" classes=0
die() {
    echo "submit.sh: $*" >&2
    exit 2
}
classfile=$(mktemp "${TMPDIR:-/tmp}/vkat-submit.XXXXXX")
trap 'rm -f "$classfile"' EXIT
while [ $# -gt 0 ]; do
    case $1 in
    --space) [ $# -ge 2 ] || die "--space needs a value"; space=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a value"; out=$2; shift 2 ;;
    --shards) [ $# -ge 2 ] || die "--shards needs a value"; shards=$2; shift 2 ;;
    --bin) [ $# -ge 2 ] || die "--bin needs a value"; bin=$2; shift 2 ;;
    --tune-args) [ $# -ge 2 ] || die "--tune-args needs a value"; tune_args=$2; shift 2 ;;
    --export-args) [ $# -ge 2 ] || die "--export-args needs a value"; export_args=$2; shift 2 ;;
    --sbatch) [ $# -ge 2 ] || die "--sbatch needs a value"; sbatch_args=$2; shift 2 ;;
    --class)
        [ $# -ge 4 ] || die "--class needs NAME SBATCH_OPTS TUNE_ARGS"
        case $2 in *[!A-Za-z0-9_.-]* | "") die "--class name '$2': letters, digits, '_', '.', '-' only" ;; esac
        printf '%s\n%s\n%s\n' "$2" "$3" "$4" >>"$classfile"
        classes=$((classes + 1))
        shift 4
        ;;
    -h | --help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
    esac
done
if [ -z "$space" ] || [ -z "$out" ] || [ -z "$shards" ]; then
    die "--space, --out and --shards are required"
fi
case $shards in *[!0-9]* | "" | 0) die "--shards '$shards': expected a positive integer" ;; esac
[ -r "$space" ] || die "cannot read $space"
command -v sbatch >/dev/null 2>&1 || die "sbatch not found (is this a Slurm login node?)"
if [ -z "$bin" ]; then
    bin=$(command -v vkautotune) || die "vkautotune is not on PATH; give --bin"
fi
case $bin in /*) ;; *) bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") ;; esac
space=$(cd "$(dirname "$space")" && pwd)/$(basename "$space")
mkdir -p "$out/db" "$out/logs"
out=$(cd "$out" && pwd)
[ "$classes" -gt 0 ] || printf 'all\n\n\n' >"$classfile"

# Passed through the environment (sbatch exports it to the jobs): values may hold commas, which --export cannot.
export VKAT_SPACE="$space" VKAT_OUT="$out" VKAT_BIN="$bin" VKAT_EXPORT_ARGS="$export_args"
set -f # option lists are split at spaces, never globbed
deps=""
while IFS= read -r name && IFS= read -r opts && IFS= read -r targs; do
    # shellcheck disable=SC2086
    id=$(VKAT_CLASS=$name VKAT_TUNE_ARGS="$tune_args $targs" sbatch --parsable --array=0-$((shards - 1)) \
        --job-name="vkat-$name" --output="$out/logs/$name-%A_%a.out" $sbatch_args $opts \
        "$here/vkautotune-array.sh" </dev/null)
    id=${id%%;*} # "id;cluster" on a federation
    echo "array $name: job $id ($shards shards)"
    deps="$deps:$id"
done <"$classfile"
# shellcheck disable=SC2086
id=$(sbatch --parsable --dependency="afterok$deps" --kill-on-invalid-dep=yes --job-name=vkat-merge \
    --output="$out/logs/merge-%j.out" $sbatch_args "$here/vkautotune-merge.sh" </dev/null)
id=${id%%;*}
echo "merge: job $id (after$deps)"
echo "results: $out/merged.db, $out/export"
