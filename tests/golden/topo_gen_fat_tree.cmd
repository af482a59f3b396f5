# topo gen fat-tree (issue 17 item 1), round trip gen -> check -> show:
# 4 x hgx-h100-8 on 8 rails. Each node: 8 GPUs, 4 NVSwitch, 2 CPUs, 4 PCIe
# switches, 8 NICs (26 devices); 4 nodes = 32 GPUs, 32 NICs, 104 devices.
# 4 nodes fit under one 64-port leaf (32 down ports), so one leaf per rail
# and no spine: 8 leaf switches, 16 + 8 = 24 switches, 112 devices. Bundles
# per node (hgx-h100-8): 32 GPU-NVSwitch, 8 GPU-PCIe, 8 NIC-PCIe, 4
# PCIe-CPU, 1 CPU-CPU = 53; 4 x 53 + 32 NIC-leaf = 244. Bisection: halves of
# 2 nodes, 16 NICs x 50GB/s = 800GB/s. Both sources (topology, rail-fabric)
# name the generator and all its parameters.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --rails 8 -o "$d/ft.xml" || exit 1
$CR topo check "$d/ft.xml" | sed "s|$d/|TMP/|g"
$CR topo show "$d/ft.xml" | sed -n '1,5p;/^# Bisection/,/^$/p'
grep -c 'source="commroof topo gen fat-tree --nodes 4 --node hgx-h100-8 --rails 8 --nic-bw 400Gbps --leaf-radix 64 --oversub 1 --tiers 2' "$d/ft.xml"
