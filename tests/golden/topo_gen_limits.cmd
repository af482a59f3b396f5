# topo gen's refusals state the limit that applies: racks by both the
# nodes and the GPUs a topology may hold (18-node NVL72 racks: 3640),
# --tiers 2 or 3, counts up to 1e8
$CR topo gen nvl --racks 3641 -o /dev/null
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --tiers 0 -o /dev/null
$CR topo gen fat-tree --nodes 1000000000 --node hgx-h100-8 -o /dev/null
