#!/bin/sh
# fields.sh — [fields.NAME]: a uniform block's members (a count that bounds the invocations, a scale, a vec2 at
# std140's place, a stride) given values over the buffer's init. The kernel is right only with them (random bits
# make the count and the stride garbage); a field at another member's offset or of the other kind is refused
# naming the member; mistakes in the section are errors at their line; init writes the section, with the member
# the shader bounds its invocations by as the problem size, and its file tunes as written.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the manifest"
D=$(cd "$SRC/tests/data/fields" && pwd)
sed "s|= scale_ubo|= $D/scale_ubo|" "$D/scale_ubo.ini" >"$T/s.ini"

# tune SPACE NAME: a short exhaustive run, its stdout in $T/NAME.out, stderr in $T/NAME.err, exit code in $rc
tune() {
    "$BIN" --space "$1" --db "$T/$2.db" --budget 5 --no-race >"$T/$2.out" 2>"$T/$2.err"
    rc=$?
}

tune "$T/s.ini" ok
check "with its fields every variant matches the reference (exit $rc: $(tail -n 1 "$T/ok.err"))" \
    grep -q "3 evaluated (0 from the database), 0 failed" "$T/ok.out"

"$BIN" export --space "$T/s.ini" --db "$T/ok.db" -o "$T/exp" --header k.h >/dev/null 2>"$T/exp.err"
check "export (exit $?: $(tail -n 1 "$T/exp.err"))" test -f "$T/exp/manifest.json"
check "the manifest lists the fields with their values" python3 -c "
import json, sys
b = json.load(open(sys.argv[1]))['kernels'][0]['bindings'][0]
f = {x['name']: (x['offset'], x['value']) for x in b['fields']}
assert f == {'count': (0, 1000), 'scale': (4, 2.5), 'shift.x': (8, 0.75), 'shift.y': (12, 0.25), 'stride': (16, 1)}, f
" "$T/exp/manifest.json"
check "the header's fill of P carries its 5 fields for the runtime tuner" \
    grep -q "k_fills_0\[\] = {{VKAT_RT_FILL_RANDOM, 0, 100000, k_ops_0_fields_0, 5}" "$T/exp/k.h"

sed '/^\[fields.P\]/,/^stride/d' "$T/s.ini" >"$T/none.ini"
tune "$T/none.ini" none
check "without them (random bits for the count and stride) no variant is right (exit $rc)" \
    grep -q "3 failed" "$T/none.out"

sed 's/^shift = float32, 0.75, 0.25$/shift = float32, 0.75, 0.25 @offset(16)/' "$T/s.ini" >"$T/moved.ini"
tune "$T/moved.ini" moved
check "a field at another offset than its member: refused (exit $rc)" [ $rc -eq 3 ]
check "naming the member, its offset and the field's line" \
    grep -q "uniform block with 'shift' at offset 8, but \[fields.P\] (.*moved.ini:21) puts 'shift.x' at offset 16" \
    "$T/moved.err"

sed 's/^scale = float32, 2.5$/scale = uint32, 2/' "$T/s.ini" >"$T/kind.ini"
tune "$T/kind.ini" kind
check "an integer for a float member: refused (exit $rc)" [ $rc -eq 3 ]
check "saying which is which" grep -q "'scale' (offset 4) is a float, but the field 'scale' there" "$T/kind.err"

# bad SED NAME MESSAGE: the space edited by SED is an error at its line, saying MESSAGE
bad() {
    sed "$1" "$T/s.ini" >"$T/$2.ini"
    tune "$T/$2.ini" "$2"
    check "$2: refused (exit $rc)" [ $rc -eq 3 ]
    check "$2: $3" grep -q "$3" "$T/$2.err"
}
bad 's/^\[fields.P\]$/[fields.Q]/' no-buffer "no-buffer.ini:18: \[fields.Q\]: no buffer 'Q' in \[buffers\]"
bad 's/^\[fields.P\]$/[fields.Y]/' output "output.ini:18: \[fields.Y\]: buffer 'Y' (line 16) is an output"
bad 's/^scale = float32, 2.5$/scale = float32, WG/' parameter "parameter.ini:20: field 'scale' of buffer 'P' depends on parameter 'WG'"
bad 's/^P = uint32, 8,/P = uint32, 4,/' past-end "past-end.ini:22: field 'stride' at byte 16 lies past the end of buffer 'P' (16 bytes)"
bad 's/^stride = uint32, 1$/stride = uint32, 1\nscale = float32, 1/' duplicate "duplicate.ini:23: duplicate field 'scale' (first at line 20)"

"$BIN" init "$D/scale_ubo.comp" -o "$T/i.ini" 2>/dev/null
check "init: the member that bounds the invocations is the problem size" grep -q '^count = 1024 @none ' "$T/i.ini"
check "init: a [fields.P] section" grep -q '^\[fields.P\]$' "$T/i.ini"
check "init: the count field is the size" grep -q '^count = uint32, count ' "$T/i.ini"
check "init: a float, a vec2 and another integer" \
    sh -c "grep -q '^scale = float32, 1.0 ' '$T/i.ini' && grep -q '^shift = float32, 1.0, 1.0 ' '$T/i.ini' &&
           grep -q '^stride = uint32, 1 ' '$T/i.ini'"
tune "$T/i.ini" init
check "init's file tunes as written (exit $rc: $(tail -n 1 "$T/init.err"))" grep -q ", 0 failed" "$T/init.out"
finish
