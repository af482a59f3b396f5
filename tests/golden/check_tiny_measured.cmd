# a measured time below a picosecond (1e-310 us made every ratio to the
# bound infinite and the JSON row lose its verdict) is refused, exit 2, as
# a time above a million seconds; 1e-6 us, the smallest taken, is judged
$CR check gemm --measured-us 1e-310
echo "exit $?"
$CR check gemm --measured-us 1e13
echo "exit $?"
$CR check gemm --measured-us 1e-6 --json | grep -E '"verdict"'
