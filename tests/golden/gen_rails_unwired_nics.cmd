# A NIC wired to no network is none a rank sends through (NCCL lists only
# the NICs its plugin finds with a port up; audit of 2026-12-04): a fat
# tree generated with fewer rails than the node has NICs leaves the others
# unwired, and an all-to-all or a scatter on it was "not a finite time"
# (exit 1, pointing at topo check, which says OK). Now each GPU takes the
# nearest wired NIC: one 400G rail for 8 GPUs a node binds (node-nics).
T=$(mktemp) && $CR topo gen fat-tree --nodes 2 --node hgx-h100-8 --rails 1 -o "$T" > /dev/null
$CR coll alltoall --topo "$T" -b 1M -e 1M | tail -1 | awk '{print $1, $5, $7, $8}'; echo "exit $?"
$CR sim scatter --topo "$T" -b 1M | grep -v '^#' | awk '{print $1, $16}'
rm -f "$T"
