# Scenario collectives are out of place, as `commroof coll` and `commroof sim
# COLL` price them by default (nccl-tests too). Before: in place, so on
# mi300x-8 a 12 MiB allreduce (3,145,728 fp32, a multiple of 512) missed
# RCCL's out-of-place MSCCL all-pairs range and ran as a ring, 176.422 us
# against the 114.523 us `commroof sim allreduce --topo mi300x-8 -b 12MiB`
# gives; and a one-rank op took 0 us, below coll's bound (a local copy:
# alltoall of 42,049,200 B on one A100, bound 20.675 us, pred 56.409 us,
# which it now takes)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cat > "$d/s.xml" <<'Y'
<scenario name="out-of-place">
  <collective name="ar" coll="allreduce" ranks="0-7" bytes="12582912B"/>
</scenario>
Y
$CR sim --scenario "$d/s.xml" --topo mi300x-8 | sed -n 5p
$CR sim allreduce --topo mi300x-8 -b 12582912 --json | grep '"sim_us"'
cat > "$d/t.xml" <<'Y'
<scenario name="one-rank">
  <collective name="copy" coll="alltoall" ranks="2" bytes="42049200B"/>
</scenario>
Y
$CR sim --scenario "$d/t.xml" --topo dgx-a100-8 | sed -n 5p
$CR coll alltoall --topo dgx-a100-8 --ranks 2 -b 42049200 -e 42049200 --json | grep -E '"(bound_us|pred_us)"'
