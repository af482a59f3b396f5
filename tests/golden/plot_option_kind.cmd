# an option that only other chart kinds draw is refused (exit 2), naming the
# kinds that take it: plot compare --trace drew no measured time and exited
# 0, roofline --ranks and gap --dtype were dropped without a word (QA audit
# of the documentation examples)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
t() { "$@" > "$d/o" 2>&1; rc=$?; sed "s|$d/||g" "$d/o"; echo "exit $rc"; }
t $CR plot compare --trace traces/h200-1 -o "$d/c.png" --no-render
t $CR plot compare --measured-json traces/nvidia-h200-x2/fused-measured.json -o "$d/c.png" --no-render
t $CR plot compare --gpu 1 -o "$d/c.png" --no-render
t $CR plot roofline --ranks 0,1 -o "$d/c.png" --no-render
t $CR plot roofline --metric headroom -o "$d/c.png" --no-render
t $CR plot comm-roofline -e 1G -o "$d/c.png" --no-render
t $CR plot gap --dtype bf16 -o "$d/c.png" --no-render
t $CR plot gap --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log -o "$d/c.png" --no-render
t $CR plot gap --ratio -o "$d/c.png" --no-render
t $CR plot sweep allreduce --suite llm -o "$d/c.png" --no-render
t $CR plot accuracy traces/h200-1/kernels-hbm.json --topo h200-1 --gpu 0 -o "$d/c.png" --no-render
# the options a kind does take still work
t $CR plot sweep allreduce --ranks 0,1 -b 1K -e 1M -f 4 --dtype bf16 -o "$d/c.png" --no-render
rm -f "$d/c.png" /tmp/cr_golden_pok.dat /tmp/cr_golden_pok.gp
