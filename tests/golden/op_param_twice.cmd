# An operator parameter, or check's measured time, given twice is a usage
# error (exit 2), as every option is: the second value used to replace
# the first silently (audit of 2026-12-04: op gemm_rs --tp 8 tp=4 ran tp=4;
# check --measured 5us --measured-us 50 judged 50 us).
$CR op gemm_rs --tp 8 tp=4; echo "exit $?"
$CR check gemm --m 1024 --m=2048 --measured-us 5; echo "exit $?"
$CR check gemm_rs --measured 5us --measured-us 50; echo "exit $?"
$CR op gemm_rs --order tp,cp,ep,dp,pp order=tp,cp,ep,dp,pp; echo "exit $?"
