#!/bin/sh
# subgroup_ops.sh — subgroup operations the device does not list (subgroupSupportedOperations) are invalid usage:
# `devices` shows what it lists, a variant that uses others is refused before its pipeline is made, naming them,
# and a constraint on device.subgroup_NAME keeps such configurations off the device. The refusal is seen on a
# device that lacks clustered operations (lavapipe); elsewhere that part skips, saying why.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the stored rows"
D=$(cd "$SRC/tests/data/subgroup_ops" && pwd)

"$BIN" devices >"$T/dev.txt" 2>&1
check "devices prints the subgroup operations" grep -q "^  subgroup operations .*basic" "$T/dev.txt"
"$BIN" devices --json >"$T/dev.json" 2>&1
check "devices --json lists them" grep -q '"subgroup_operations"' "$T/dev.json"

# A device profile (`devices --json`) carries them: a space checked against one keeps CL = 1 only where clustered
# operations are listed; entries that are not names are ignored.
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
for ops, out in (([None, 3, 'basic', 'shuffle'], sys.argv[2]), (['basic', 'clustered'], sys.argv[3])):
    d[0]['subgroup_operations'] = ops
    json.dump(d, open(out, 'w'))" "$T/dev.json" "$T/no_clustered.json" "$T/clustered.json"
sed "s|= cluster_sum.comp|= $D/cluster_sum.comp|" "$D/cluster_sum.ini" >"$T/with.ini"
"$BIN" --space "$T/with.ini" --dry-run --device-profile "$T/no_clustered.json" >"$T/p0.out" 2>&1
check "a profile without clustered operations: only CL = 0 is valid" \
    sh -c "grep -q 'valid: WG=32,CL=0' '$T/p0.out' && ! grep -q 'valid: .*CL=1' '$T/p0.out'"
"$BIN" --space "$T/with.ini" --dry-run --device-profile "$T/clustered.json" >"$T/p1.out" 2>&1
check "a profile with them: CL = 1 is valid" grep -q 'valid: WG=32,CL=1' "$T/p1.out"

# The kernel library's reductions across lanes run under the validation layer elsewhere (validation_layer.sh);
# here the space of a kernel written for this test, with and without its constraint.
sed '/^clustered = /d' "$T/with.ini" >"$T/without.ini"
"$BIN" --space "$T/with.ini" --db "$T/with.db" --no-race >"$T/with.out" 2>&1
check "with the constraint: every variant the device may run is correct ($(grep strategy "$T/with.out"))" \
    grep -q " 0 failed" "$T/with.out"
if grep -q '"clustered"' "$T/dev.json"; then
    echo "SKIPPED (part): the device lists clustered operations, so nothing is refused here"
else
    check "with the constraint: no CL = 1 configuration on this device" sh -c "! grep -q 'CL=1' '$T/with.out'"
    "$BIN" --space "$T/without.ini" --db "$T/without.db" --no-race >"$T/without.out" 2>&1
    check "without it: the CL = 1 variants fail ($(grep strategy "$T/without.out"))" \
        grep -q "4 evaluated (0 from the database), 2 failed" "$T/without.out"
    python3 -c "import sqlite3,sys; [print(*r) for r in sqlite3.connect(sys.argv[1]).execute(
        \"SELECT config, status, reason FROM results WHERE status != 'ok'\")]" "$T/without.db" >"$T/rows.txt" 2>&1
    check "their reason names the operations and the constraint" \
        grep -q "uses subgroup clustered operations.*does not list in subgroupSupportedOperations.*device.subgroup_clustered" \
        "$T/rows.txt"
fi
finish
