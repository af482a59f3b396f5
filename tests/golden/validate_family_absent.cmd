# --family naming a family the input has no case of says which families it
# has (it said the traces lacked cr: ranges, which they hold).
$CR validate traces/h200-1/kernels-hbm.json --topo h200-1 --family gemm
