# nccl-tests prints rows of 0 bytes where a size is under one element per
# rank (8-512 B over 64 ranks): no prediction, and the note says why (it
# said "unsupported")
$CR validate --topo validate/corpus/topologies/kestrel-h100x4-slingshot.xml --nccl-tests validate/corpus/h100x4-slingshot-16n/nrel-kestrel-n16-all_gather_perf.log --nccl-version 2.21.5 | grep -c "a 0-byte row"
