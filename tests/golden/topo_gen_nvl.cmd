# topo gen nvl: one GB200 NVL72 rack on its NIC fabric, gen -> check -> show.
# 18 trays of 4 GPUs, 2 CPUs, 4 NICs: 72 GPUs; 18 NVLink chips + one leaf per
# rail on 4 rails (18 trays fit under a 64-port leaf) + the spines shared by
# the rails (the default, --spines shared: 4 leaves of 32 up ports, 16 links
# from each to each spine, 4 x 16 = 64 ports a spine, so 32 / 16 = 2 spines)
# = 24 switches. Bundles: 72 x 18 GPU-chip + 18 x (4 C2C + 4 NIC-GPU PCIe) +
# 72 NIC-leaf + 4 x 2 leaf-spine = 1520 (1512 and 22 switches with --spines
# rail, which joins no rails). Bisection, 9 trays a side: 36 GPUs x 18 x
# 50GB/s over NVLink plus 36 NICs x 50GB/s through the leaves = 34200GB/s
# (the spines add no capacity between halves that share every leaf).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR topo gen nvl --racks 1 -o "$d/n.xml" || exit 1
$CR topo check "$d/n.xml" | sed "s|$d/|TMP/|g"
$CR topo show "$d/n.xml" | sed -n '1,5p;/^# Bisection/,/^$/p'
grep -o '<link-pattern a="[^"]*" b="[^"]*"' "$d/n.xml"
