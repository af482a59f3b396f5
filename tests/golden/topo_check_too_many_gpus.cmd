# issue 13 item 6: more GPUs than a topology may hold (CR_TOPO_MAX_GPUS,
# 262,144), from a brace group and from node templates; exit 1 each.
for f in million-gpus many-gpu-nodes; do
    $CR topo check tests/fixtures/xml/bad-$f.xml; echo "exit $?"
done
