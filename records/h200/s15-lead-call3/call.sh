#!/bin/sh
# s15-lead-call3: main after merging helper third (init's idioms, the reference run twice) on the H200: the third-
# party and init tests, the validation layer, the runtime layouts, and the whole kernel library at its GPU sizes
# (every reference now runs twice and must repeat).
cd "$(dirname "$0")/.." || exit 1
export X=$PWD/.xfer-lead
export BIN=$X/vkautotune
(cd "$X" && tar -xJf layer.tar.xz && tar -xJf bins.tar.xz)
export VK_LAYER_PATH=$X/layer
sh bench/device_run.sh --top 2 s15-lead-call3 \
  'init_idioms: sh tests/cli/init_idioms.sh $BIN $PWD' \
  'init: sh tests/cli/init.sh $BIN $PWD' \
  'unmodified: sh tests/cli/unmodified_e2e.sh $BIN $PWD' \
  'layer: sh tests/cli/validation_layer.sh $BIN $PWD' \
  'runtime_sets: sh tests/runtime/sets_e2e.sh $BIN $PWD $X/libvkautotune-runtime.a cc $X/inc' \
  'kernels: timeout 420 sh tests/cli/kernels.sh $BIN $PWD'
