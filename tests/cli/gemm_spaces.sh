#!/bin/sh
# gemm_spaces.sh — the GEMM spaces of issue 5 through the CLI:
#   - spaces/sgemm.ini keeps at least 1000 valid configurations at 4096^3 under Vulkan's minimum limits (no device:
#     16 KiB shared memory, 128 invocations), so under any conforming device's, the H200's included (its count
#     there, 3742, is in the space file); and under the present device's limits too;
#   - sgemm tunes on the device at its [problem.cpu] size (--budget 6) and every variant passes the reference
#     check, for both B layouts (BT=1 at a non-square size, where a swapped index would show);
#   - the cooperative-matrix spaces' valid counts under the H200's limits (tests/data/profiles/h200.json) at 4096^3
#     are the ones their comments state;
#   - configurations of each cooperative-matrix space (fp16, bf16), each for both B layouts, compile to valid
#     SPIR-V for the H200 profile that multiplies cooperative matrices (no device capability is needed for that):
#     three older ones and one for every value of STAGES, PF and FB (register prefetch, the three-stage ring,
#     double-buffered fragments), those valid under the H200's limits so the tuner there can measure them;
#   - configurations of each flash-attention space (attention_fa_f16; attention_fa_nv_f16 and _bf16 and
#     attention_decode_nv_f16 and _bf16, whose softmax uses VK_NV_cooperative_matrix2's reductions, per-element
#     functions and conversions) compile to valid SPIR-V, and the prefill spaces' valid counts under the H200's
#     limits are the ones their comments state; their isolation space compiles for every cost it drops; the
#     loop-shape knobs (VT, BF, UB, OA) change the SPIR-V as they say and their constraints refuse what they cannot take;
#   - the VK_NV_cooperative_matrix2 GEMM spaces (cm2gemm_f16, cm2gemm_bf16): counts under the H200's limits as their
#     comments state, and every loading path compiles to valid SPIR-V with tensor addressing;
#   - on a device without VK_KHR_cooperative_matrix (lavapipe) the cooperative-matrix spaces are skipped, saying so,
#     and without VK_NV_cooperative_matrix2 the coopmat2 ones.
# The device-free parts (counts under minimum limits, compiles) always run; the parts that need a Vulkan device
# say 'skip' with the reason when there is none. The whole script skips (77) only without python3 (for --json).
#
#   sh tests/cli/gemm_spaces.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_python "to read --json"

HAVE_DEVICE=0
"$BIN" devices >"$T/devices" 2>&1 && HAVE_DEVICE=1
# --kernel-timeout: lavapipe compiles a shader at its first (checked) run, which on busy cores can pass the default 10 s.
TUNE="--db $T/results.db --warmup 0.01 --repetitions 3 --seed 1 --json --top 100 --kernel-timeout 300"

# ---- valid configurations ----------------------------------------------------------------------------------------
# valid_count OUTFILE: the number from the 'valid configurations: N' line.
valid_count() { sed -n 's/^valid configurations: \([0-9]*\)$/\1/p' "$1"; }
# A space's comment states its valid count under the H200's limits; sed pattern PATTERN picks it out of the comment
# (\1), and a dry run with the H200 profile must count the same. TEMPLATE, when given, is passed before --space.
check_stated_count() { # SPACE PATTERN LABEL [TEMPLATE]
    want=$(sed -n "s/$2/\1/p" "$SRC/spaces/$1.ini")
    "$BIN" ${4:+"$4"} --space "$SRC/spaces/$1.ini" --dry-run --device-profile "$H200" >"$T/stated.out" 2>&1
    n=$(valid_count "$T/stated.out")
    if [ -z "$n" ] || [ "$n" != "$want" ]; then
        fail "$1 $3" "'$n', the space's comment says '$want'"
    else
        ok "$1 $3 ($n)"
    fi
}
VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json \
    "$BIN" --space "$SRC/spaces/sgemm.ini" --problem M=4096,N=4096,K=4096 --dry-run >"$T/dry0.out" 2>&1
n=$(valid_count "$T/dry0.out")
if [ -z "$n" ]; then
    fail "sgemm valid at 4096^3, minimum limits" "no count"
    sed 's/^/  | /' "$T/dry0.out"
elif [ "$n" -lt 1000 ]; then
    fail "sgemm valid at 4096^3, minimum limits" "$n < 1000"
else
    ok "sgemm valid at 4096^3, minimum limits ($n)"
fi
if [ $HAVE_DEVICE -eq 1 ]; then
    "$BIN" --space "$SRC/spaces/sgemm.ini" --problem M=4096,N=4096,K=4096 --dry-run >"$T/dry1.out" 2>&1
    m=$(valid_count "$T/dry1.out")
    if [ -z "$m" ] || [ "$m" -lt "$n" ]; then
        fail "sgemm valid at 4096^3, device limits" "'$m', expected at least the minimum limits' $n"
    else
        ok "sgemm valid at 4096^3, device limits ($m)"
    fi
fi

# ---- cooperative-matrix spaces: counts and compiles ---------------------------------------------------------------
H200="$SRC/tests/data/profiles/h200.json" # `vkautotune devices --json` on the H200: its limits, no GPU needed
# compile_h200 NAME STEM ARGS...: `vkautotune compile ARGS --device-profile $H200 --disassemble`, the disassembly in
# $T/STEM.dis and the messages in $T/STEM.out; 0 when it compiled a configuration valid under the H200's limits,
# else NAME fails (with the messages) and 1.
compile_h200() {
    name=$1 stem=$2
    shift 2
    "$BIN" compile "$@" --device-profile "$H200" --disassemble >"$T/$stem.dis" 2>"$T/$stem.out"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name" "exit $rc"
        sed 's/^/  | /' "$T/$stem.out"
        return 1
    elif grep -q "fails constraint" "$T/$stem.out"; then
        fail "$name" "not valid under the H200's limits: $(grep "fails constraint" "$T/$stem.out" | head -n 1)"
        return 1
    fi
}
# (cm2gemm_f16 and cm2gemm_bf16 too: their comments say the same)
for space in cmgemm_f16 cmgemm_bf16 cmgemm_s8 cm2gemm_f16 cm2gemm_bf16; do
    # the comment says 'Valid at 4096^3 with ... : N of R raw (N1 with BT=1)'
    want=$(sed -n 's/.*: \([0-9]*\) of [0-9]* raw (\([0-9]*\) with BT=1).*/\1 \2/p' "$SRC/spaces/$space.ini")
    for bt in 0 1; do
        "$BIN" --space "$SRC/spaces/$space.ini" --problem M=4096,N=4096,K=4096,BT=$bt --dry-run \
            --device-profile "$H200" >"$T/cmdry.out" 2>&1
        n=$(valid_count "$T/cmdry.out")
        if [ $bt -eq 0 ]; then w=${want% *}; else w=${want#* }; fi
        if [ -z "$n" ] || [ "$n" != "$w" ]; then
            fail "$space valid at 4096^3, BT=$bt, H200 limits" "'$n', the space's comment says '$w'"
        else
            ok "$space valid at 4096^3, BT=$bt, H200 limits ($n)"
        fi
    done
done
# The decode spaces on tensor cores: their comments say 'Valid on H200 limits ... at the [problem] size: N of R raw'.
for space in attention_decode_nv_f16 attention_decode_nv_bf16; do
    check_stated_count $space '.*\[problem\] size: \([0-9]*\) of [0-9]* raw.*' "valid at [problem], H200 limits"
done
# CONFIG;H200: H200 = 1 when the configuration must also be valid under the H200's limits (no 'fails constraint');
# the second and third are not (a 16x8x8 shape it does not report first; over 100 KiB
# of shared memory) but compile.
for space in cmgemm_f16 cmgemm_bf16; do
    for cfg in "FN=16,FK=16,WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=2,PAD=1;1" \
        "FN=8,FK=8,WG_M=4,WG_N=1,TM=4,TN=4,BK=32,STAGES=1,PAD=0;0" \
        "FN=16,FK=16,WG_M=2,WG_N=4,TM=4,TN=2,BK=64,STAGES=2,PAD=1;0" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16;1" \
        "FN=16,FK=16,WG_M=2,WG_N=4,TM=4,TN=2,BK=32,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1;1" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=1,PAD=1,SWZ=16;1" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=16,STAGES=3,PF=0,FB=0,PAD=1,SWZ=16;1" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=3,PF=0,FB=1,PAD=1,SWZ=4;1" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=0,PAD=1,SWZ=16,WS=2,WC=8;1" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=1,PAD=1,SWZ=16,WS=4,WC=0;1" \
        "FN=16,FK=16,WG_M=2,WG_N=4,TM=4,TN=2,BK=32,STAGES=2,PF=0,FB=0,PAD=1,SWZ=16,WS=1,WC=4;1" \
        "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,FB=0,PAD=1,SWZ=16,LQ=1;1"; do
        config=${cfg%;*}
        h200=${cfg#*;}
        for bt in 0 1; do
            name="compile $space $config BT=$bt"
            "$BIN" compile "$SRC/shaders/cmgemm.comp.in" --space "$SRC/spaces/$space.ini" --config "$config" \
                --problem BT=$bt --device-profile "$H200" -o "$T/cm.spv" >"$T/cm.out" 2>&1
            rc=$?
            "$BIN" compile "$SRC/shaders/cmgemm.comp.in" --space "$SRC/spaces/$space.ini" --config "$config" \
                --problem BT=$bt --device-profile "$H200" --disassemble >"$T/cm.dis" 2>/dev/null
            if [ $rc -ne 0 ]; then
                fail "$name" "exit $rc"
                sed 's/^/  | /' "$T/cm.out"
            elif [ "$(od -A n -t x1 -N 4 "$T/cm.spv" | tr -d ' \n')" != 03022307 ]; then
                fail "$name" "output does not start with the SPIR-V magic number"
            elif ! grep -q "OpCooperativeMatrixMulAddKHR" "$T/cm.dis"; then
                fail "$name" "no OpCooperativeMatrixMulAddKHR in the disassembly"
            elif [ "$h200" = 1 ] && grep -q "fails constraint" "$T/cm.out"; then
                fail "$name" "not valid under the H200's limits: $(grep "fails constraint" "$T/cm.out" | head -n 1)"
            else
                ok "$name"
            fi
        done
    done
done

# The flash-attention space too (issue 12): three of its H200-valid configurations, double-buffered or not, at
# the [problem] size (a device would pick [problem.cpu], too short for 256 query rows per workgroup).
for config in "BC=32,NSG=4,RT=1,STAGES=2,PAD=1,PADS=1,THR=8,SG=32" "BC=64,NSG=2,RT=1,STAGES=1,PAD=1,PADS=2,THR=0,SG=32" \
    "BC=16,NSG=8,RT=2,STAGES=2,PAD=1,PADS=1,THR=8,SG=32"; do
    name="compile attention_fa_f16 $config"
    "$BIN" compile "$SRC/shaders/attention_fa.comp.in" --space "$SRC/spaces/attention_fa_f16.ini" --config "$config" --problem S=4096 \
        --disassemble >"$T/fa.dis" 2>"$T/fa.out"
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "$name" "exit $rc"
        sed 's/^/  | /' "$T/fa.out"
    elif ! grep -q "OpCooperativeMatrixMulAddKHR" "$T/fa.dis"; then
        fail "$name" "no OpCooperativeMatrixMulAddKHR in the disassembly"
    else
        ok "$name"
    fi
done

# The softmax-in-accumulators attentions, prefill and decode, fp16 and bf16: their NV operations must be in the
# SPIR-V (no shared-memory round trip); for prefill each way of staging K and V (two stages, register prefetch into
# one, K and V taking turns) and of holding Q (registers, shared memory), with and without sub-blocks; for decode
# each prefetch (none, issued before or after the barrier, the first block before the query tile) and each order
# of blocks (IL), some at a cut length.
for sc in "attention_fa_nv f16 BC=64,NSG=4,RT=1,STAGES=1,PF=0,PAD=1,THR=8,QS=0,SB=64,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=1,STAGES=2,PF=0,PAD=1,THR=0,QS=0,SB=16,SG=32" \
    "attention_fa_nv f16 BC=64,NSG=8,RT=1,STAGES=1,PF=1,PAD=1,THR=8,QS=0,SB=64,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,SG=32" \
    "attention_fa_nv bf16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,SG=32" \
    "attention_fa_nv bf16 BC=32,NSG=8,RT=1,STAGES=2,PF=0,PAD=0,THR=8,QS=0,SB=32,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=2,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=32,SG=32" \
    "attention_fa_nv bf16 BC=64,NSG=8,RT=1,STAGES=1,PF=3,PAD=1,THR=8,QS=0,SB=64,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=1,PH=1,SG=32" \
    "attention_fa_nv bf16 BC=64,NSG=8,RT=1,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=64,LM=1,PH=1,SG=32" \
    "attention_fa_nv f16 BC=64,NSG=4,RT=1,STAGES=1,PF=0,PAD=1,THR=0,QS=0,SB=16,LM=1,PH=0,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=1,PH=0,EW=1,SG=32" \
    "attention_fa_nv bf16 BC=64,NSG=8,RT=1,STAGES=1,PF=3,PAD=1,THR=0,QS=0,SB=64,LM=0,PH=0,EW=1,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=1,SG=32" \
    "attention_fa_nv bf16 BC=64,NSG=8,RT=1,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=64,LM=0,PH=0,EW=0,RS=2,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=1,STAGES=2,PF=0,PAD=0,THR=0,QS=0,SB=16,LM=0,PH=0,EW=0,RS=1,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,SG=32" \
    "attention_fa_nv bf16 BC=64,NSG=4,RT=1,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=64,LM=0,PH=0,EW=0,RS=1,XP=1,SG=32" \
    "attention_fa_nv f16 BC=64,NSG=4,RT=1,STAGES=1,PF=0,PAD=1,THR=8,QS=0,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,SG=32" \
    "attention_fa_nv bf16 BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=0,QR=4,SG=32" \
    "attention_fa_nv f16 BC=16,NSG=8,RT=2,STAGES=1,PF=3,PAD=0,THR=8,QS=1,SB=16,LM=1,PH=0,EW=0,RS=0,XP=0,QR=4,SG=32" \
    "attention_fa_nv f16 BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SH=1,EH=0,SG=32 FP16_S=1" \
    "attention_fa_nv f16 BC=64,NSG=4,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=64,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,SH=1,EH=1,SG=32 FP16_S=1" \
    "attention_fa_nv f16 BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=1,XP=0,QR=0,SH=1,EH=1,SG=32 FP16_S=1" \
    "attention_decode_nv f16 NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=0,PF=1,IL=0,SG=32" \
    "attention_decode_nv bf16 NSG=2,BC=32,NSPLIT=4,PAD=1,THR=0,QS=1,PF=0,IL=0,SG=32" \
    "attention_decode_nv f16 NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1,PF=1,IL=1,SG=32" \
    "attention_decode_nv bf16 NSG=2,BC=16,NSPLIT=2,PAD=1,THR=8,QS=1,PF=1,IL=1,SG=32" \
    "attention_decode_nv f16 NSG=2,BC=32,NSPLIT=4,PAD=0,THR=0,QS=0,PF=0,IL=1,SG=32 L=4001" \
    "attention_decode_nv f16 NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1,PF=2,IL=1,SG=32 L=4001" \
    "attention_decode_nv bf16 NSG=4,BC=16,NSPLIT=2,PAD=1,THR=8,QS=0,PF=2,IL=0,SG=32" \
    "attention_decode_nv f16 NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1,PF=3,IL=1,SG=32" \
    "attention_decode_nv bf16 NSG=2,BC=16,NSPLIT=4,PAD=1,THR=8,QS=0,PF=3,IL=0,SG=32 L=4001"; do
    template=${sc%% *} rest=${sc#* }
    dtype=${rest%% *} config=${rest#* } problem=""
    case $config in *" "*) problem=${config#* } config=${config%% *} ;; esac # a problem override after the config
    if compile_h200 "compile ${template}_$dtype $config${problem:+ at $problem}" fanv "$SRC/shaders/$template.comp.in" \
        --space "$SRC/spaces/${template}_$dtype.ini" --config "$config" ${problem:+--problem "$problem"}; then
        missing=""
        # (SPIR-V headers spell the reduction and per-element names NV or EXT, by version)
        ops='OpCooperativeMatrixMulAddKHR OpCooperativeMatrixReduce OpCooperativeMatrixPerElementOp'
        ops="$ops CooperativeMatrixConversions"
        [ "$dtype" = bf16 ] && ops="$ops BFloat16CooperativeMatrixKHR"
        for op in $ops; do
            grep -q "$op" "$T/fanv.dis" || missing="$missing $op"
        done
        if [ -n "$missing" ]; then fail "$name" "missing from the disassembly:$missing"; else ok "$name"; fi
    fi
done

# The softmax-in-accumulators prefill spaces: their valid counts under the H200's limits are the ones their comments
# state ('N of R raw'), K and V taking turns behind the barrier (PF = 3), the lazy max (LM), half-precision
# exponentials (PH), element loops (EW), row statistics per thread (RS) and their fused exponentials (XP),
# S in fp16 (SH) and fp16 exponentials (EH) included.
for space in attention_fa_nv_f16 attention_fa_nv_bf16; do
    check_stated_count $space '.*size: \([0-9]*\) of [0-9]* raw.*' "valid at its problem, H200 limits" \
        "$SRC/shaders/attention_fa_nv.comp.in"
done
# fp16 S (SH, EH) is opt-in: only a problem with FP16_S = 1 has it (the count the comment gives), and at the
# default problem an SH configuration fails the constraint that says so.
want=$(sed -n 's/.*raw (\([0-9]*\) with FP16_S=1;.*/\1/p' "$SRC/spaces/attention_fa_nv_f16.ini")
"$BIN" "$SRC/shaders/attention_fa_nv.comp.in" --space "$SRC/spaces/attention_fa_nv_f16.ini" --dry-run \
    --device-profile "$H200" --problem FP16_S=1 >"$T/fanvdry.out" 2>&1
n=$(valid_count "$T/fanvdry.out")
if [ -z "$n" ] || [ "$n" != "$want" ]; then
    fail "attention_fa_nv_f16 valid with FP16_S=1, H200 limits" "'$n', the space's comment says '$want'"
else
    ok "attention_fa_nv_f16 valid with FP16_S=1, H200 limits ($n)"
fi
"$BIN" compile "$SRC/shaders/attention_fa_nv.comp.in" --space "$SRC/spaces/attention_fa_nv_f16.ini" --device-profile "$H200" \
    --config BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,SH=1,EH=1,SG=32 \
    -o "$T/fanvsh.spv" >"$T/fanvsh.out" 2>&1
check "attention_fa_nv_f16: SH = 1 at the default problem (FP16_S = 0) fails constraint 'halfs'" \
    grep -q "fails constraint 'halfs'" "$T/fanvsh.out"
# The template's experiments that live in the isolation space only (session 11): EP moves exponentials to the FMA
# pipe (the polynomial's fma calls appear in the SPIR-V), FZ sets DenormFlushToZero for fp32,
# and the constraint 'fmaexp' keeps EP to RS's fp32 exponentials (not without RS, not with EH's fp16 ones).
ISOA=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SG=32
fmas() {
    "$BIN" compile "$SRC/shaders/attention_fa_nv.comp.in" --space "$SRC/bench/isolate/attention_fa_nv_iso_f16.ini" \
        --problem ISO=0 --config "$1" --device-profile "$H200" --disassemble 2>/dev/null | grep -c "Fma "
}
n0=$(fmas "$ISOA,EP=0") n2=$(fmas "$ISOA,EP=2")
check "attention_fa_nv_iso_f16: EP = 2 computes exponentials by the polynomial (fma ops: $n0 at EP = 0, $n2 at 2)" \
    [ "${n2:-0}" -gt "${n0:-0}" ]
if compile_h200 "compile attention_fa_nv_iso_f16 $ISOA,FZ=1" fz "$SRC/shaders/attention_fa_nv.comp.in" \
    --space "$SRC/bench/isolate/attention_fa_nv_iso_f16.ini" --problem ISO=0 --config "$ISOA,FZ=1"; then
    check "FZ = 1 flushes fp32 denormals (DenormFlushToZero 32)" grep -q "ExecutionMode %main DenormFlushToZero 32" "$T/fz.dis"
fi
for config in BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=1,PH=0,EW=0,RS=0,XP=0,QR=0,SH=0,EH=0,EP=2,SG=32 \
    BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,SH=1,EH=1,EP=2,SG=32; do
    "$BIN" compile "$SRC/shaders/attention_fa_nv.comp.in" --space "$SRC/bench/isolate/attention_fa_nv_iso_f16.ini" \
        --problem ISO=0 --config "$config" --device-profile "$H200" -o "$T/fanvep.spv" >"$T/fanvep.out" 2>&1
    check "attention_fa_nv_iso_f16: $config fails constraint 'fmaexp'" grep -q "fails constraint 'fmaexp'" "$T/fanvep.out"
done
# OV (session 12): the next sub-block's S = Q K^T computed ahead of this one's softmax, so S is multiplied at two
# places in the loop besides the first sub-block's (the SPIR-V holds one more OpCooperativeMatrixMulAddKHR than at
# OV = 0): two stages with the next block's K staged ahead (SB = BC) and sub-blocks within one block (SB < BC), OV = 1
# and 2; bf16's space takes OV = 2. With K two blocks ahead, block 0 waits at one more barrier before its first
# store (the scores computed before the loop read that K after the last barrier: without it, a race that raised
# rel_l2 on the H200, session 12), so those have one OpControlBarrier more; the sub-block ones none. The constraint
# 'overlap' keeps it to a barrier-free sub-block loop (PF = 0), to where the next K is staged, and OV = 2 to RS's
# softmax.
# space_file SPACE: file = its .ini (the isolation space's under bench/isolate, run at ISO = 0), problem = its --problem
space_file() {
    case $1 in *iso*) file="$SRC/bench/isolate/$1.ini" problem="--problem ISO=0" ;; *) file="$SRC/spaces/$1.ini" problem="" ;; esac
}
# compile_pair SPACE CONFIG KNOB VALUE: CONFIG with KNOB = 0 and with KNOB = VALUE compiled for the H200 into
# $T/pair0.dis and $T/pair1.dis; 0 when both compiled and are valid there.
compile_pair() {
    space_file "$1"
    compile_h200 "compile $1 $2,$3=0" pair0 "$SRC/shaders/attention_fa_nv.comp.in" --space "$file" $problem \
        --config "$2,$3=0" &&
        compile_h200 "compile $1 $2,$3=$4" pair1 "$SRC/shaders/attention_fa_nv.comp.in" --space "$file" $problem \
            --config "$2,$3=$4"
}
muladds() { grep -c "OpCooperativeMatrixMulAddKHR" "$1"; }
barriers() { grep -c "OpControlBarrier" "$1"; }
OVG=BC=16,NSG=4,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=1,SB=16,LM=0,PH=0,EW=0,RS=2,XP=0,QR=2,SG=32
for sc in "attention_fa_nv_bf16 $OVG OV=2 1" \
    "attention_fa_nv_iso_f16 BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SH=0,EH=0,EP=0,FZ=0,SG=32 OV=1 1" \
    "attention_fa_nv_iso_f16 BC=64,NSG=4,RT=1,STAGES=1,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=1,PH=1,EW=0,RS=0,XP=0,QR=0,SH=0,EH=0,EP=0,FZ=0,SG=32 OV=1 0" \
    "attention_fa_nv_iso_f16 BC=32,NSG=4,RT=2,STAGES=2,PF=0,PAD=0,THR=8,QS=1,SB=16,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SH=1,EH=1,EP=0,FZ=0,SG=32 OV=2 0"; do
    space=${sc%% *} rest=${sc#* }
    config=${rest%% *} rest=${rest#* }
    ov=${rest%% *} nbar=${rest#* }
    if compile_pair "$space" "$config" OV "${ov#OV=}"; then
        m0=$(muladds "$T/pair0.dis") m1=$(muladds "$T/pair1.dis")
        check "$space $ov computes the next scores ahead (multiply-add sites: $m0 at OV = 0, $m1 at $ov)" \
            [ "$m1" -eq $((m0 + 1)) ]
        b0=$(barriers "$T/pair0.dis") b1=$(barriers "$T/pair1.dis")
        check "$space $ov: $nbar barrier(s) more than at OV = 0 ($b0, $b1)" [ "$b1" -eq $((b0 + nbar)) ]
    fi
done
for config in "BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,OV=2,SG=32" \
    "BC=32,NSG=4,RT=2,STAGES=1,PF=0,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,OV=2,SG=32" \
    "BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=1,PH=0,EW=0,RS=0,XP=0,QR=0,OV=2,SG=32"; do
    "$BIN" compile "$SRC/shaders/attention_fa_nv.comp.in" --space "$SRC/spaces/attention_fa_nv_bf16.ini" \
        --config "$config" --device-profile "$H200" -o "$T/fanvov.spv" >"$T/fanvov.out" 2>&1
    check "attention_fa_nv_bf16: $config fails constraint 'overlap'" grep -q "fails constraint 'overlap'" "$T/fanvov.out"
done
# The shape of the loop (session 13). VT = 1 votes once per sub-block for all row tiles: the row-tile loop splits in
# three (the maxima and the vote's operand, the rescale inside the one branch, the exponentials), two OpLoopMerge
# more than at VT = 0. BF takes the staging of blocks ahead out of its branches, bit 1 the loads (their block index
# clamped by UMin) and bit 2 the stores, with every barrier kept: OpBranchConditional fewer by that structure's
# staging branches (two stages with K two blocks ahead: two loads, block 0's barrier and two stores; two stages: one
# load, one store; PF = 1: K's load, K's store with V's load in one branch (two once BF is not 0), V's store; PF = 2:
# one load, one store). UB = 1 runs two blocks an iteration (one loop more); OA = 1 stores fp16 O through the A type,
# so the module has no fp16 accumulator type. 'vote', 'ahead' and 'unroll' refuse VT without RS, BF where nothing is
# staged ahead and UB without two stages.
loops() { grep -c "OpLoopMerge" "$1"; }
conds() { grep -c "OpBranchConditional" "$1"; }
umins() { grep -c "UMin" "$1"; }
bf_shape() { [ "$c1" -eq $((c0 - fewer)) ] && [ "$u1" -eq "$nmin" ] && [ "$b1" -eq "$b0" ]; }
oa_shape() { [ "$(f16acc "$T/pair0.dis")" -eq 1 ] && [ "$(f16acc "$T/pair1.dis")" -eq 0 ]; }
VTA=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SG=32
for sc in "attention_fa_nv_bf16 $OVG,OV=2,BF=0" "attention_fa_nv_f16 $VTA,SH=0,EH=0,BF=3"; do
    space=${sc%% *} config=${sc#* }
    if compile_pair "$space" "$config" VT 1; then
        l0=$(loops "$T/pair0.dis") l1=$(loops "$T/pair1.dis")
        check "$space $config: VT = 1 splits the row-tile loop around one vote (loops: $l0 at VT = 0, $l1 at 1)" \
            [ "$l1" -eq $((l0 + 2)) ]
    fi
done
OVX="BC=16,NSG=4,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=1,SB=16,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,OV=2,VT=1,SG=32"
PF1="BC=64,NSG=4,RT=1,STAGES=1,PF=1,PAD=1,THR=8,QS=0,SB=64,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,OV=0,VT=0,SG=32"
ST2="BC=32,NSG=4,RT=1,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=32,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,OV=0,VT=0,SG=32"
ISO0="SH=0,EH=0,EP=0,FZ=0"  # the isolation space's experiments, off
ISOX="$ISO0,UB=0,OA=0"
# SPACE CONFIG BF: branches fewer, UMin sites
for sc in "attention_fa_nv_bf16 $OVX 3 5 2" "attention_fa_nv_f16 $VTA,SH=0,EH=0,VT=0 3 2 1" \
    "attention_fa_nv_iso_f16 $OVX,$ISOX 1 2 2" "attention_fa_nv_iso_f16 $OVX,$ISOX 2 3 0" \
    "attention_fa_nv_iso_f16 $PF1,$ISOX 3 3 2" "attention_fa_nv_iso_f16 $PF1,$ISOX 2 1 0" \
    "attention_fa_nv_iso_f16 $ST2,$ISOX 3 2 1"; do
    space=${sc%% *} rest=${sc#* }
    config=${rest%% *} rest=${rest#* }
    bf=${rest%% *} rest=${rest#* }
    fewer=${rest%% *} nmin=${rest#* }
    if compile_pair "$space" "$config" BF "$bf"; then
        c0=$(conds "$T/pair0.dis") c1=$(conds "$T/pair1.dis") u1=$(umins "$T/pair1.dis")
        b0=$(barriers "$T/pair0.dis") b1=$(barriers "$T/pair1.dis")
        check "$space ${config%%,LM=*},BF=$bf: $fewer staging branches fewer ($c0 at BF = 0, $c1), $nmin clamped loads, barriers kept ($b0, $b1)" \
            bf_shape
    fi
done
if compile_pair attention_fa_nv_iso_f16 "$OVX,$ISO0,OA=0,BF=0" UB 1; then
    check "attention_fa_nv_iso_f16: UB = 1 runs two blocks an iteration (loops: $(loops "$T/pair0.dis"), $(loops "$T/pair1.dis"))" \
        [ "$(loops "$T/pair1.dis")" -eq $(($(loops "$T/pair0.dis") + 1)) ]
fi
f16acc() { grep -c "OpTypeCooperativeMatrixKHR %half %uint_3 %uint_16 %uint_16 %uint_2" "$1"; }
if compile_pair attention_fa_nv_iso_f16 "$VTA,$ISO0,OV=0,VT=0,BF=0,UB=0" OA 1; then
    check "attention_fa_nv_iso_f16: OA = 1 stores O through the A type (fp16 accumulator types: $(f16acc "$T/pair0.dis") at OA = 0, $(f16acc "$T/pair1.dis"))" \
        oa_shape
fi
for sc in "attention_fa_nv_f16 BC=64,NSG=4,RT=1,STAGES=1,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=1,PH=1,EW=0,RS=0,XP=0,QR=0,SH=0,EH=0,VT=1,BF=0,SG=32 vote" \
    "attention_fa_nv_bf16 BC=64,NSG=4,RT=1,STAGES=1,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,OV=0,VT=0,BF=3,SG=32 ahead" \
    "attention_fa_nv_f16 BC=64,NSG=4,RT=1,STAGES=1,PF=3,PAD=1,THR=8,QS=0,SB=64,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,SH=0,EH=0,VT=0,BF=3,SG=32 ahead" \
    "attention_fa_nv_iso_f16 $VTA,$ISO0,OV=0,VT=0,BF=0,UB=1,OA=0 unroll"; do
    space=${sc%% *} rest=${sc#* }
    config=${rest%% *} want=${rest#* }
    space_file "$space"
    "$BIN" compile "$SRC/shaders/attention_fa_nv.comp.in" --space "$file" $problem --config "$config" \
        --device-profile "$H200" -o "$T/fanvvt.spv" >"$T/fanvvt.out" 2>&1
    check "$space: ${config%%,SG=*} fails constraint '$want'" grep -q "fails constraint '$want'" "$T/fanvvt.out"
done
# Its isolation space (bench/isolate/attention_fa_nv_iso_f16.ini): every cost dropped alone and together compiles,
# for register prefetch, K and V taking turns (with and without prefetch) and two stages.
for iso in 0 1 2 3 4 7 8 15 16 23 31; do
    for config in "BC=64,NSG=8,RT=1,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=64,SG=32" \
        "BC=64,NSG=2,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=64,SG=32" \
        "BC=64,NSG=4,RT=1,STAGES=1,PF=1,PAD=1,THR=8,QS=0,SB=64,SG=32" \
        "BC=32,NSG=4,RT=1,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=32,SG=32"; do
        name="compile attention_fa_nv_iso_f16 ISO=$iso $config"
        "$BIN" compile "$SRC/shaders/attention_fa_nv.comp.in" --space "$SRC/bench/isolate/attention_fa_nv_iso_f16.ini" \
            --problem ISO=$iso --config "$config" --device-profile "$H200" -o "$T/iso.spv" >"$T/iso.out" 2>&1
        rc=$?
        if [ $rc -ne 0 ] || grep -q "fails constraint" "$T/iso.out"; then
            fail "$name" "exit $rc"
            sed 's/^/  | /' "$T/iso.out"
        else
            ok "$name"
        fi
    done
done

# The VK_NV_cooperative_matrix2 GEMM (issue 5): every loading path compiles to valid SPIR-V that uses
# workgroup-scope matrices: direct tensor loads (KU = 1, 2, 4, 8; BK up to 128) and shared-memory staging (STAGES =
# 1, 2), fp16 and bf16, both B layouts.
# compile_cm2 SPACE TEMPLATE CONFIG PROBLEM: valid under the H200's limits, SPIR-V with workgroup-scope multiplies
compile_cm2() {
    name="compile $1 $3 $4"
    "$BIN" compile "$SRC/shaders/$2.comp.in" --space "$SRC/spaces/$1.ini" --config "$3" --problem "$4" \
        --device-profile "$H200" -o "$T/cm2.spv" >"$T/cm2.out" 2>&1
    rc=$?
    "$BIN" compile "$SRC/shaders/$2.comp.in" --space "$SRC/spaces/$1.ini" --config "$3" --problem "$4" \
        --device-profile "$H200" --disassemble >"$T/cm2.dis" 2>/dev/null
    if [ $rc -ne 0 ]; then
        fail "$name" "exit $rc"
        sed 's/^/  | /' "$T/cm2.out"
    elif ! grep -q "OpCooperativeMatrixMulAddKHR" "$T/cm2.dis"; then
        fail "$name" "no OpCooperativeMatrixMulAddKHR in the disassembly"
    elif ! grep -q "Capability CooperativeMatrixTensorAddressingNV" "$T/cm2.dis"; then
        fail "$name" "no CooperativeMatrixTensorAddressingNV capability in the disassembly"
    elif grep -q "fails constraint" "$T/cm2.out"; then
        fail "$name" "not valid under the H200's limits: $(grep "fails constraint" "$T/cm2.out" | head -n 1)"
    else
        ok "$name"
    fi
}
for space in cm2gemm_f16 cm2gemm_bf16; do
    for cfg in "BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=4,KW=16,STAGES=1,PAD=0,SWZ=8" \
        "BM=128,BN=256,BK=32,NSG=8,LOAD=0,KU=1,KW=16,STAGES=1,PAD=0,SWZ=1" \
        "BM=256,BN=128,BK=16,NSG=8,LOAD=0,KU=2,KW=16,STAGES=1,PAD=0,SWZ=1" \
        "BM=128,BN=128,BK=128,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8" \
        "BM=128,BN=128,BK=64,NSG=4,LOAD=1,KU=1,KW=32,STAGES=1,PAD=1,SWZ=1" \
        "BM=128,BN=128,BK=32,NSG=8,LOAD=1,KU=1,KW=16,STAGES=2,PAD=1,SWZ=8" \
        "BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8,LQ=1"; do
        for bt in 0 1; do
            compile_cm2 $space cm2gemm "$cfg" M=4096,N=4096,K=4096,BT=$bt
        done
    done
done

# LQ, the qualifier of A and B (issue 21, session 9): the one it names reaches the SPIR-V as a decoration or memory
# operand of A's and B's loads, and none without it (cmgemm and cm2gemm spaces take 0 and 1, the isolation space
# also restrict and nontemporal). Both templates use the Vulkan memory model, where a coherent buffer's load has a
# MakePointerVisible operand of queue-family scope (5; shared memory's have workgroup scope, 2).
# lq_check NAME DISASSEMBLY LQ: what LQ must show in the disassembly, and that the others do not show
lq_check() {
    want=""
    case $3 in 1) want="NonPrivatePointer %uint_5" ;; 2) want=Restrict ;; 3) want=Nontemporal ;; esac
    bad=""
    for word in "NonPrivatePointer %uint_5" Restrict Nontemporal; do
        if [ "$word" = "$want" ]; then
            grep -q "$word" "$2" || bad="$bad no $word;"
        elif grep -q "$word" "$2"; then
            bad="$bad $word without LQ = its value;"
        fi
    done
    if [ -n "$bad" ]; then fail "$1" "$bad"; else ok "$1"; fi
}
for lq in 0 1; do
    for sc in "cmgemm cmgemm_f16 FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,PAD=1,SWZ=16" \
        "cm2gemm cm2gemm_bf16 BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"; do
        set -- $sc
        "$BIN" compile "$SRC/shaders/$1.comp.in" --space "$SRC/spaces/$2.ini" --config "$3,LQ=$lq" \
            --device-profile "$H200" --disassemble >"$T/lq.dis" 2>"$T/lq.out" ||
            { fail "compile $2 LQ=$lq" "exit $?"; continue; }
        lq_check "$2 LQ=$lq: the qualifier of A and B in the SPIR-V" "$T/lq.dis" $lq
    done
done
for lq in 2 3; do
    "$BIN" compile "$SRC/shaders/cmgemm.comp.in" --space "$SRC/bench/isolate/cmgemm_iso_f16.ini" \
        --config "FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,PAD=1,SWZ=16,LQ=$lq" \
        --device-profile "$H200" --disassemble >"$T/lq.dis" 2>"$T/lq.out" ||
        { fail "compile cmgemm_iso_f16 LQ=$lq" "exit $?"; continue; }
    lq_check "cmgemm_iso_f16 LQ=$lq: the qualifier of A and B in the SPIR-V" "$T/lq.dis" $lq
done

# The template's experiments that lost on the H200 (bench/isolate/cmgemm_iso_f16.ini, records/session9-issue-21-gemm.md):
# touch prefetch (TP, one word per TPG bytes, its dummy kept alive by a store under gl_NumWorkGroups.z == 2^32 - 1),
# split register prefetch (SP), loads before the barrier (PF = 2), restrict and nontemporal A and B, and the
# isolations that move the loads to L1 (ISO = 4) or L2 (ISO = 5) hits: each compiles, valid under the H200's limits,
# with multiply-adds, and a touch prefetch keeps its guard (the constant 4294967295 in the SPIR-V).
C1X="FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,FB=0,PAD=1,SWZ=16"
K2X="FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=0,PAD=1,SWZ=16"
for iso in 0 4 5; do
    for cfg in "$C1X,PF=1,TP=2;TPG=32;BT=0" "$C1X,PF=0,TP=1;TPG=128;BT=0" "$C1X,PF=1,TP=2;TPG=32;BT=1" \
        "$C1X,PF=2,LQ=2;TPG=32;BT=0" "$K2X,SP=1,TP=2,LQ=3;TPG=32;BT=0" "$K2X,SP=1;TPG=32;BT=1"; do
        config=${cfg%%;*} problem="ISO=$iso,$(echo "${cfg#*;}" | tr ';' ',')"
        compile_h200 "compile cmgemm_iso_f16 $config $problem" isox "$SRC/shaders/cmgemm.comp.in" \
            --space "$SRC/bench/isolate/cmgemm_iso_f16.ini" --config "$config" --problem "$problem" || continue
        if ! grep -q "OpCooperativeMatrixMulAddKHR" "$T/isox.dis"; then
            fail "$name" "no OpCooperativeMatrixMulAddKHR in the disassembly"
        elif case $config in *TP=[12]*) ! grep -q 4294967295 "$T/isox.dis" ;; *) false ;; esac then
            fail "$name" "touch prefetch without its guard (4294967295) in the disassembly"
        else
            ok "$name"
        fi
    done
done

# Fragments straight from the buffer (AG, BG; records/session10-issue-21-gemm.md): each way compiles, valid under the
# H200's limits, for both B layouts (B's fragments read row-major from a K x N B, column-major from an N x K one);
# with neither operand staged the kernel has no barrier (the staged kernel has one per K step), and with AG = 2 or
# BG = 2 the fragment loads inside the K loop outnumber the staged kernel's (tile t + 1's, issued there).
G32X="FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0,FB=0,PAD=1,SWZ=16"
for bt in 0 1; do
    for ab in "AG=0,BG=0" "AG=2,BG=0" "AG=0,BG=2" "AG=2,BG=2" "AG=1,BG=1" "AG=2,BG=1"; do
        compile_h200 "compile cmgemm_iso_f16 $G32X,$ab BT=$bt" agbg "$SRC/shaders/cmgemm.comp.in" \
            --space "$SRC/bench/isolate/cmgemm_iso_f16.ini" --config "$G32X,$ab" --problem "BT=$bt" || continue
        barriers=$(grep -c OpControlBarrier "$T/agbg.dis")
        loads=$(grep -c OpCooperativeMatrixLoadKHR "$T/agbg.dis")
        case $ab in AG=0,BG=0) staged_loads=$loads ;; esac
        if ! grep -q "OpCooperativeMatrixMulAddKHR" "$T/agbg.dis"; then
            fail "$name" "no OpCooperativeMatrixMulAddKHR in the disassembly"
        elif [ "$ab" = AG=2,BG=2 ] && [ "$barriers" -ne 0 ]; then
            fail "$name" "$barriers OpControlBarrier with no operand staged"
        elif [ "$ab" = AG=0,BG=0 ] && [ "$barriers" -eq 0 ]; then
            fail "$name" "no OpControlBarrier in the staged kernel"
        elif case $ab in *=2*) [ "$loads" -le "${staged_loads:-0}" ] ;; *) false ;; esac then
            fail "$name" "$loads cooperative-matrix loads, not more than the staged kernel's ${staged_loads:-?}"
        else
            ok "$name"
        fi
    done
done

if [ $HAVE_DEVICE -eq 0 ]; then
    echo "tuning on a device: skip (no Vulkan device: vkautotune devices fails)"
    echo "$passed passed, $failed failed"
    [ $failed -eq 0 ]
    exit
fi

# int8 (cmgemm.comp.in with S8 = 1): each configuration valid under the H200's limits, with int8 fragments
# (OpTypeInt 8 1) multiplied into int32 accumulators, on both B layouts and every staging path.
for config in "FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16" \
    "FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=2,PF=0,FB=1,PAD=1,SWZ=16" \
    "FN=16,FK=32,WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=3,PF=0,FB=0,PAD=1,SWZ=4" \
    "FN=16,FK=32,WG_M=4,WG_N=2,TM=2,TN=2,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4,CL=1" \
    "FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=1" \
    "FN=16,FK=32,WG_M=4,WG_N=2,TM=2,TN=2,BK=64,STAGES=2,PF=0,FB=0,PAD=1,SWZ=4,WS=2,WC=4" \
    "splitk_s8:FN=16,FK=32,WG_M=4,WG_N=2,TM=2,TN=2,BK=128,STAGES=1,PF=0,FB=0,PAD=1,SWZ=4,KS=2"; do
    space=cmgemm_s8
    case $config in splitk_s8:*) space=cmgemm_splitk_s8; config=${config#splitk_s8:} ;; esac
    bts="0 1"
    case $config in *BS=1*) bts=0 ;; esac # BS = 1 transposes a K-major B: BT = 0 only
    for bt in $bts; do
        compile_h200 "compile $space $config BT=$bt" cm8 "$SRC/shaders/cmgemm.comp.in" \
            --space "$SRC/spaces/$space.ini" --config "$config" --problem BT=$bt || continue
        if ! grep -q "OpTypeInt 8 1" "$T/cm8.dis" || ! grep -q "OpCooperativeMatrixMulAddKHR" "$T/cm8.dis"; then
            fail "$name" "no int8 cooperative-matrix multiply-add in the disassembly"
        else
            ok "$name"
        fi
    done
done

# ---- sgemm tunes and checks on the device ------------------------------------------------------------------------
# shellcheck disable=SC2086 # TUNE holds several words on purpose
"$BIN" --space "$SRC/spaces/sgemm.ini" --budget 6 $TUNE >"$T/tune.json" 2>"$T/tune.err"
check_tune "sgemm tune, [problem.cpu], B row-major" "$T/tune.json" $? 6
# shellcheck disable=SC2086
"$BIN" --space "$SRC/spaces/sgemm.ini" --problem M=128,N=64,K=96,BT=1 --budget 4 $TUNE >"$T/tune.json" \
    2>"$T/tune.err"
check_tune "sgemm tune, M=128,N=64,K=96, B transposed" "$T/tune.json" $? 4

# ---- cooperative-matrix spaces are skipped without their extension -----------------------------------------------
# check_skipped EXTENSION SPACE...: on a device without EXTENSION, each space is skipped with a message naming it.
check_skipped() {
    ext=$1
    shift
    if grep -q "$ext" "$T/devices"; then
        echo "skip without $ext: skip (this device has $ext)"
        return
    fi
    for space in "$@"; do
        # shellcheck disable=SC2086
        "$BIN" --space "$SRC/spaces/$space.ini" --budget 2 $TUNE >"$T/skip.json" 2>"$T/skip.err"
        rc=$?
        if [ $rc -ne 0 ]; then
            fail "$space skipped" "exit $rc"
        elif ! python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))[0]
assert "lacks " + sys.argv[2] in rep.get("skipped", ""), "not skipped for %s: %r" % (sys.argv[2], rep)
print(rep["skipped"])
' "$T/skip.json" "$ext" >"$T/py.out" 2>&1; then
            fail "$space skipped" "$(tail -n 1 "$T/py.out")"
        else
            ok "$space skipped ($(cat "$T/py.out"))"
        fi
    done
}
check_skipped VK_KHR_cooperative_matrix cmgemm_f16 cmgemm_bf16 cmgemm_s8
check_skipped VK_NV_cooperative_matrix2 cm2gemm_f16 cm2gemm_bf16

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
