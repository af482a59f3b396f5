# DDP's baseline issues its allreduce in buckets, each its own NCCL call:
# 64 Mi bf16 gradients are 128 MiB, 5 buckets of 25 MiB and a 3 MiB
# remainder, so the backward and 6 allreduces are 7 launches (it said 2,
# and baseline_kernels 2, counting the bucketed phase as one call).
$CR op ddp | grep launches
$CR op ddp --json | grep baseline_kernels
$CR op ddp --bucket 1GiB --json | grep baseline_kernels
