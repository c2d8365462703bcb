#!/bin/sh
# vkautotune-array.sh — one task of a Slurm job array that shares a tuning search: task K of N tunes shard K/N
# (`vkautotune --shard K/N`) into its own database, $VKAT_OUT/db/$VKAT_CLASS-shardK-of-N.db, so that tasks on
# different nodes never write the same file. vkautotune-merge.sh puts the shards back together; submit.sh submits
# both. The array must be 0-based and contiguous (--array=0-(N-1)); sbatch options given on the command line
# (--array, --partition, --constraint, --gres) override the defaults below.
#
# Environment (sbatch passes the submitter's environment on):
#   VKAT_SPACE      the space file (required; a path every node can read)
#   VKAT_OUT        the shared output directory (required)
#   VKAT_BIN        the vkautotune program (default: vkautotune on PATH)
#   VKAT_CLASS      a name for the device class this array tunes, part of the database names (default: all)
#   VKAT_TUNE_ARGS  more tune options, split at spaces (e.g. "--device NVIDIA --budget 300 --strategy auto")
#   VKAT_PIPELINE_CACHE  pipeline cache directory (default: one per shard under $VKAT_OUT/pipeline-cache, so that
#                   concurrent tasks never write the same cache file)
#SBATCH --job-name=vkat-tune
#SBATCH --array=0-3
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=vkat-tune-%A_%a.out
set -eu
: "${VKAT_SPACE:?set VKAT_SPACE to the space file}"
: "${VKAT_OUT:?set VKAT_OUT to the shared output directory}"
: "${SLURM_ARRAY_TASK_ID:?not a job array task (submit with sbatch --array=0-N)}"
bin=${VKAT_BIN:-vkautotune}
class=${VKAT_CLASS:-all}
k=$SLURM_ARRAY_TASK_ID
n=${SLURM_ARRAY_TASK_COUNT:-$((SLURM_ARRAY_TASK_MAX + 1))}
if [ "${SLURM_ARRAY_TASK_MIN:-0}" -ne 0 ] || [ "$k" -ge "$n" ]; then
    echo "vkautotune-array: task $k of $n: the array must be --array=0-$((n - 1)) (0-based, contiguous)" >&2
    exit 2
fi
mkdir -p "$VKAT_OUT/db"
cache=${VKAT_PIPELINE_CACHE:-$VKAT_OUT/pipeline-cache/$class-shard$k}
mkdir -p "$cache"
echo "vkautotune-array: $class shard $k/$n on $(hostname) (job ${SLURM_ARRAY_JOB_ID:-?}_$k)"
set -f # VKAT_TUNE_ARGS is split at spaces, never globbed
# shellcheck disable=SC2086
exec "$bin" --space "$VKAT_SPACE" --shard "$k/$n" --db "$VKAT_OUT/db/$class-shard$k-of-$n.db" \
    --pipeline-cache "$cache" ${VKAT_TUNE_ARGS:-}
