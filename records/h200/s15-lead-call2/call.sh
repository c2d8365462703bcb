#!/bin/sh
# s15-lead-call2: main after merging texel buffers (helper texel) and the lead's runtime tuning of images and texel
# buffers, on the H200: the unit and end-to-end tests of both, the runtime tuner's layouts, and the validation layer.
cd "$(dirname "$0")/.." || exit 1
export X=$PWD/.xfer-lead
export BIN=$X/vkautotune
(cd "$X" && tar -xJf layer.tar.xz && tar -xJf bins.tar.xz)
export VK_LAYER_PATH=$X/layer
sh bench/device_run.sh --top 4 s15-lead-call2 \
  'unit_texel: $X/test_workspace_texel' \
  'unit_image: $X/test_workspace_image' \
  'unmodified: sh tests/cli/unmodified_e2e.sh $BIN $PWD' \
  'init: sh tests/cli/init.sh $BIN $PWD' \
  'layer: sh tests/cli/validation_layer.sh $BIN $PWD' \
  'runtime_sets: sh tests/runtime/sets_e2e.sh $BIN $PWD $X/libvkautotune-runtime.a cc $X/inc' \
  'texel_big: $BIN --space tests/data/unmodified/texel_dot.ini --problem N=16777216 --db $RUN/big.db --no-race --budget 8'
