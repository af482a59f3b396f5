$CR check gemm --topo h200-1
