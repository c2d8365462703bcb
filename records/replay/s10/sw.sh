#!/bin/bash
# usage: sw.sh SEEDS MODE "ENV..." TABLES...
cd /work/wt/s9-replay
seeds=$1; mode=$2; envs=$3; shift 3
T=/work/shared/data/tuning-caches
args=(); for t in "$@"; do [ -f "$t" ] && args+=("$t") || args+=("$T/$t.json"); done
d=/tmp/s10r/sw$$; mkdir -p $d
out=$(env $envs nice build/bench/strategy_replay --seeds $seeds --threads 2 --missing $mode --strategies auto --out $d "${args[@]}" 2>&1)
echo "== $mode $envs"
echo "$out" | awk '/valid of|^mean over/{t=$1} /^auto/{printf "%-22s %s\n", t, $0}'
rm -rf $d
