# plot roofline --trace places crbench's kernels/ cases; a program's own
# trace (PyTorch ranges) has none it can place, and the refusal sends the
# user to roofline or report --trace (QA audit, session 44: it said only
# "no case with FLOPs" of a trace holding 160 GEMM calls).
$CR plot roofline --topo h200-1 --trace traces/h200-1/roofline-demo -o /tmp/cr_golden_plot_prog.png --no-render 2>&1
echo "exit $?"
rm -f /tmp/cr_golden_plot_prog.dat /tmp/cr_golden_plot_prog.gp
