$CR op gemm --topo h200-1 --m 16 --n 8192 --k 8192 --json
