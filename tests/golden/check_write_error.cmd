$CR check gemm --topo h200-1 --measured-us 1 > /dev/full
