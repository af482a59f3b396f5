$CR check gemm_rs --topo hgx-h100-8 --measured-us 0
