# plot refuses measured points of another GPU than the topology's, as
# validate, roofline and report do: an H200 trace and an A100 log were drawn
# against an H100's model with exit 0 (QA audit, session 43).
# --allow-gpu-mismatch draws them with a note.
$CR plot accuracy traces/h200-1/kernels-hbm.json --topo hgx-h100-8 -o /tmp/cr_golden_plot_gpu.png --no-render
echo "exit $?"
$CR plot sweep reducescatter --nccl-tests tests/fixtures/nccl-tests/a100-8-v2.10-reduce_scatter_perf.log --topo hgx-h100-8 -o /tmp/cr_golden_plot_gpu.png --no-render
echo "exit $?"
$CR plot accuracy traces/h200-1/kernels-hbm.json --topo hgx-h100-8 -o /tmp/cr_golden_plot_gpu.png --no-render --allow-gpu-mismatch > /dev/null
echo "exit $?"
rm -f /tmp/cr_golden_plot_gpu.dat /tmp/cr_golden_plot_gpu.gp
