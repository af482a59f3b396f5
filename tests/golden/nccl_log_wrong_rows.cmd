# A row whose out-of-place result nccl-tests' own check found wrong
# (#wrong > 0) is compared as before but says so on the case (it was
# read as any other row; QA audit, session 41). CSCS Alps' 16-node log
# (checking half) has one: 2,752 wrong elements at 64 MiB, 8,713 us:
# 5.4x the 32 MiB row and more than the 128 MiB row (5,495 us).
$CR validate --topo validate/corpus/topologies/alps-gh200x4-slingshot.xml --ranks 0-63 --nccl-version 2.23.4 --nccl-tests validate/corpus/gh200x4-slingshot-16n/cscs-alps-n16-all_reduce_perf.log 2>/dev/null | grep "#wrong"
F=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
sed '23s/  23.81      0 /  23.81     17 /' $F > /tmp/cr-golden-wrong.log
$CR validate --topo hgx-h100-8 --nccl-tests /tmp/cr-golden-wrong.log | grep "#wrong"
rm -f /tmp/cr-golden-wrong.log
