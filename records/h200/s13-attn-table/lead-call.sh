# s13-lead call 3 (s13-lead b16765c: main + the lead's changes + s13-attn merged): helper attn's prefill table on the
# committed spaces (records/h200/s13-attn-table/call.sh: 5 baseline rounds, FlashAttention-2 and cuDNN in the same
# call, the tensor-core peak), with the merged binary.
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
sh records/h200/s13-attn-table/call.sh
