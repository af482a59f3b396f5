# A trace given twice is a usage error (exit 2), whichever way (QA audit of
# 2026-12-06): the same path, and a copy under another name (the same
# hostname, os_pid and ts_base_ns in its metadata), which was read as a
# second trace and every case counted twice; calibrate takes its list's
# first log as --nccl-tests=LOG too.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
t() {
    out=$("$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed "s|$d/|TMP/|g"
    echo "exit $rc"
}
T=traces/h200-1/roofline-demo/torch_roofline.json.gz
cp $T "$d/copy.json.gz"
t $CR roofline $T "$d/copy.json.gz"
t $CR validate traces/h200-1/kernels-hbm.json traces/h200-1/kernels-hbm.json --topo h200-1
mkdir "$d/ranks" && cp traces/nvidia-h200-x2/torchrun-nccl-rank*.json.gz "$d/ranks/" && gunzip -k "$d/ranks/torchrun-nccl-rank1.json.gz"
t $CR validate "$d/ranks" --topo hgx-h200-8 --summary
L=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
$CR calibrate --nccl-tests $L --topo hgx-h100-8 -o "$d/a.xml" >"$d/a.txt" 2>&1
$CR calibrate --nccl-tests=$L --topo hgx-h100-8 -o "$d/b.xml" >"$d/b.txt" 2>&1
echo "exit $?"
sed 's|/a.xml|/X.xml|' "$d/a.txt" | cmp - "$(sed 's|/b.xml|/X.xml|' "$d/b.txt" >"$d/b2.txt"; echo "$d/b2.txt")" && cmp "$d/a.xml" "$d/b.xml" && echo "calibrate --nccl-tests=LOG: the same fit as --nccl-tests LOG"
