# nccl-tests rounding (src/<coll>.cu *GetCollByteCount, current master):
# whole elements; allgather, reducescatter, alltoall, gather, scatter take
# each rank's count down to a multiple of 16 bytes and print that count.
#  allgather bf16 -b 1001, 8 ranks: 500 elements, 62 per rank, down to a
#    multiple of 8 (16 B / 2 B): 56; size 56 x 8 x 2 = 896 B, count 56
#  alltoall int8 -b 1000, 3 ranks: 333 per rank, down to 16: 320; 960 B
#  reducescatter fp64 -b 100, 8 ranks: 12 elements, 1 per rank, down to 2: 0
#  allreduce fp16 -b 1001: 500 elements, 1000 B, count 500
#  broadcast fp32 -b 3: 0 elements
$CR coll allgather --topo hgx-h100-8 --dtype bf16 -b 1001 -e 1001 && $CR coll alltoall --topo hgx-h100-8 --ranks 0-2 --dtype int8 -b 1000 -e 1000 && $CR coll reducescatter --topo hgx-h100-8 --dtype fp64 -b 100 -e 100 && $CR coll allreduce --topo hgx-h100-8 --dtype fp16 -b 1001 -e 1001 && $CR coll broadcast --topo hgx-h100-8 -b 3 -e 3
