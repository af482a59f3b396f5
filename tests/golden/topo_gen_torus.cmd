# topo gen torus: 4x4x4 TPU v5p, as the shipped tpu-v5p-64: 64 chips, each
# joined to its +1 neighbour in 3 dimensions with wrap-around = 192 link
# bundles; the ranks 0..31 half (x = 0, 1) against the rest crosses 2 x 16
# links of 100GB/s = 3200GB/s. The link figures keep tpu-v5p-64's source.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR topo gen torus --dims 4x4x4 -o "$d/t.xml" || exit 1
$CR topo check "$d/t.xml" | sed "s|$d/|TMP/|g"
$CR topo show "$d/t.xml" | sed -n '1,4p;/^# Bisection/,/^$/p'
grep -c 'over 6 torus links = 100GB/s per link per direction' "$d/t.xml"
grep -o '<param key="route.gpu_transit" value="1"' "$d/t.xml"
