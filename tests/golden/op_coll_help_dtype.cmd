# op coll's help names the element types it takes and those it refuses:
# it offered tf32 ("fp32 tf32 bf16 ..."), which op coll refuses as
# commroof coll does (QA audit of the docs; the refusal: 40b7ad3).
$CR op coll --help | grep -e --dtype
$CR op coll --dtype tf32; echo "exit $?"
$CR op gemm --help | grep -e --dtype
