#!/bin/sh
# docs-report.sh — regenerates docs/report.html and docs/report.png (the comparison kept in the repository) from
# records/compare/merged.db with the built binary and headless Chromium.
#
#   sh tools/docs-report.sh [BINARY]      # default build/vkautotune; run from the repository root
set -eu
BIN=${1:-build/vkautotune}
"$BIN" report --db records/compare/merged.db -o docs/report.html --title "vkautotune: NVIDIA H200 and lavapipe"
"$BIN" compare --db records/compare/merged.db > records/compare/compare.txt
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT INT TERM
chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$profile" --hide-scrollbars \
    --screenshot="$PWD/docs/report.png" --window-size=1400,2000 "file://$PWD/docs/report.html"
