#!/bin/sh
# s15-lead-call1: session 15's lead changes on the H200 (.length() descriptors, device features, the validation layer
# over the tuner and the runtime tuner on NVIDIA's driver).
cd "$(dirname "$0")/.." || exit 1
X=$PWD/.xfer-lead
export BIN=$X/vkautotune
(cd "$X" && tar -xJf layer.tar.xz)
export VK_LAYER_PATH=$X/layer
sh bench/device_run.sh --top 6 s15-lead-call1 \
  'devices: $BIN devices | head -30' \
  'unmodified: sh tests/cli/unmodified_e2e.sh $BIN $PWD' \
  'oob: $BIN --space .xfer-lead/oob/oob.ini --db $RUN/oob.db --no-race --warmup 0 --repetitions 3 -v; sqlite3 $RUN/oob.db "select config, status, reason from results" 2>/dev/null || python3 -c "import sqlite3,sys; [print(r) for r in sqlite3.connect(sys.argv[1]).execute(\"select config, status, reason from results\")]" $RUN/oob.db' \
  'coopmat_feature: $BIN --space tests/data/unmodified/bad/coopmat_feature.ini --db $RUN/cf.db --no-race --warmup 0 --repetitions 3' \
  'layer: sh tests/cli/validation_layer.sh $BIN $PWD' \
  'layer_library: for s in spaces/gemm.ini spaces/cmgemm_f16.ini spaces/cm2gemm_f16.ini spaces/attention_decode_f16.ini spaces/softmax_f16.ini spaces/cmgemm_splitk_f16.ini; do echo "== $s"; VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation timeout 100 $BIN --space $s --db $RUN/lib.db --budget 4 --warmup 0 --repetitions 2 -q >$RUN/l.txt 2>&1; echo "exit $?"; grep -o "Validation Error: \[ [A-Za-z0-9_-]* \]" $RUN/l.txt | sort | uniq -c; grep -m1 -A2 "Validation Error" $RUN/l.txt | cut -c1-700; tail -2 $RUN/l.txt; done' \
  'runtime_sets: command -v cc && sh tests/runtime/sets_e2e.sh $BIN $PWD $X/libvkautotune-runtime.a cc $PWD/.xfer-lead/inc'
