# A CUDA graph captured under PyTorch's ranges and launched three times
# (tests/fixtures/roofline/README.md): each replayed kernel counts for the
# range that made its graph node, one call per launch: aten::mm 3 calls of
# 200/210/220 us against 2 x 4096^3 FLOP at the H200's 989 TFLOP/s bf16
# (138.968 us), aten::add 3 calls of 4 us; fill_kernel, whose node was made
# outside every range, and scale_kernel, whose clone names no original, stay
# kernel rows. The note and the JSON count say so.
$CR roofline tests/fixtures/roofline/graph_replayed.json --topo hgx-h200-8
$CR roofline tests/fixtures/roofline/graph_replayed.json --topo hgx-h200-8 --json | grep -E '"(graph_activities|by_start_traces|unowned_activities)"'
