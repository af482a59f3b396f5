# The element type column of an nccl-tests log (audit of 2026-12-04): every
# name nccl-tests prints is read (f8e5m2 as fp8, as f8e4m3 was), and one the
# model has no type for (int32, int64) is refused with its line: before, any
# unknown name passed through and was predicted as fp32, an NVLS allreduce
# among them. Sakura's 8x H100 all_reduce with its type column rewritten.
$CR validate --nccl-tests tests/fixtures/nccl-tests/h100-8-f8e5m2-all_reduce_perf.log --topo hgx-h100-8 --nccl-version 2.22.3 | grep 256MiB | awk '{print $2, $10}'
$CR validate --nccl-tests tests/fixtures/nccl-tests/bad-int32-all_reduce_perf.log --topo hgx-h100-8 --nccl-version 2.22.3; echo "exit $?"
