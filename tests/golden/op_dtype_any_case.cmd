# Element types and the layout's order in any case, as every other
# enumerated parameter (--kind D2D, --coll AllReduce, --causal True) is:
# --dtype BF16, grad_dtype FP32 and --order DP,TP were usage errors (exit 2),
# so a harness writing upper case failed on them alone (QA audit of op).
$CR op gemm --dtype BF16 --m 8192 --n 8192 --k 8192 | head -2
$CR op ddp --topo h100-ib-4n --tp 8 --dp 4 --order DP,TP --grad_dtype FP32 | head -2
printf '[{"op":"gemm","params":{"dtype":"FP8","m":4096},"measured_us":100}]' |
    $CR check --measured-json - --topo hgx-h100-8 | grep -E '"(verdict|bound_us)"'
$CR op gemm --dtype BF17; echo "exit $?"
