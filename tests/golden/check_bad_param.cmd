$CR check gemm_rs --topo hgx-h100-8 --k 1001 --measured-us 5
