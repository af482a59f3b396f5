# An element type the topology's GPU has no peak for, or a host copy on a
# machine without a host link, is the command line's choice that the
# topology cannot honour, as --tp 16 on 8 GPUs or coll --algo nvls on an
# A100: a usage error, exit 2, naming what it has (QA audit of the CLI: op
# and check exited 1 here). The types listed are the <flops> elements of
# each topology file: dgx-a100-8 has fp64 fp32 tf32 bf16 fp16 int8 (no
# fp8), l40s-pcie-8 no fp64, tpu-v5p-64 bf16, fp8 and int8 only, and no <cpu>.
$CR op gemm --topo dgx-a100-8 --dtype fp8; echo "exit $?"
$CR check gemm --topo dgx-a100-8 --dtype fp8 --measured-us 5; echo "exit $?"
$CR op gemm --topo l40s-pcie-8 --dtype=fp64; echo "exit $?"
$CR op elementwise --topo tpu-v5p-64 --dtype fp32; echo "exit $?"
$CR op memcpy --kind h2d --topo tpu-v5p-64; echo "exit $?"
# the same mistakes made by hand elsewhere, for comparison: exit 2 too
$CR op gemm_rs --tp 16 --topo dgx-a100-8; echo "exit $?"
# a suite's problem that its machine cannot run is still skipped, not an error
$CR suite pkb --topo tpu-v5p-64 > /dev/null; echo "exit $?"
