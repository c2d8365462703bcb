#!/bin/sh
# vkautotune-merge.sh — the Slurm job that runs after the tuning arrays (submit.sh makes it depend on them with
# --dependency=afterok): merges every shard database under $VKAT_OUT/db (all device classes) into
# $VKAT_OUT/merged.db and exports the winners of every device in it to $VKAT_OUT/export (SPIR-V, manifest.json,
# and a selection table with VKAT_EXPORT_ARGS="--header kernels.h"). It needs no GPU: devices absent from this
# node are exported from the database (vkautotune export --all-devices-in-db). Merging is idempotent, so a rerun
# after more shards finished only adds to merged.db.
#
# Environment: VKAT_SPACE, VKAT_OUT and VKAT_BIN as for vkautotune-array.sh; VKAT_EXPORT_ARGS, more export
# options split at spaces (e.g. "--header kernels.h"); VKAT_SPACES, more space files to export (split at spaces).
#SBATCH --job-name=vkat-merge
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --output=vkat-merge-%j.out
set -eu
: "${VKAT_SPACE:?set VKAT_SPACE to the space file}"
: "${VKAT_OUT:?set VKAT_OUT to the shared output directory}"
bin=${VKAT_BIN:-vkautotune}
set -- # the shard databases, in name order
for db in "$VKAT_OUT"/db/*.db; do
    if [ -f "$db" ]; then set -- "$@" "$db"; fi
done
if [ $# -eq 0 ]; then
    echo "vkautotune-merge: no shard databases in $VKAT_OUT/db" >&2
    exit 1
fi
"$bin" merge "$VKAT_OUT/merged.db" "$@"
merged=$#
set -f # the split lists below are never globbed
set -- --space "$VKAT_SPACE"
for s in ${VKAT_SPACES:-}; do
    set -- "$@" --space "$s"
done
# shellcheck disable=SC2086
"$bin" export --db "$VKAT_OUT/merged.db" "$@" --all-devices-in-db -o "$VKAT_OUT/export" ${VKAT_EXPORT_ARGS:-}
echo "vkautotune-merge: $merged shard databases merged into $VKAT_OUT/merged.db, exported to $VKAT_OUT/export"
