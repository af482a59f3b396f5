$CR op gemm --topo h200-1 --n -5
