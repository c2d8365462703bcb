#!/bin/sh
# pipeline_factors.sh — the modules for bench/pipeline_time's factor experiment on sgemm_wt (issue #22): why one
# vkCreateComputePipelines costs seconds. Needs no GPU (vkautotune compile with a device profile); one factor changes
# at a time against `base` (the template and space as they are, K = 4096):
#
#   k256, k1024, k16384  the problem's K (a #define: the K loop's trip count is a compile-time constant)
#   kpush                K as a push constant (the trip count unknown to the compiler; M, N stay #defines)
#   dontunroll           [[dont_unroll]] on the K-tile loops
#   nounroll             every [[unroll]] hint removed (the driver decides)
#   strip, opt           spirv-opt --strip-debug / -O on the base module (run by pipeline_time in process)
#   NAME                 for each NAME=TEMPLATE in $EXTRA_TEMPLATES (space-separated): that template instead
#   opt-SET              for each SET in $SPIRV_OPTS (space-separated, e.g. "nounroll ssa full"): the module as
#                        vkautotune makes it with VKAT_SPIRV_OPT=SET (every configuration, in opt.jobs)
#
#   sh bench/pipeline_factors.sh BIN PROFILE CONFIGS SUBSET OUTDIR
#
# CONFIGS: one configuration a line (all of base's jobs, label cN); SUBSET: how many of them (the first) get every
# factor. Writes OUTDIR/*.spv, OUTDIR/base.jobs and OUTDIR/factors.jobs (paths as OUTDIR was given, so run
# pipeline_time from the same directory); base's modules are glslang's (VKAT_SPIRV_OPT=0).
set -eu
[ $# -eq 5 ] || { echo "usage: sh bench/pipeline_factors.sh BIN PROFILE CONFIGS SUBSET OUTDIR" >&2; exit 2; }
BIN=$1 PROFILE=$2 CONFIGS=$3 SUBSET=$4 OUT=$5
ROOT=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$OUT/src"
T=$ROOT/shaders/sgemm_wt.comp.in
S=$ROOT/spaces/sgemm_wt.ini

# Templates with one change each, and spaces that point at them.
sed 's/^\( *\)for (uint t\(0\{0,1\}\) = t_begin;/\1[[dont_unroll]] for (uint t\2 = t_begin;/' "$T" >"$OUT/src/dontunroll.comp.in"
sed 's/\[\[unroll\]\] *//' "$T" >"$OUT/src/nounroll.comp.in"
sed -e 's/^const uint KV = K \/ 4, NV = N \/ 4;/layout(push_constant) uniform Push { uint K; };\nconst uint NV = N \/ 4;\n#define KV (K \/ 4)/' \
    -e 's/^const uint NTILES = K \/ BK;/#define NTILES (K \/ BK)/' "$T" >"$OUT/src/kpush.comp.in"
EXTRA=
for e in ${EXTRA_TEMPLATES:-}; do
    cp "${e#*=}" "$OUT/src/${e%%=*}.comp.in"
    EXTRA="$EXTRA ${e%%=*}"
done
for v in dontunroll nounroll kpush $EXTRA; do
    sed -e "s|^template = .*|template = $v.comp.in|" -e "s|^reference = \.\./|reference = $ROOT/|" "$S" >"$OUT/src/$v.ini"
done
sed -i 's/^K = 4096$/K = 4096 @push/' "$OUT/src/kpush.ini"
printf '\n[push]\nK = uint32, K\n' >>"$OUT/src/kpush.ini"
for v in dontunroll nounroll kpush $EXTRA; do
    cmp -s "$T" "$OUT/src/$v.comp.in" && { echo "pipeline_factors.sh: the $v edit changed nothing in $T" >&2; exit 1; }
done

compile() { # NAME SPACE PROBLEM CONFIG (glslang's module unless OPT names vkautotune's pass set)
    VKAT_SPIRV_OPT=${OPT:-0} "$BIN" compile --space "$2" --problem "$3" --config "$4" --device-profile "$PROFILE" -o "$OUT/$1.spv" >"$OUT/src/compile.log" 2>&1 ||
        { cat "$OUT/src/compile.log" >&2; exit 1; }
}

: >"$OUT/base.jobs"
: >"$OUT/factors.jobs"
: >"$OUT/opt.jobs"
i=0
while IFS= read -r cfg; do
    case $cfg in '' | '#'*) continue ;; esac
    compile "base-c$i" "$S" K=4096 "$cfg"
    for o in ${SPIRV_OPTS:-}; do
        OPT=$o compile "opt-$o-c$i" "$S" K=4096 "$cfg"
        printf 'opt-%s:c%d\t%s\n' "$o" "$i" "$OUT/opt-$o-c$i.spv" >>"$OUT/opt.jobs"
    done
    printf 'base\tc%d\t%s\n' "$i" "$OUT/base-c$i.spv" >>"$OUT/base.jobs.tmp"
    if [ "$i" -lt "$SUBSET" ]; then
        for k in 256 1024 16384; do
            compile "k$k-c$i" "$S" "K=$k" "$cfg"
        done
        for v in dontunroll nounroll kpush $EXTRA; do
            compile "$v-c$i" "$OUT/src/$v.ini" K=4096 "$cfg"
        done
    fi
    i=$((i + 1))
done <"$CONFIGS"
# Labels are FACTOR:cN; a job line is LABEL<TAB>FILE[<TAB>PASSES].
awk -F'\t' '{ printf "%s:%s\t%s\n", $1, $2, $3 }' "$OUT/base.jobs.tmp" >"$OUT/base.jobs"
rm -f "$OUT/base.jobs.tmp"
j=0
while [ "$j" -lt "$SUBSET" ] && [ "$j" -lt "$i" ]; do
    for v in k256 k1024 k16384 kpush dontunroll nounroll $EXTRA; do
        printf '%s:c%d\t%s\n' "$v" "$j" "$OUT/$v-c$j.spv" >>"$OUT/factors.jobs"
    done
    printf 'strip:c%d\t%s\t--strip-debug\n' "$j" "$OUT/base-c$j.spv" >>"$OUT/factors.jobs"
    printf 'opt:c%d\t%s\t-O\n' "$j" "$OUT/base-c$j.spv" >>"$OUT/factors.jobs"
    j=$((j + 1))
done
echo "pipeline_factors.sh: $i configurations, $(wc -l <"$OUT/factors.jobs") factor jobs in $OUT"
