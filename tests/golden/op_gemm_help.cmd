$CR op gemm --help
