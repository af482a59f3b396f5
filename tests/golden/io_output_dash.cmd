# "-" as an output is stdout to many tools; commroof writes files, so it
# is refused rather than written as a file named "-" (calibrate said
# "-> -"; QA audit, session 41). ./- names such a file.
cd "$(mktemp -d /tmp/cr-golden-dash.XXXXXX)" || exit 1
$CR calibrate --nccl-tests "$OLDPWD/tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log" --topo hgx-h100-8 -o - > /dev/null
echo "exit $?"
$CR topo gen fat-tree --nodes 2 --node hgx-h100-8 -o -
echo "exit $?"
ls
d=$PWD; cd "$OLDPWD" && rm -rf "$d"
