$CR op gemm_rs --topo h100-ib-4n --m 8192 --n 8192 --k 8192 | sed -n '1,8p'
