# NVLS tree on two 8x H200 nodes (nccl-tests#256 measured busbw 458-489 GB/s).
# Derivation (doc/bounds.md 2.2.1), S = 1 GiB: inside 1.125 S / 315.18 GB/s =
# 3832.7 us; NICs S / (400 x 0.92 GB/s) = 2917.8 us; fill (S/64 per loop) of
# 2 copies 447.4 + 3 switch passes 3406.8 + 2 network hops 2917.8 less the
# largest = 13544 / 64 = 211.6 us; latency 25 + 2 x 20.9 = 66.8 us -> 4111.1 us.
# bound: the NICs, S / 400 GB/s = 2684.4 us.
$CR coll allreduce --topo tests/fixtures/coll/h200-ib-2n.xml -b 1G -e 9G -f 3
