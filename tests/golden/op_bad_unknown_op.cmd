$CR op gemm_rx --topo h200-1
