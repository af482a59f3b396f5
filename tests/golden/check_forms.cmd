$CR check gemm --topo=h200-1 --m=8192 --n 8192 --k 8192 --measured-us=1400
