#!/bin/sh
# report_chromium.sh — `vkautotune report` rendered by a real browser: headless Chromium loads the HTML written
# from the checked-in comparison database (records/compare/merged.db), the dumped DOM must hold every part
# of the report, the console must show no error, and a screenshot must come out. Skips, saying why, when
# Chromium is absent (CI installs it: .ci/run).
#
#   sh tests/cli/report_chromium.sh BINARY SOURCE_DIR
#   VKAT_SCREENSHOT=docs/report.png sh tests/cli/report_chromium.sh ...   # also keep the screenshot there
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
CHROMIUM=
for c in chromium chromium-browser google-chrome; do
    if command -v "$c" >/dev/null 2>&1; then
        CHROMIUM=$c
        break
    fi
done
if [ -z "$CHROMIUM" ]; then
    echo "skip: no chromium on PATH (apt-get install chromium); the report's browser test needs it"
    exit 77
fi
DB=$SRC/records/compare/merged.db

# The database is read, not changed: work on a copy (opening switches journaling files next to it).
cp "$DB" "$T/merged.db"
if "$BIN" report -q --db "$T/merged.db" -o "$T/report.html" >"$T/report.out" 2>"$T/report.err"; then
    ok "report written"
else
    fail "report written" "$(cat "$T/report.err")"
fi
grep -q '<script' "$T/report.html" && fail "no script" "the report contains a script" || ok "no script"
grep -Eq '(src|href)="(https?:)?//' "$T/report.html" && fail "self-contained" "an external resource" || ok "self-contained"

flags="--headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync"
# shellcheck disable=SC2086
timeout 120 "$CHROMIUM" $flags --user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" --enable-logging=stderr --v=0 \
    --dump-dom "file://$T/report.html" >"$T/dom.html" 2>"$T/dom.err"
for want in '<table class="devices"' '<section class="kernel" id="kernel-sgemm"' \
    '<section class="kernel" id="kernel-transpose"' '<svg class="bars"' '<svg class="scatter"' \
    '<svg class="heatmap"' '<table class="portability"' 'NVIDIA H200' 'llvmpipe' 'different problem sizes'; do
    if grep -qF "$want" "$T/dom.html"; then ok "dom has $want"; else fail "dom has $want" "missing"; fi
done
if grep -E 'CONSOLE|Uncaught|SyntaxError|TypeError' "$T/dom.err" >/dev/null; then
    fail "no console error" "$(grep -E 'CONSOLE|Uncaught|SyntaxError|TypeError' "$T/dom.err" | head -3)"
else
    ok "no console error"
fi

shot=${VKAT_SCREENSHOT:-$T/report.png}
# shellcheck disable=SC2086
timeout 120 "$CHROMIUM" $flags --user-data-dir="$(mktemp -d "$T/profile.XXXXXX")" --hide-scrollbars \
    --screenshot="$shot" --window-size=1400,2000 "file://$T/report.html" >"$T/shot.out" 2>"$T/shot.err"
if [ -s "$shot" ] && [ "$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    ok "screenshot"
else
    fail "screenshot" "no PNG at $shot: $(tail -2 "$T/shot.err")"
fi
finish
