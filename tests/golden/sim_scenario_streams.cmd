# Ops given one stream= that share a rank run in file order, as kernels on
# one CUDA stream: a and b (256 MB allreduces) and c (100 us compute) on
# stream 1 of GPUs 0-7 end at 1323.231, 2646.461 and 2746.461 us (before:
# all three started at 0, and the timeline nested them badly); d, on
# stream 2, runs beside them from 0. e and f share stream 1 but no GPU
# (0-7 and 8-15 of h100-ib-4n): both run from 0
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cat > "$d/s.xml" <<'X'
<scenario name="streams">
  <collective name="a" coll="allreduce" ranks="0-7" bytes="256MB" algo="ring" stream="1"/>
  <collective name="b" coll="allreduce" ranks="0-7" bytes="256MB" algo="ring" stream="1"/>
  <compute name="c" ranks="0-7" duration="100us" stream="1"/>
  <compute name="d" ranks="0-3" duration="50us" stream="2"/>
</scenario>
X
$CR sim --scenario "$d/s.xml" --topo hgx-h100-8 | sed -n 3,8p
cat > "$d/t.xml" <<'X'
<scenario name="disjoint">
  <compute name="e" ranks="0-7" duration="10us" stream="1"/>
  <compute name="f" ranks="8-15" duration="10us" stream="1"/>
</scenario>
X
$CR sim --scenario "$d/t.xml" --topo h100-ib-4n | sed -n 3,6p
