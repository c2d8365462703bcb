# makes the experiment spaces: cmgemm_f16/bf16.ini and the iso space with TP and SP as parameters
# usage: sh mkspace.sh OUTDIR (from the repository root)
O=$1
SA='split_a = SP == 0 || (WG_M * TM * FM * BK / 8 / (WG_M * WG_N * device.subgroup_size)) % (BK / FK) == 0'
SB='split_b = SP == 0 || (WG_N * TN * FN * BK / 8 / (WG_M * WG_N * device.subgroup_size)) % (BK / FK) == 0'
for f in spaces/cmgemm_f16.ini spaces/cmgemm_bf16.ini bench/isolate/cmgemm_iso_f16.ini; do
  b=$(basename $f .ini)
  case $b in
  *iso*) T='touch = TP == 0 || STAGES < 3'; P="split = SP == 0 || (STAGES == 2 \&\& FB == 0)" ;;
  *) T='touch = TP == 0 || (WS == 0 \&\& STAGES < 3)'; P="split = SP == 0 || (STAGES == 2 \&\& FB == 0 \&\& CL == 0 \&\& WS == 0 \&\& BS == 0)" ;;
  esac
  sed -e '/^SWZ = /a TP = 0, 1, 2\nSP = 0, 1\nLQ = 0, 1, 2, 3' -e 's/^PF = 0, 1 /PF = 0, 1, 2 /' -e '/^BF16 = /a TPG = 32' -e "/^fits = /i $T\n$P\n$SA\n$SB" \
      -e "s/^name = \(.*\)/name = \1_s9/" $f > $O/$(dirname $f)/${b}_s9.ini
done
