# An fp32 8192^3 GEMM (1.0995e12 FLOPs) on H100 SXM at the published
# Ozaki II emulation rate on GH200, 162.2 TFLOP/s (SC'25, arXiv
# 2508.03984: 3.0x native SGEMM): 1.0995e12 / 162.2e12 = 6779 us. The
# bound is 1.0995e12 / (1979 / 7 TFLOP/s) = 3889 us (doc/bounds.md 1.10),
# so the time is possible (exit 0); with the native 67 TFLOP/s the bound
# was 16411 us and this was called impossible (exit 3).
$CR check gemm --topo hgx-h100-8 --dtype fp32 --m 8192 --n 8192 --k 8192 --measured-us 6779
