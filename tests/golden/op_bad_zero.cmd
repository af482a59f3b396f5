$CR op gemm --topo h200-1 --m 0
