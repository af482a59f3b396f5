# a program's own cr: annotation whose parameters are refused (m=0) gets a
# row without a bound; the summary says how many such rows there are and
# why the first has none, and --json counts them (cr_unbounded)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '{"traceEvents":[\n{"ph":"X","name":"cr:gemm m=0 n=4096 k=4096 dtype=bf16","cat":"nvtx","ts":0,"dur":100,"pid":0,"tid":0},\n{"ph":"X","name":"k","cat":"kernel","ts":10,"dur":50,"pid":0,"tid":0,"args":{"device":0}}\n]}\n' > "$d/t.json"
$CR roofline "$d/t.json" --topo h200-1 | tail -2
$CR roofline "$d/t.json" --topo h200-1 --json | grep cr_unbounded
