# s13-lead call 2 (s13-lead, main + VEC = 8 + buffer placement + the push-block check): (1) bf16 VEC = 8 stores
# after the fix (the type's own conversion): RMSNorm and SwiGLU at VEC = 8 and VEC = 4, full measurements with the
# check, rel_l2 of each printed (they should be equal); (2) the new third-party shapes on the H200: buffers in two
# descriptor sets with gaps (axpy_sets), a shared array sized by gl_WorkGroupSize.x (reverse_wg), every variant
# checked.
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
R8=TPR=512,RPW=1,VEC=8,CACHE=1,RED=1,SG=32
R4=TPR=256,RPW=2,VEC=4,CACHE=1,RED=0,SG=32
S8=WGX=256,VEC=8,EPT=1
S4=WGX=128,VEC=4,EPT=2
export R8 R4 S8 S4
sh bench/device_run.sh --top 4 s13-lead-call2 \
  'rms: timeout 60 $BIN shaders/rmsnorm.comp.in --space spaces/rmsnorm_bf16.ini --db $RUN/vec.db --no-race --strategy random --budget 2 --top 2 --start $R8 --start $R4' \
  'swiglu: timeout 60 $BIN shaders/swiglu.comp.in --space spaces/swiglu_bf16.ini --db $RUN/vec.db --no-race --strategy random --budget 2 --top 2 --start $S8 --start $S4' \
  'rel: python3 -c "import sqlite3,sys; [print(*r) for r in sqlite3.connect(sys.argv[1]).execute(\"select kernel, config, status, rel_l2, median_s*1e3 from results order by kernel, config\")]" $RUN/vec.db' \
  'axpy: timeout 60 $BIN --space tests/data/unmodified/axpy_sets.ini --db $RUN/tp.db' \
  'reverse: timeout 60 $BIN --space tests/data/unmodified/reverse_wg.ini --db $RUN/tp.db'
