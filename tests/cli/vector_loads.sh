#!/bin/sh
# vector_loads.sh — VEC = 8, the 16-byte loads and stores of 16-bit elements (shaders/vector_io.glsl), in the
# memory-bound templates that take it (RMSNorm, SwiGLU, row sum and max):
#   - in fp16 and bf16 every such configuration reads and writes its buffers as 16-byte vectors (uvec4 in the
#     SPIR-V), and VEC = 4 does not; bf16 stores convert with the type's own conversion (compiled here, so bf16 is
#     covered without a bf16 device);
#   - on the device, every fp16 configuration with VEC = 8 (a copy of the space with VEC pinned, at its
#     [problem.cpu] size, whose rows are not a multiple of the vector x thread count: the tail guards run) passes the
#     reference check. lavapipe has no bf16; its VEC = 8 runs against its own reference on devices that have it.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_python "to read --json"
SHADERS=$(cd "$SRC" && pwd)/shaders

SPACES="rmsnorm swiglu reduce_sum reduce_max"
for name in $SPACES; do
    for dt in f16 bf16; do
        space="$SRC/spaces/${name}_$dt.ini"
        for vec in 4 8; do
            if ! "$BIN" compile --space "$space" --config VEC=$vec --disassemble -o "$T/v.spv" >"$T/v.txt" 2>"$T/v.err"; then
                fail "${name}_$dt VEC=$vec compiles" "$(tail -n 1 "$T/v.err")"
                continue
            fi
            # a stored vector of 16-bit elements is 16 bytes only at VEC = 8
            loads=$(grep -c "OpLoad %v4uint" "$T/v.txt")
            stride16=$(grep -c "OpTypeRuntimeArray %v4uint" "$T/v.txt")
            if [ $vec -eq 8 ]; then
                check "${name}_$dt VEC=8: buffers of 16-byte vectors, loaded as such ($stride16 arrays, $loads loads)" \
                    test "$stride16" -ge 1 -a "$loads" -ge 1
                # the kernels that store vectors: bf16 rounds with the type's own conversion, as at VEC <= 4 and in
                # the reference (a rounding written out differed from it on the H200)
                case $name$dt in rmsnormbf16 | swiglubf16)
                    check "${name}_bf16 VEC=8: stores through the bf16 conversion" grep -q "OpFConvert %v2bfloat16" "$T/v.txt"
                esac
            else
                check "${name}_$dt VEC=4: no 16-byte vectors ($stride16 arrays)" test "$stride16" -eq 0
            fi
        done
    done
done

if ! "$BIN" devices >/dev/null 2>&1; then
    echo "skip: the device runs (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
    finish
    exit
fi
for name in $SPACES; do
    space="$T/${name}_f16.ini"
    sed -e "s|\.\./shaders/|$SHADERS/|" -e 's/^VEC = .*/VEC = 8/' "$SRC/spaces/${name}_f16.ini" >"$space"
    template=$(sed -n 's/^template = //p' "$space" | head -n 1)
    "$BIN" "$template" --space "$space" --db "$T/v.db" --strategy random --budget 8 --seed 2 --warmup 0.01 \
        --repetitions 2 --no-race --kernel-timeout 300 --json >"$T/$name.json" 2>"$T/$name.err" </dev/null
    rc=$?
    if [ $rc -ne 0 ]; then
        fail "${name}_f16 VEC=8 tunes" "exit $rc: $(tail -n 1 "$T/$name.err")"
        continue
    fi
    if python3 - "$T/$name.json" >"$T/$name.py" 2>&1 <<'PY'; then
import json, sys
run = json.load(open(sys.argv[1]))[0]
assert "skipped" not in run, run.get("skipped")
assert run["evaluated"] >= 1 and run["failed"] == 0, "%d evaluated, %d failed" % (run["evaluated"], run["failed"])
assert all("VEC=8" in b["config"] for b in run["best"]) and run["best"], run["best"]
print("%d evaluated, every one passed the check" % run["evaluated"])
PY
        ok "${name}_f16 VEC=8 on the device: $(tail -n 1 "$T/$name.py")"
    else
        fail "${name}_f16 VEC=8 on the device" "$(tail -n 1 "$T/$name.py")"
    fi
done
finish
