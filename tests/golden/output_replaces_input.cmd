# An output option naming a file that another argument reads (QA audit of
# the CLI): topo import-nccl -o over its dump, topo gen -o over its --node
# file, sim --timeline and plot -o over the --topo file each replaced that
# input and exited 0. One check in the option parser (cli_opt.output) now
# refuses every such line, exit 2, before anything is read or written; the
# inputs are left as they were.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cp tests/fixtures/nccl/hgx-h200-vm.xml "$d/dump.xml"
cp topologies/hgx-h200-8.xml "$d/node.xml"
cd "$d" || exit 1
$CR topo import-nccl dump.xml -o dump.xml; echo "exit $?"
$CR topo import-nccl dump.xml --output=./dump.xml; echo "exit $?"
$CR topo gen fat-tree --nodes 2 --node node.xml -o node.xml; echo "exit $?"
$CR sim allreduce -b 1M --topo=node.xml --timeline node.xml; echo "exit $?"
$CR plot sweep allreduce --topo ./node.xml -o node.xml --no-render; echo "exit $?"
cd - > /dev/null || exit 1
cmp -s tests/fixtures/nccl/hgx-h200-vm.xml "$d/dump.xml" && echo "the dump is intact"
cmp -s topologies/hgx-h200-8.xml "$d/node.xml" && echo "the topology is intact"
ls "$d"
# an output beside its inputs is written as before
$CR topo gen fat-tree --nodes 2 --node "$d/node.xml" -o "$d/c.xml"; echo "exit $?"
test -s "$d/c.xml" && echo "c.xml written"
