# topo gen fat-tree at 128 nodes gives the shipped h100-ib-128n: the same
# GPUs, devices, link bundles and bisection (64 nodes x 8 rails x 50GB/s =
# 25600GB/s): 4 leaves and 2 spines per rail, 16 links leaf to spine.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR topo gen fat-tree --nodes 128 --node hgx-h100-8 --rails 8 --nic-bw 400Gbps -o "$d/g.xml" || exit 1
grep -o ' rails="[0-9]*"\| nodes-per-leaf="[0-9]*"\| spines="[0-9]*"\| uplinks="[0-9]*"' "$d/g.xml" | tr -d '\n'; echo
for t in "$d/g.xml" h100-ib-128n; do
    $CR topo show "$t" | sed -n '4p;/^# Bisection/,/^$/p' | grep -v '^#  \|^# split\|^$'
done
