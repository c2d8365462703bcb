#!/bin/sh
# device_profile.sh — a device described by `devices --json` stands in for the device itself: the dry run of a space
# whose constraints read device limits gives the same counts from the file as from the device, and compile targets
# the same Vulkan version.
. "$(dirname "$0")/lib/common.sh" "$@"
need_device

"$BIN" devices --json >"$T/devices.json" 2>"$T/err" || { cat "$T/err"; exit 1; }
for space in sgemm_wt.ini attention_f16.ini softmax_f16.ini; do
    "$BIN" --space "$SRC/spaces/$space" --dry-run --device 0 >"$T/real.out" 2>&1
    "$BIN" --space "$SRC/spaces/$space" --dry-run --device-profile "$T/devices.json" >"$T/profile.out" 2>&1
    check "$space: the dry run from the profile is the device's" cmp -s "$T/real.out" "$T/profile.out"
    cmp -s "$T/real.out" "$T/profile.out" || diff "$T/real.out" "$T/profile.out" | head -n 10
done
"$BIN" compile --space "$SRC/spaces/gemm.ini" -o "$T/a.spv" --device 0 >"$T/a.out" 2>&1
"$BIN" compile --space "$SRC/spaces/gemm.ini" -o "$T/b.spv" --device-profile "$T/devices.json" >"$T/b.out" 2>&1
check "compile from the profile writes the same SPIR-V" cmp -s "$T/a.spv" "$T/b.spv"
finish
