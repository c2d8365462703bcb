#!/bin/sh
# procs.sh NPROC THREADS REPS JOBS OUTDIR — the same jobs split round-robin over NPROC pipeline_time processes at once
set -u
N=$1 T=$2 R=$3 J=$4 O=$5
mkdir -p $O
i=0; while [ $i -lt $N ]; do awk -v n=$N -v i=$i 'NR % n == i' $J > $O/part$i.jobs; i=$((i+1)); done
t0=$(date +%s.%N)
i=0; while [ $i -lt $N ]; do __GL_SHADER_DISK_CACHE=0 .xfer-lead/pipeline_time --threads $T --reps $R $O/part$i.jobs > $O/part$i.tsv 2>&1 & i=$((i+1)); done
wait
t1=$(date +%s.%N)
echo "nproc=$N threads=$T reps=$R wall_s=$(echo "$t1 - $t0" | bc)"
cat $O/part*.tsv | awk -F'\t' '$2 ~ /^[0-9]+$/ {c+=$6; n++} END {printf "jobs=%d cpu_s=%.1f mean_cpu_ms=%.0f\n", n, c/1000, c/n}'
