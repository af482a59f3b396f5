# A scenario sizes its collectives as coll and sim COLL do (nccl-tests'
# buffers): whole elements, and where the buffer is split over the ranks a
# multiple of 16 B a rank. 1MB allgathered over 3 ranks in bf16 runs
# 999,984 B (333,328 B a rank), what sim COLL runs, to the last digit;
# 100 B over 8 ranks rounds to 0 elements and moves nothing, as in sim
# COLL. Before: 1,000,000 B (333,333.3 B a rank, 13.780132 us against 13.780057) and 100 B
# (12.5 B a rank: 12.308 us)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cat > "$d/s.xml" <<'Y'
<scenario name="sizes">
  <collective name="ag3" coll="allgather" ranks="0-2" bytes="1MB" dtype="bf16"/>
  <collective name="ag8" coll="allgather" ranks="0-7" bytes="100B" start="1ms"/>
</scenario>
Y
$CR sim --scenario "$d/s.xml" --topo hgx-h100-8 --json | grep -E '"(name|end_us)"' 
$CR sim allgather --topo hgx-h100-8 --ranks 0-2 -b 1MB --dtype bf16 --json | grep -E '"(size_bytes|sim_us)"'
$CR sim allgather --topo hgx-h100-8 -b 100 --json | grep -E '"(size_bytes|sim_us)"'
