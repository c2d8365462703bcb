#!/bin/bash
# usage: swb.sh BIN SEEDS MODE "ENV..." TABLES...
bin=$1; seeds=$2; mode=$3; envs=$4; shift 4
T=/work/shared/data/tuning-caches
args=(); for t in "$@"; do [ -f "$t" ] && args+=("$t") || args+=("$T/$t.json"); done
d=/tmp/s10r/sw$$; mkdir -p $d
out=$(env $envs nice /tmp/s10r/bin/sr-$bin --seeds $seeds --threads 2 --missing $mode --strategies auto --out $d "${args[@]}" 2>&1)
echo "== $bin $mode $envs"
echo "$out" | awk '/valid of|^mean over/{t=$1} /^auto/{printf "%-22s %s\n", t, $0}'
rm -rf $d
