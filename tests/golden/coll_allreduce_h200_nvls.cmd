# NVLS, NCCL's choice. Derivation (doc/bounds.md 2.2.1), S = 1 GiB:
# rate 450 GB/s x 0.85 x 20.6/25 = 315.18 GB/s; wire 1.125 S -> 3832.7 us;
# fill: 16 ch x 8 heads x 128 KiB = S/64 per loop, copies 2S/4.8 TB/s = 447.4 us
# each -> (2 x 447.4)/64 = 14.0 us; latency 25 us (NCCL NVLS NVLink) -> 3871.7 us.
# bound S / 513 GB/s + 0.6 us = 2093.7 us (gpu-ports, NVLink + PCIe).
$CR coll allreduce --topo hgx-h200-8 -b 1G -e 16G -f 4
