# One rank (doc/bounds.md 1.4, 3.4), out of place: NCCL copies the send
# buffer into the receive buffer. H200: HBM 4.8 TB/s, L2 50 MiB.
#   bound = (2S - 50 MiB) / 4.8 TB/s: 32 MiB -> 14680064 B = 3.06 us;
#           1 GiB -> 2095054848 B = 436.47 us; 0 (binding none) while 2S fits L2
#   pred  = 0.8 us + 2S / (0.885 x 4.8 TB/s): 32 MiB 16.60 us, 1 GiB 506.33 us;
#           2S in L2: 0.8 us + 2S / (1.46 x 4.8 TB/s): 1 MiB 1.10 us, 32 KiB 0.81 us
#   (traces/h200-1/kernels-nccl.json measured 1.088 us at 1 MiB, 505.99 at 1 GiB)
# In place there is nothing to do: 0 and 0.
$CR coll allreduce --topo hgx-h200-8 --ranks 0 -b 1K -e 1G -f 32 && $CR coll alltoall --topo hgx-h200-8 --ranks 3 -b 1G -e 1G --in-place
