# An output file that is stdout itself, beside --json, is refused: the
# timeline (or the topology's XML) and the JSON document were printed one
# after the other on stdout, exit 0, and a harness read neither (QA audit,
# session 43). Exit 2 each; without --json the file is written there.
$CR sim allreduce -b 1M --timeline /dev/stdout --json; echo "exit $?"
$CR topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml -o /dev/stdout --json; echo "exit $?"
$CR calibrate --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --topo hgx-h100-8 -o /dev/stdout --json; echo "exit $?"
$CR topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml -o /dev/stdout | head -2
