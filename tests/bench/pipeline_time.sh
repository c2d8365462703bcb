#!/bin/sh
# pipeline_time.sh — bench/pipeline_factors.sh and bench/pipeline_time end to end (issue #22's pipeline-creation
# experiment, records/session9-issue-22-pipe.md), so that a script error shows here, not on a GPU machine's clock:
#   - the factor script makes every factor's module for the subset (each one a module of its own where the factor
#     changes the template) and the VKAT_SPIRV_OPT sets' modules for every configuration;
#   - pipeline_time --dry runs the spirv-opt passes alone; a real run creates each pipeline on the device (lavapipe
#     in CI), reps after reps, and prints a line per job and rep and the process line;
#   - a job file that names no module, or a pass SPIRV-Tools does not know, is refused with the line.
#   sh pipeline_time.sh VKAUTOTUNE SOURCE_DIR PIPELINE_TIME
set -u
[ $# -eq 3 ] || { echo "usage: $0 VKAUTOTUNE SOURCE_DIR PIPELINE_TIME" >&2; exit 2; }
PT=$3
set -- "$1" "$2"
. "$(dirname "$0")/../cli/lib/common.sh" "$@"
need_device

# Two configurations small enough for lavapipe's 32 KiB of shared memory (modules for the H200's limits).
cat >"$T/configs.txt" <<'CFG'
BM=64,BN=64,BK=32,WM=32,WN=32,WMITER=1,WNITER=2,TM=4,TN=4,WARP=32,KS=1,STAGES=1,SWZ=1,GM=1,PF=1,FB=0,KU=1,CL=0,SK=0
BM=128,BN=64,BK=8,WM=32,WN=64,WMITER=1,WNITER=2,TM=4,TN=8,WARP=32,KS=1,STAGES=2,SWZ=2,GM=1,PF=0,FB=0,KU=1,CL=0,SK=0
CFG
(cd "$T" && SPIRV_OPTS=ssa sh "$SRC/bench/pipeline_factors.sh" "$BIN" "$SRC/tests/data/profiles/h200.json" configs.txt 1 spv) \
    >"$T/factors.out" 2>&1
rc=$?
check "pipeline_factors.sh runs (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/factors.out"
check "base.jobs: both configurations" [ "$(wc -l <"$T/spv/base.jobs")" -eq 2 ]
check "factors.jobs: eight factors of the first" [ "$(wc -l <"$T/spv/factors.jobs")" -eq 8 ]
check "opt.jobs: the ssa set of both" [ "$(grep -c '^opt-ssa:c[01]	' "$T/spv/opt.jobs")" -eq 2 ]
check "K as a push constant is another module" sh -c '! cmp -s "$1/base-c0.spv" "$1/kpush-c0.spv"' - "$T/spv"
check "no [[unroll]] is another module" sh -c '! cmp -s "$1/base-c0.spv" "$1/nounroll-c0.spv"' - "$T/spv"
check "the ssa set is another module" sh -c '! cmp -s "$1/base-c0.spv" "$1/opt-ssa-c0.spv"' - "$T/spv"

(cd "$T" && "$PT" --dry spv/factors.jobs) >"$T/dry.out" 2>&1
rc=$?
check "--dry runs (exit $rc)" [ $rc -eq 0 ]
check "--dry: a line per job" [ "$(grep -c '^[a-z0-9]*:c0	[0-9]*	[0-9.]*$' "$T/dry.out")" -eq 8 ]
check "--dry: -O made another module" sh -c '[ "$(grep "^opt:c0" "$1" | cut -f2)" != "$(grep "^k256:c0" "$1" | cut -f2)" ]' - "$T/dry.out"

(cd "$T" && "$PT" --threads 2 --reps 2 --stats --out created.tsv spv/base.jobs) >"$T/run.out" 2>&1
rc=$?
check "a run on the device (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/run.out"
check "a line per job and rep, each created" \
    [ "$(grep -c '^base:c[01]	[01]	[0-9]*	[0-9.]*	[0-9.]*	[0-9.]*	' "$T/created.tsv")" -eq 4 ]
check "the process line" grep -q '^process	cpu_s=[0-9.]*	threads_cpu_s=[0-9.]*	wall_s=' "$T/created.tsv"

printf 'x\t%s\n' "$T/configs.txt" >"$T/bad.jobs"
"$PT" --dry "$T/bad.jobs" >"$T/bad.out" 2>&1
rc=$?
check "a file that is not SPIR-V is refused (exit $rc)" [ $rc -eq 1 ]
check "... with its line" grep -q "bad.jobs:1: .* is not a SPIR-V module" "$T/bad.out"
printf 'x\t%s\t--no-such-pass\n' "$T/spv/base-c0.spv" >"$T/bad.jobs"
"$PT" --dry "$T/bad.jobs" >"$T/bad.out" 2>&1
rc=$?
check "an unknown pass is refused (exit $rc)" [ $rc -eq 1 ]
check "... with its line" grep -q "bad.jobs:1: spirv-opt --no-such-pass failed" "$T/bad.out"
finish
