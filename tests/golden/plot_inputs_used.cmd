# every input a chart is given is used or refused, never dropped without a
# word: a harness results file on a roofline without a suite (results are
# placed by problem name), a log without rows, a log of another collective
# or rank count on a sweep (the report, whose logs serve every part, draws
# only the matching ones); and -b 0 on a sweep (it would never grow)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR plot roofline -o "$d/r.png" --measured-json tests/fixtures/check/bulk_ok.json 2>&1
echo "exit $?"
echo "hello world" > "$d/garbage.log"
$CR plot sweep allreduce -o "$d/s.png" --nccl-tests "$d/garbage.log" 2>&1 | sed "s|$d/||g"
$CR plot sweep allreduce -o "$d/s.png" --topo hgx-h100-8 --nccl-tests tests/fixtures/nccl-tests/h100-8-1proc-all_gather_perf.log 2>&1
$CR plot sweep allreduce -o "$d/s.png" --topo hgx-h100-8 --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --ranks 0,1 2>&1
$CR plot sweep allreduce -o "$d/s.png" -b 0 -e 64 2>&1
# a log without rows beside one with rows (audit of 2026-12-04: accuracy
# drew the other's cases and exited 0)
$CR plot accuracy -o "$d/a.png" --topo h100-ib-4n --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --nccl-tests "$d/garbage.log" 2>&1 | sed "s|$d/||g"
ls "$d"
