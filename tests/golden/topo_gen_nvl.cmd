# topo gen nvl: one GB200 NVL72 rack on its NIC fabric, gen -> check -> show.
# 18 trays of 4 GPUs, 2 CPUs, 4 NICs: 72 GPUs; 18 NVLink chips + one leaf per
# rail on 4 rails (18 trays fit under a 64-port leaf) = 22 switches. Bundles:
# 72 x 18 GPU-chip + 18 x (4 C2C + 4 NIC-GPU PCIe) + 72 NIC-leaf = 1512.
# Bisection, 9 trays a side: 36 GPUs x 18 x 50GB/s over NVLink plus 36 NICs x
# 50GB/s through the leaves = 34200GB/s.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR topo gen nvl --racks 1 -o "$d/n.xml" || exit 1
$CR topo check "$d/n.xml" | sed "s|$d/|TMP/|g"
$CR topo show "$d/n.xml" | sed -n '1,5p;/^# Bisection/,/^$/p'
grep -o '<link-pattern a="[^"]*" b="[^"]*"' "$d/n.xml"
