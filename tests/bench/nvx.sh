#!/bin/sh
# nvx.sh — bench/isolate/nvx_probe and nvx_gemm (CUDA modules through VK_NVX_binary_import, issue 21,
# records/session10-issue-21-gemm.md) outside an NVIDIA driver, so that a program error shows here:
#   - wrong command lines are refused with exit 2 and a usage or a reason, before any device is touched;
#   - on a device without the extension (lavapipe in CI) both say so and exit 77, as the H200 calls rely on;
#   - where the extension exists, a module file that cannot be read is refused.
#   sh nvx.sh VKAUTOTUNE SOURCE_DIR NVX_PROBE NVX_GEMM
set -u
[ $# -eq 4 ] || { echo "usage: $0 VKAUTOTUNE SOURCE_DIR NVX_PROBE NVX_GEMM" >&2; exit 2; }
PROBE=$3 GEMM=$4
set -- "$1" "$2"
. "$(dirname "$0")/../cli/lib/common.sh" "$@"

# expect NAME RC PATTERN CMD...: CMD exits RC and prints (stdout or stderr) a line matching PATTERN
expect() {
    name=$1 want=$2 pattern=$3
    shift 3
    "$@" >"$T/out" 2>&1
    rc=$?
    if [ $rc -ne "$want" ]; then
        fail "$name" "exit $rc, want $want: $(head -n 1 "$T/out")"
    elif ! grep -q -- "$pattern" "$T/out"; then
        fail "$name" "no line matching '$pattern': $(head -n 1 "$T/out")"
    else
        ok "$name"
    fi
}
expect "nvx_probe without arguments" 2 "usage: nvx_probe MODULE FUNCTION" "$PROBE"
expect "nvx_probe N not a multiple of 256" 2 "multiple of 256" "$PROBE" m f 100
expect "nvx_gemm without sizes" 2 "usage: nvx_gemm MODULE FUNCTION M N K" "$GEMM" m f 128
expect "nvx_gemm M not a multiple of 128" 2 "M must be a positive multiple of 128" "$GEMM" m f 100 128 64
expect "nvx_gemm N not a multiple of BN" 2 "N of BN" "$GEMM" m f 128 128 64 256
# vkautotune devices lists only the extensions the tuner uses: the probe itself says whether the driver has it
"$PROBE" "$T/none.cubin" f >/dev/null 2>&1
if [ $? -eq 77 ]; then
    expect "nvx_probe without the extension" 77 "no device offers VK_NVX_binary_import" "$PROBE" "$T/none.cubin" f
    expect "nvx_gemm without the extension" 77 "no device offers VK_NVX_binary_import" "$GEMM" "$T/none.cubin" f 128 128 64
else
    expect "nvx_probe: an unreadable module" 1 "cannot read" "$PROBE" "$T/none.cubin" f
fi
finish
