# A table none of whose operator rows got a bound checked nothing, and says
# so with exit 1, as validate does ("FAILED: 55 of 55 case(s) not
# checked"): a --ranks of one GPU against the 2-rank torchrun run left its
# 55 collectives unbounded and printed "OK" with exit 0 (QA audit, session
# 41). With the run's own two ranks every row is bounded.
$CR roofline traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz traces/nvidia-h200-x2/torchrun-nccl-rank1.json.gz --ranks 0 | tail -1
$CR roofline traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz traces/nvidia-h200-x2/torchrun-nccl-rank1.json.gz --ranks 0 > /dev/null
echo "exit $?"
$CR roofline traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz traces/nvidia-h200-x2/torchrun-nccl-rank1.json.gz --ranks 0,1 | tail -1
# A trace with no operator row at all (a CUDA program without annotations:
# every kernel listed by name) checked nothing too: it printed "OK" with
# exit 0 (QA audit, session 43).
$CR roofline traces/h200-1/cuda_demo.json --topo h200-1 | tail -1
$CR roofline traces/h200-1/cuda_demo.json --topo h200-1 > /dev/null
echo "exit $?"
