# A GPU pair that NCCL relays through a third over NVLink (path NVB) while
# the topology does not: the corpus's DGX-1-style V100 mesh with its
# route.gpu_transit line taken out. topo check says OK (the file is valid)
# and notes the pair on stderr; coll notes it too; the file as committed
# (transit set) gets no note.
d=$(mktemp -d)
grep -v 'route.gpu_transit\|NCCL routes a GPU pair without' validate/corpus/topologies/dgx1v-v100-8.xml >"$d/dgx1.xml"
out=$($CR topo check "$d/dgx1.xml" 2>&1); rc=$?; echo "$out" | sed "s|$d/||"; echo "exit $rc"
$CR coll allreduce --topo "$d/dgx1.xml" -b 1M -e 1M 2>&1 >/dev/null | sed "s|$d/||"
$CR topo check validate/corpus/topologies/dgx1v-v100-8.xml; echo "exit $?"
rm -rf "$d"
