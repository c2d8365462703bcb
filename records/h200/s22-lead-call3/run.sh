# Session 22 lead call 3: time to 0.95 of the best known sgemm_wt configuration from scratch at 4096^3, the unraced
# baseline against the defaults, with the sliced-K fix (bench/race.py, as session 11's s11-pipe-call1).
set -u
export BIN=$PWD/.dev22/vkautotune __GL_SHADER_DISK_CACHE=0
PYTHONUNBUFFERED=1 python3 bench/race.py --bin $BIN --jobs 16 --spaces spaces/sgemm_wt.ini --pair-budget 0 \
    --modes baseline,new --search-seconds 18,8 --search-seeds 3 --best-known-ms sgemm_wt.ini=2.8866 \
    --trace-dir /tmp/traces --out $OUT/race.md > $OUT/race.log 2>&1; echo "race rc=$?"
tail -40 $OUT/race.md
