# s14-lead call 1: images on the H200 (NVIDIA's image path: optimal tiling, GENERAL layout, its sampler):
# test_workspace_image, the CLI tests that run image spaces (unmodified_e2e, init), then the blur (rgba32f storage
# images) and the sampled downsample (rgba8) at GPU sizes, every variant checked.
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
sh bench/device_run.sh --top 6 s14-lead-call1 \
  'unit: ./test_workspace_image' \
  'e2e: sh tests/cli/unmodified_e2e.sh $BIN .' \
  'init: sh tests/cli/init.sh $BIN .' \
  'blur: timeout 120 $BIN --space tests/data/unmodified/blur_image.ini --problem W=4096,H=4096 --db $RUN/img.db --top 4' \
  'down: timeout 120 $BIN --space tests/data/unmodified/downsample_sampled.ini --problem W=8192,H=8192 --db $RUN/img.db --top 4' \
  'rel: python3 -c "import sqlite3,sys; [print(*r) for r in sqlite3.connect(sys.argv[1]).execute(\"select kernel, config, status, rel_l2, max_abs, median_s*1e3 from results order by kernel, config\")]" $RUN/img.db'
