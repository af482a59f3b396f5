# A misspelt option or parameter of op and check gets a "did you mean", as
# every other command's does (QA audit of the CLI: coll --topp suggested
# --topo, op --topp and check --mesured-us said only "unknown argument").
# The nearest of the command's options and the operator's parameters,
# within one edit below five characters and two from five on
# (cli_opts_nearest); a bare word gets none.
$CR op gemm --topp h200-1; echo "exit $?"
$CR op gemm --mm 1024; echo "exit $?"
$CR op gemm --kk=5; echo "exit $?"
$CR op gemm_rs --ordr tp,dp; echo "exit $?"
$CR check gemm --measured-us 5 --mesured-us 4; echo "exit $?"
$CR check gemm --measured-us 5 --cols; echo "exit $?"
$CR op gemm --bogus 3; echo "exit $?"
$CR op gemm tpo; echo "exit $?"
