# issue 18 item 3: --opt=value in op, for its own options and the
# operator's parameters; the line of op_gemm_h200, so its output.
$CR op gemm --topo=h200-1 --m=8192 --n 8192 --k=8192
