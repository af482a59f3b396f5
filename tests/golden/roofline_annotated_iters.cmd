# iters=N in a cr:<op> range of a catalog operator (commroof_nvtx.h, .py):
# the range holds N repetitions, so N calls, each the range's device time
# / N; the same for gemm, whose name is also crbench's family (a range
# declaring no work, rd_bytes/wr_bytes/flops, is no crbench case).
# QA audit: elementwise iters=10 around 10 kernels of 30 us read as 1 call
# of 300 us; gemm iters=4 around one kernel was a crbench case, skipped
# ("1 activities on device 0 do not split into iters=4 groups").
# Fixture tests/fixtures/roofline/README.md, annotated_iters.json. Expected:
# elementwise 10 calls of 30 us (bound 7.864 us, the same call's as in
# roofline_annotated), total 300 us, save 300 - 10 x 7.864 = 221.357
# (7.86432 unrounded); gemm one row, the iters= left out of its
# name: 4 calls of 800 / 4 = 200 us and 2 of 500 / 2 = 250 us, median of
# [200 x 4, 250 x 2] = 200, fastest 200, total 1300, save 1300 - 6 x
# 138.968 = 466.194; iters=2.5 is no count: one call, no bound, why.
$CR roofline tests/fixtures/roofline/annotated_iters.json --topo h200-1
echo "exit $?"
$CR roofline tests/fixtures/roofline/annotated_iters.json --topo h200-1 --json | python3 -c 'import json, sys
for r in json.load(sys.stdin)["rows"]:
    print(r["op"], r["calls"], r["measured_us"], r["min_us"], r["total_us"], r["save_us"], r["verdict"])'
# One kernel of 1000 us is not below the 138.968 us bound as one call, but
# as 10 (100 us each) it is: impossible, exit 3.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '{"traceEvents":[
{"ph":"X","name":"cr:gemm m=4096 n=4096 k=4096 dtype=bf16 iters=10","cat":"nvtx","ts":0,"dur":2000,"pid":0,"tid":0},
{"ph":"X","name":"k","cat":"kernel","ts":10,"dur":1000,"pid":0,"tid":0,"args":{"device":0}}
]}\n' > "$d/t.json"
$CR roofline "$d/t.json" --topo h200-1 --json | python3 -c 'import json, sys
for r in json.load(sys.stdin)["rows"]:
    print(r["op"], r["calls"], r["measured_us"], r["verdict"])'
# validate leaves these ranges to roofline: calls of a catalog operator
$CR validate tests/fixtures/roofline/annotated_iters.json --topo h200-1 2>&1 | sed 's/^commroof validate: //'
