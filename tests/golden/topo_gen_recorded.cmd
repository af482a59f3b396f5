# The command a generated topology records in its source reruns to the same
# file, byte for byte (QA audit: --oversub 5:3 was recorded with %g as
# 1.66667, and the rerun was refused; every rerun of a fat tree also said
# "NIC speed from --nic-bw", since the recorded command gives --nic-bw).
# 5:3 on an 8-port leaf: 8 x (5/3) / (8/3) = 5 down, 3 up, recorded as 5:3.
# A ratio whose split is not whole shows the fraction: 8 x 1.66667 /
# 2.66667 = 5.00000375 down, 2.99999625 up; 64 x 1.0000000001 / 2.0000000001
# = 32.0000000016 down (both were printed as whole numbers, 5/3 and 32/32).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
rerun() {
    "$CR" "$@" -o "$d/a.xml" || return
    grep -o 'description="[^"]*"' "$d/a.xml"
    # the topology's own source (line 5): the command, then the node's
    cmd=$(sed -n '5s/^ *source="commroof \(topo gen [^"]*\)".*/\1/p' "$d/a.xml" | sed 's/; node: .*//')
    echo "recorded: $cmd"
    # shellcheck disable=SC2086
    "$CR" $cmd -o "$d/b.xml" && cmp "$d/a.xml" "$d/b.xml" && echo "rerun: the same file"
}
rerun topo gen fat-tree --nodes 10 --node hgx-h100-8 --leaf-radix 8 --oversub 5:3 --rails 1
rerun topo gen fat-tree --nodes 2 --node dgx-a100-8 --oversub 3
rerun topo gen nvl --racks 2 --leaf-radix 36 --sharp
rerun topo gen torus --dims 2x2 --chip H100-SXM --link-bw 400Gbps
$CR topo gen fat-tree --nodes 10 --node hgx-h100-8 --leaf-radix 8 --oversub 1.66667 --rails 1 -o /dev/null; echo "exit $?"
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --oversub 1.0000000001 -o /dev/null; echo "exit $?"
