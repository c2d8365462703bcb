# s18-lead call 1: session 17's subgroup-operation work on NVIDIA. The devices' listed subgroup operations (does
# the H200 list clustered?), tests/cli/subgroup_ops.sh there, and the kernel library spaces that now carry
# CL = 0, 1 (clustered ops, or the xor-shuffle butterfly where a device does not list them): with clustered listed
# the constraint pins CL = 1, whose SPIR-V is the session-16 one, so the times should be the recorded ones.
# Run from the repository root: . .gl/enter.sh && sh records/h200/s18-lead-call1/call.sh (binary in .xfer-lead/).
mkdir -p build && cp .xfer-lead/vkautotune build/vkautotune || exit 2
export BIN=$PWD/build/vkautotune
sh bench/device_run.sh --top 3 s18-lead-call1 \
  'devices: $BIN devices && $BIN devices --json' \
  'subgroup: sh tests/cli/subgroup_ops.sh $BIN .' \
  'kernels: timeout 400 python3 bench/llm_kernels.py --binary $BIN --budget 6s --baseline-rounds 3 --eager-only \
     --only softmax_f16,rmsnorm_f16,layernorm_f16,reduce_sum_f16,xent_f16,attention_decode_f16 \
     --db $RUN/k.db --out $RUN/llm.md' \
  'cl: python3 -c "import sqlite3,sys; [print(*r) for r in sqlite3.connect(sys.argv[1]).execute(\"select kernel, instr(config, \x27CL=1\x27) > 0 as cl1, status, count(*) from results group by 1, 2, 3 order by 1, 2, 3\")]" $RUN/k.db'
cat $OUT/s18-lead-call1/llm.md 2>/dev/null | tail -20
