# Issue 13 item 9: every input that names a FIFO is refused at once, saying
# what it is, instead of blocking forever on open() (each command runs under
# `timeout 10`, so a regression fails with exit 124 rather than hangs). The
# same for a trace folder holding a *.json FIFO and a "topo" entry of a
# --measured-json file that names one.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
mkfifo "$d/f.xml" "$d/f.json" "$d/g.json.gz" "$d/f.log" || exit 1
mkdir "$d/traces" && mkfifo "$d/traces/rank0.json" || exit 1
printf '[{"name": "a", "op": "gemm", "topo": "%s/f.xml", "measured_us": 50}]\n' "$d" >"$d/bulk.json"
t() {
    out=$(timeout 10 "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed "s|$d/|TMP/|g"
    echo "exit $rc"
}
t $CR topo check "$d/f.xml"
t $CR topo show "$d/f.xml"
t $CR sim allreduce --topo "$d/f.xml" -b 1M
t $CR sim --scenario "$d/f.xml" --topo hgx-h200-8
t $CR suite "$d/f.xml" --topo hgx-h200-8
t $CR topo import-nccl "$d/f.xml"
t $CR check --measured-json "$d/f.json"
t $CR check --measured-json "$d/bulk.json"
t $CR trace summary "$d/f.json"
t $CR validate "$d/f.json"
t $CR validate "$d/g.json.gz"
t $CR validate "$d/traces"
t $CR validate --nccl-tests "$d/f.log"
t $CR plot gap --topo hgx-h200-8 --measured-json "$d/f.json" -o "$d/gap.svg" --no-render
