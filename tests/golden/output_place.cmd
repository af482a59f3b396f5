# An output that cannot be put in place is refused with the arguments,
# before any work (QA audit of the CLI: sim --timeline into a missing folder
# ran the simulation, printed its table, then failed with "cannot create a
# temporary file beside it"). A folder, a missing folder, and a file on the
# way are each named; /dev/null and a file in an existing folder pass.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
touch plain
$CR sim allreduce -b 1M --timeline nope/t.json; echo "exit $?"
$CR sim allreduce -b 1M --timeline=.; echo "exit $?"
$CR plot sweep allreduce -o nope/x.png; echo "exit $?"
$CR topo gen fat-tree --nodes 2 --node hgx-h100-8 -o plain/c.xml; echo "exit $?"
$CR topo gen fat-tree --nodes 2 --node hgx-h100-8 -o plain/x/c.xml; echo "exit $?"
$CR calibrate --nccl-tests "$OLDPWD/tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log" --topo hgx-h100-8 -o ./; echo "exit $?"
$CR sim allreduce -b 1M --timeline /dev/null > /dev/null; echo "exit $?"
mkdir sub
$CR sim allreduce -b 1M --timeline sub/t.json > /dev/null; echo "exit $?"
ls sub
$CR sim allreduce -b 1M --timeline nope/; echo "exit $?"
