# Every element topo gen writes names the generator and all its parameters
# in its source (README, doc/topology-format.md): each source of the file
# that the node or rack file does not have (those are copied, datasheet
# figures) starts with the full command, defaults included. A QA audit found
# the --sharp switch model's reading "commroof topo gen --sharp: ...". Per
# file: the sources generated, then any that do not start with the command.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
check() { # node-file generator-args...
    node=$1
    shift
    "$CR" topo gen "$@" -o "$d/g.xml" || return
    cmd=$(sed -n '5s/^ *source="\(commroof topo gen [^"]*\)".*/\1/p' "$d/g.xml" | sed 's/; node: .*//')
    grep -o 'source="[^"]*"' "topologies/$node.xml" | sort -u > "$d/copied"
    grep -o 'source="[^"]*"' "$d/g.xml" | sort -u | grep -vxF -f "$d/copied" > "$d/made"
    echo "$*: $(wc -l < "$d/made") sources generated"
    grep -vF "source=\"$cmd" "$d/made"
}
check hgx-h100-8 fat-tree --nodes 128 --node hgx-h100-8 --rails 8 --sharp
check hgx-h100-8 fat-tree --nodes 64 --node hgx-h100-8 --rails 2 --leaf-radix 8 --tiers 3 --sharp
check gb200-nvl72 nvl --racks 2 --leaf-radix 36 --sharp
check tpu-v5p-64 torus --dims 4x4
echo done
