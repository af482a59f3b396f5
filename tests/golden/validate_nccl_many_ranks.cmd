# A log of 1440 ranks (20 GB200 NVL72 racks) on a topology of as many GPUs,
# without --ranks: the first 1440 GPUs, every row predicted (validate once
# refused more than 1024 ranks without --ranks)
$CR validate --nccl-tests validate/corpus/gb200-nvl72-ib-20rack/coreweave-20rack-all_reduce_perf.log --topo validate/corpus/topologies/coreweave-gb200-nvl72-ib.xml --summary
