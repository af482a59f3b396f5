$CR validate --nccl-tests tests/fixtures/nccl-tests/a100-8-v2.10-reduce_scatter_perf.log --nccl-version 2.7.8
