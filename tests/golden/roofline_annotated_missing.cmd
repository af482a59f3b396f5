# An annotated call (cr:<op> key=value) is bounded only on the sizes it
# gives: a range without one of its operator's sizes gets no bound (it was
# bounded on the catalog's default sizes, 1024 x 1024 x 512 for a gemm),
# and the element type comes from the range, its kernels' names or
# --dtype, never a default (bf16 was taken silently: a fast fp8 GEMM was
# called impossible). QA audit, session 41. The kernels here are named "k":
# no type shows.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '{"traceEvents":[
{"ph":"X","name":"cr:gemm m=8192","cat":"nvtx","ts":0,"dur":1000,"pid":0,"tid":0},
{"ph":"X","name":"k","cat":"kernel","ts":10,"dur":500,"pid":0,"tid":0,"args":{"device":0}},
{"ph":"X","name":"cr:gemm","cat":"nvtx","ts":2000,"dur":1000,"pid":0,"tid":0},
{"ph":"X","name":"k","cat":"kernel","ts":2010,"dur":500,"pid":0,"tid":0,"args":{"device":0}},
{"ph":"X","name":"cr:gemm m=4096 n=4096 k=4096","cat":"nvtx","ts":4000,"dur":1000,"pid":0,"tid":0},
{"ph":"X","name":"k","cat":"kernel","ts":4010,"dur":100,"pid":0,"tid":0,"args":{"device":0}}
]}\n' > "$d/t.json"
for opt in "" "--dtype fp8" "--dtype bf16"; do
    echo "== $opt"
    # shellcheck disable=SC2086
    $CR roofline "$d/t.json" --topo h200-1 $opt --json > "$d/out"
    echo "exit $?"
    python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    print(r["op"], "|", r["args"], "|", r["dtype_source"], r["bound_us"], r["verdict"], "|", r["note"])' "$d/out"
done
