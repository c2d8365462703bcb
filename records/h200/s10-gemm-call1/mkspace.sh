#!/bin/sh
# mkspace.sh SRC_SPACE OUT_SPACE: the call's experiment space, SRC_SPACE (a cmgemm space) with AG and BG (fragments of
# A / B straight from the buffer: 0 staged, 1 at use, 2 one K step ahead) and LQ (where missing) added as [params].
sed -e '/^\[params\]/a AG = 0, 1, 2\nBG = 0, 1, 2' \
    -e '/^\[constraints\]/a global_frags = (AG != 2 && BG != 2) || FB == 0' "$1" >"$2"
grep -q '^BS *=' "$2" && sed -i '/^\[constraints\]/a staged_b = BS == 0 || BG == 0' "$2"
grep -q '^LQ *=' "$2" || sed -i '/^\[params\]/a LQ = 0, 1' "$2"
