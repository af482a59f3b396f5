# A real eager training step (traces/h200-1/train-2026-12-04: PyTorch 2.11
# on the H200, forward, backward and AdamW's foreach ops, 10 steps). Every
# operator inside emit_nvtx's ranges has a bound but arange and a 0-d
# fill_ (99.9% of their time): the backward ops (attention 2.5x the
# forward's FLOPs, layer_norm with its grad_input kernel, log_softmax,
# gelu, nll_loss, embedding), the reductions and AdamW's lists (each
# distinct tensor once, the updated list written); CUB's ranges inside
# embedding_dense_backward give their kernels to it. No time below its bound.
$CR roofline traces/h200-1/train-2026-12-04/torch_train.json.gz --topo h200-1 --dtype bf16 --top 0 | grep -E '^  aten|OK|below|device time'
echo "exit $?"
