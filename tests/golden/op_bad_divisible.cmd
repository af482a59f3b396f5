$CR op gemm_rs --topo hgx-h100-8 --k 1001
