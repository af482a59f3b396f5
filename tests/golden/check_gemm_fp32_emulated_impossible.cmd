# The same GEMM ten times faster than the published emulation, 677.9 us,
# is below the bound of 3889 us: impossible (exit 3).
$CR check gemm --topo hgx-h100-8 --dtype fp32 --m 8192 --n 8192 --k 8192 --measured-us 677.9
