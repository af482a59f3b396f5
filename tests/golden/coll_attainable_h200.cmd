# attainable (doc/bounds.md 1.6) with a scale-up ceiling of 0.88 and HBM 4.23 TB/s:
# gpu-ports 513 x 0.88 = 451.44 GB/s -> S / 451.44 GB/s + 0.6 us = 2379.1 us;
# HBM (2S - 50 MiB of L2) / 4.23 TB/s = 495.3 us does not bind (the peak term:
# 2095054848 B / 4.8 TB/s = 436.47 us). The bound keeps the peaks.
$CR coll allreduce --topo tests/fixtures/coll/hgx-h200-8-calibrated.xml -b 1G -e 1G --terms
