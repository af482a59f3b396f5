$CR op gemm --topo h200-1 --heads 8
