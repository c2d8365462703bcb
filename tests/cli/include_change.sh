#!/bin/sh
# include_change.sh — a file the template includes is part of what a stored result stands for: after an included
# file changes, a rerun measures again (nothing comes from the database) and sees what the change did; with the
# file as it was, the stored results hold again.
. "$(dirname "$0")/lib/common.sh" "$@"
need_device

cp -R "$SRC/tests/data/unmodified/shaders" "$SRC/tests/data/unmodified/inc" "$SRC/tests/data/unmodified/matmul_spec.ini" "$T/"
RUN="--space $T/matmul_spec.ini --db $T/r.db --warmup 0 --repetitions 2 --pipeline-cache none --budget 6"

# shellcheck disable=SC2086 # RUN holds several words on purpose
"$BIN" $RUN >"$T/out1" 2>"$T/err1"
check "first run measures all six" grep -q "6 evaluated (0 from the database), 0 failed" "$T/out1"

# shellcheck disable=SC2086
"$BIN" $RUN >"$T/out2" 2>"$T/err2"
check "an unchanged rerun takes all six from the database" grep -q "6 evaluated (6 from the database)" "$T/out2"

# Break the included indexing (two folders away from the template): every variant now computes the wrong thing.
sed 's/return r \* stride + c;/return r * stride + c + (r == 1u ? 1u : 0u);/' "$T/inc/common/indexing.glsl" >"$T/x"
mv "$T/x" "$T/inc/common/indexing.glsl"
check "the include was changed" grep -q "r == 1u" "$T/inc/common/indexing.glsl"
# shellcheck disable=SC2086
"$BIN" $RUN >"$T/out3" 2>"$T/err3"
check "after the include changed, nothing comes from the database" grep -q "6 evaluated (0 from the database), 6 failed" "$T/out3"

cp "$SRC/tests/data/unmodified/inc/common/indexing.glsl" "$T/inc/common/indexing.glsl"
# shellcheck disable=SC2086
"$BIN" $RUN >"$T/out4" 2>"$T/err4"
check "with the include restored, the first results hold again" grep -q "6 evaluated (6 from the database), 0 failed" "$T/out4"
# The reference's includes count too: a reference that includes a file, then that file changed (the reference now
# computes twice the product), makes every stored result stale, and each variant is measured and found wrong.
sed 's|^void main()|#include "common/ref_scale.glsl"\nvoid main()|; s|c\[row \* N + col\] = acc;|c[row * N + col] = REF_SCALE * acc;|' \
    "$SRC/tests/data/unmodified/shaders/matmul_ref.comp" >"$T/shaders/matmul_ref.comp"
echo "const float REF_SCALE = 1.0;" >"$T/inc/common/ref_scale.glsl"
# shellcheck disable=SC2086
"$BIN" $RUN >"$T/out5" 2>"$T/err5"
check "a reference with an include: measured again (its key changed), and correct" \
    grep -q "6 evaluated (0 from the database), 0 failed" "$T/out5"
echo "const float REF_SCALE = 2.0;" >"$T/inc/common/ref_scale.glsl"
# shellcheck disable=SC2086
"$BIN" $RUN >"$T/out6" 2>"$T/err6"
check "after the reference's include changed, nothing comes from the database and all six are wrong" \
    grep -q "6 evaluated (0 from the database), 6 failed" "$T/out6"
finish
