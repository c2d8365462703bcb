#!/bin/sh
# sgemm_wt.sh — the warp-tiled fp32 GEMM space (spaces/sgemm_wt.ini, issue 5) through the CLI:
#   - at least 1000 valid configurations at 4096^3 under the H200's limits (48 KiB shared memory, 1024 invocations,
#     subgroup 32: a copy of the space with those numbers in place of the device names, counted without a
#     device) and under Vulkan's minimum limits (no device), and at least one under the present device's;
#   - no configuration valid under the H200's limits stages more than 48 KiB of shared memory (recomputed with the
#     template's own layout, so a wrong 'fits' constraint shows);
#   - the space tunes on the device at its [problem.cpu] size with B row-major, and at a non-square size with B
#     transposed (M=192: three 64-row tiles, a partial group of the GM=8 grid order), and every variant passes the
#     reference check; and the same with the H200's WARP = 32 tiling (correct on any device, chosen here through a
#     copy of the space that pins WARP to 32); and every combination of KS, STAGES, SWZ, PF, FB, KU and CL on one
#     tiling, for both B layouts (exhaustively: no code path is left to a random sample); and the H200's winning
#     tilings (128 x 128 x 16, 256 threads, 8x8 and 2x2 of 4x4 per thread) with every STAGES, PF, FB, KU and CL, at
#     non-square sizes with odd and even tile counts along K; and stream-K (SK = 1) with 2 to 20 persistent
#     workgroups, for both B layouts.
#   - a winner whose device is absent (Vulkan hidden) is exported only with its `devices --json` (--device-profile):
#     the space's dispatch and scratch buffers read device.compute_units.
# The device-free parts always run; the tuning says 'skip' with the reason when there is no Vulkan device.
# ctest runs it in parts, side by side (each a few minutes at most on 2 busy cores; tests/README.md):
# ctest parts: limits tune paths0_ks1 paths0_ks2 paths1_ks1 paths1_ks2 h200_bt0 h200_bt1 streamk0 streamk1
#
#   sh tests/cli/sgemm_wt.sh BINARY SOURCE_DIR           # every part
#   VKAT_TEST_PART=paths1_ks2 sh tests/cli/sgemm_wt.sh ...    # one part
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_python "to read --json"

# copies of the space live in $T: their template and reference paths must be absolute
SHADERS=$(cd "$SRC" && pwd)/shaders
NODEV="env VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json"
valid_count() { sed -n 's/^valid configurations: \([0-9]*\)$/\1/p' "$1"; }
# at_least NAME OUTFILE MIN
at_least() {
    n=$(valid_count "$2")
    if [ -z "$n" ]; then
        fail "$1" "no count"
        sed 's/^/  | /' "$2"
    elif [ "$n" -lt "$3" ]; then
        fail "$1" "$n < $3"
    else
        ok "$1 ($n)"
    fi
}

# ---- valid configurations ----------------------------------------------------------------------------------------
H200="$SRC/tests/data/profiles/h200.json" # `vkautotune devices --json` on the H200: its limits, no GPU needed
if in_part limits; then
    "$BIN" --space "$SRC/spaces/sgemm_wt.ini" --problem M=4096,N=4096,K=4096 --dry-run --device-profile "$H200" \
        >"$T/h200.out" 2>&1
    at_least "sgemm_wt valid at 4096^3, H200 limits" "$T/h200.out" 1000
    $NODEV "$BIN" --space "$SRC/spaces/sgemm_wt.ini" --problem M=4096,N=4096,K=4096 --dry-run >"$T/min.out" 2>&1
    at_least "sgemm_wt valid at 4096^3, minimum limits" "$T/min.out" 1000

    # No configuration valid under the H200's limits stages more than 48 KiB of shared memory, recomputed with the
    # template's layout (STAGES x BK rows of A, BM floats, and of B, BN floats, each row one vec4 longer when SWZ = 1;
    # stream-K's flag, 4 bytes):
    # a constraint that keeps only the offenders must leave nothing.
    over='over = STAGES * BK * ((BM + 4 * (SWZ == 1)) + (BN + 4 * (SWZ == 1))) * 4 + 4 * (SK > 0) > 49152'
    sed -e "/^fits = /a $over" \
        -e "s#\.\./shaders/#$SHADERS/#g" "$SRC/spaces/sgemm_wt.ini" >"$T/over.ini"
    "$BIN" --space "$T/over.ini" --problem M=4096,N=4096,K=4096 --dry-run --device-profile "$H200" >"$T/over.out" 2>&1
    if ! grep -q "^over = " "$T/over.ini"; then
        fail "sgemm_wt shared memory under the H200 limit" "no 'fits' constraint to put the check after"
    elif [ "$(valid_count "$T/over.out")" != 0 ]; then
        fail "sgemm_wt shared memory under the H200 limit" "some configurations stage more than 48 KiB"
        sed 's/^/  | /' "$T/over.out"
    else
        ok "sgemm_wt shared memory under the H200 limit"
    fi
fi

if ! "$BIN" devices >"$T/devices" 2>&1; then
    echo "tuning on a device: skip (no Vulkan device: vkautotune devices fails)"
    case ${VKAT_TEST_PART:-limits} in limits) ;; *) exit 77 ;; esac
    finish
    exit
fi
if in_part limits; then
    "$BIN" --space "$SRC/spaces/sgemm_wt.ini" --problem M=4096,N=4096,K=4096 --dry-run >"$T/dev.out" 2>&1
    at_least "sgemm_wt valid at 4096^3, device limits" "$T/dev.out" 1
fi

# ---- tunes and checks on the device ------------------------------------------------------------------------------
# --kernel-timeout: lavapipe compiles a shader at its first run, the checked one, and the H200's 128 x 128 tilings can
# take longer than the default 10 s on busy cores; a timeout would say nothing about the kernel.
TUNE="--db $T/results.db --warmup 0.01 --repetitions 3 --json --top 100 --kernel-timeout 300"
if in_part tune; then
    # shellcheck disable=SC2086 # TUNE holds several words on purpose
    "$BIN" "$SRC/shaders/sgemm_wt.comp.in" --space "$SRC/spaces/sgemm_wt.ini" --strategy random --seed 1 --budget 8 \
        $TUNE >"$T/tune.json" 2>"$T/tune.err"
    check_tune "sgemm_wt tune, [problem.cpu], B row-major" "$T/tune.json" $? 8
    # Exported where the device is absent (Vulkan hidden): the dispatch and the scratch buffers read
    # device.compute_units, so without a description of the device the winner is skipped with a warning; with its
    # `devices --json` (--device-profile; here with 132 compute units written in) it is exported, scratch sized by it.
    "$BIN" devices --json >"$T/dev.json" 2>&1
    sed 's/"compute_units": [0-9]*/"compute_units": 132/' "$T/dev.json" >"$T/dev132.json"
    $NODEV "$BIN" export --db "$T/results.db" --space "$SRC/spaces/sgemm_wt.ini" --all-devices-in-db -o "$T/exp0" \
        >"$T/exp0.out" 2>&1
    if grep -q "not present here and the space's dispatch reads its limits" "$T/exp0.out"; then
        ok "sgemm_wt export, device absent: skipped, saying why"
    else
        fail "sgemm_wt export, device absent" "no warning: $(tail -n 1 "$T/exp0.out")"
    fi
    $NODEV "$BIN" export --db "$T/results.db" --space "$SRC/spaces/sgemm_wt.ini" --all-devices-in-db \
        --device-profile "$T/dev132.json" -o "$T/exp1" >"$T/exp1.out" 2>&1
    if python3 - "$T/exp1/manifest.json" >"$T/exp1.py" 2>&1 <<'PY'; then
import json, sys
k = json.load(open(sys.argv[1]))["kernels"][0]
b = {x["name"]: x for x in k["bindings"]}
assert b["W"]["elements"] == 2 * 132 * 65536 and b["W"]["init"] == "zero", b["W"]
assert b["CNT"]["elements"] == 264 and b["CNT"]["init"] == "zero", b["CNT"]
PY
        ok "sgemm_wt export, device absent, --device-profile: exported, scratch for 132 compute units"
    else
        fail "sgemm_wt export, device absent, --device-profile" "$(tail -n 1 "$T/exp1.py") $(tail -n 1 "$T/exp1.out")"
    fi
    # shellcheck disable=SC2086
    "$BIN" "$SRC/shaders/sgemm_wt.comp.in" --space "$SRC/spaces/sgemm_wt.ini" --problem M=192,N=128,K=96,BT=1 \
        --strategy random --seed 2 --budget 8 $TUNE >"$T/tune.json" 2>"$T/tune.err"
    check_tune "sgemm_wt tune, M=192,N=128,K=96, B transposed" "$T/tune.json" $? 8
    # The H200's tiling (WARP = 32) on this device: the kernel uses no subgroup operations, so it is correct whatever
    # the device's subgroup size; only the copy of the space that pins WARP to 32 lets those variants be chosen here.
    sed -e 's/device\.subgroup_size/32/g' -e "s#\.\./shaders/#$SHADERS/#g" \
        "$SRC/spaces/sgemm_wt.ini" >"$T/warp32.ini"
    # shellcheck disable=SC2086
    "$BIN" --space "$T/warp32.ini" --problem M=256,N=128,K=64,BT=1 --strategy random --seed 3 --budget 6 $TUNE \
        >"$T/tune.json" 2>"$T/tune.err"
    check_tune "sgemm_wt tune, WARP=32, M=256,N=128,K=64, B transposed" "$T/tune.json" $? 6
fi

# Every combination of the kernel's code paths (KS, STAGES, SWZ, PF, FB, KU, CL; GM per B layout) on one small
# tiling, searched exhaustively, so that none is left to the luck of a random sample: 2 x 2 x 3 x 2 x 2, and KU = 2
# for the 12 with STAGES = 2 and FB = 0 (60); CL = 1 for the 18 with STAGES = 2 and PF = 1 (78). K = 72: an odd
# number of BK = 8 tiles, which ends the two-stage loops of FB = 1 and KU = 2 halfway through a pair. Each KS
# value is its own search (39 each) and ctest part, so that the four searches run side by side.
pin() { # pin FILE BT GM: the space with one tiling (WARP = 8, whatever the device's subgroup size) and one GM
    sed -e 's/device\.subgroup_size/8/g' -e "s#\.\./shaders/#$SHADERS/#g" -e 's/^BM = .*/BM = 64/' \
        -e 's/^BN = .*/BN = 64/' -e 's/^BK = .*/BK = 8/' -e 's/^WM = .*/WM = 32/' -e 's/^WN = .*/WN = 32/' \
        -e 's/^WMITER = .*/WMITER = 2/' -e 's/^WNITER = .*/WNITER = 2/' -e 's/^TM = .*/TM = 4/' \
        -e 's/^TN = .*/TN = 8/' -e 's/^WARP = .*/WARP = 8/' -e "s/^GM = .*/GM = $3/" -e "s/^BT = .*/BT = $2/" \
        "$SRC/spaces/sgemm_wt.ini" >"$1"
}
for bt_gm_ks in "0 8 1" "0 8 2" "1 1 1" "1 1 2"; do
    # shellcheck disable=SC2086 # three words on purpose
    set -- $bt_gm_ks
    in_part "paths$1_ks$3" || continue
    pin "$T/paths.ini" "$1" "$2"
    sed -i "s/^KS = .*/KS = $3/" "$T/paths.ini"
    # shellcheck disable=SC2086
    "$BIN" --space "$T/paths.ini" --problem M=192,N=128,K=72 --strategy exhaustive --budget 100 $TUNE \
        >"$T/tune.json" 2>"$T/tune.err"
    check_tune "sgemm_wt every STAGES x SWZ x PF x FB x KU x CL, KS=$3, BT=$1, GM=$2, M=192,N=128,K=72" \
        "$T/tune.json" $? 39
done

# The tilings that won on the H200 (BENCHMARKS.md, issue 5: BM = BN = 128, BK = 16, WARP = 32) with every
# STAGES, PF, FB, KU and CL (2 x 2 x 2, and KU = 2 for 2: 10; CL = 1 for the 3 with STAGES = 2 and PF = 1: 13), as
# the H200 runs them, at non-square sizes (3 x 2 tiles, a partial group of the GM = 8 order) with an odd and an even
# number of tiles along K (5 and 6: CL = 1 compiles the two-stage loops' end test only for an odd count).
# SWZ = 2 rather than the winners' 1: two padded stages (33 KiB) pass lavapipe's 32 KiB of shared memory.
pin_h200() { # pin_h200 FILE BT WM WN WMITER WNITER TM TN
    sed -e 's/device\.subgroup_size/32/g' -e "s#\.\./shaders/#$SHADERS/#g" -e 's/^BM = .*/BM = 128/' \
        -e 's/^BN = .*/BN = 128/' -e 's/^BK = .*/BK = 16/' -e "s/^WM = .*/WM = $3/" -e "s/^WN = .*/WN = $4/" \
        -e "s/^WMITER = .*/WMITER = $5/" -e "s/^WNITER = .*/WNITER = $6/" -e "s/^TM = .*/TM = $7/" \
        -e "s/^TN = .*/TN = $8/" -e 's/^WARP = .*/WARP = 32/' -e 's/^KS = .*/KS = 1/' -e 's/^SWZ = .*/SWZ = 2/' \
        -e 's/^GM = .*/GM = 8/' -e "s/^BT = .*/BT = $2/" "$SRC/spaces/sgemm_wt.ini" >"$1"
}
for tiling in "0 64 32 1 1 8 8 80" "1 16 128 2 2 4 4 96"; do
    # shellcheck disable=SC2086 # eight words on purpose
    set -- $tiling
    in_part "h200_bt$1" || continue
    pin_h200 "$T/h200.ini" "$@"
    # shellcheck disable=SC2086
    "$BIN" --space "$T/h200.ini" --problem "M=384,N=256,K=$8" --strategy exhaustive --budget 100 $TUNE \
        >"$T/tune.json" 2>"$T/tune.err"
    check_tune "sgemm_wt H200 tiling WM=$2,WN=$3,TM=$6,TN=$7, every STAGES x PF x FB x KU x CL, BT=$1, \
M=384,N=256,K=$8" "$T/tune.json" $? 13
done

# Stream-K (SK = 1) with G persistent workgroups in place of the device's compute units (lavapipe reports none), on
# one small tiling with every SWZ and PF: 5 x 3 = 15 tiles of 64 x 64 and 9 K tiles, so that G = 2, 4 and 7 split
# the last rounds' tiles between two or three workgroups after whole ones, G = 11 splits every tile (fewer than two
# rounds) and G = 20 (more workgroups than tiles) up to three ways. The check also compares the partial-sum and
# counter buffers (W, CNT) with their initial zeros after the timed runs: a partial sum left behind, or a counter
# not reset, fails it.
# SK = 2 (only the last, partial round split): G = 4 splits its 3 tiles about two ways, G = 7 its one tile 7 ways.
for sk_g in "1 2" "1 4" "1 7" "1 11" "1 20" "2 4" "2 7"; do
    # shellcheck disable=SC2086 # two words on purpose
    set -- $sk_g
    for bt in 0 1; do
        in_part "streamk$bt" || continue
        pin "$T/sk.ini" "$bt" 8
        sed -i -e "s/device\.compute_units/$2/g" -e "s/^SK = .*/SK = $1/" "$T/sk.ini"
        # shellcheck disable=SC2086
        "$BIN" --space "$T/sk.ini" --problem M=320,N=192,K=72 --strategy exhaustive --budget 100 $TUNE \
            >"$T/tune.json" 2>"$T/tune.err"
        check_tune "sgemm_wt stream-K SK=$1, G=$2 workgroups, every SWZ x PF, BT=$bt, M=320,N=192,K=72" \
            "$T/tune.json" $? 6
    done
done

finish
