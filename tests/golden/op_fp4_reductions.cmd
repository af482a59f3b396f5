# fp4 has no reduction (NCCL's or the GPUs'): what is refused is a phase
# that reduces fp4, judged by the element type that phase moves (QA audit,
# session 41). DDP and FSDP reduce gradients in grad_dtype: fp4 weights
# with fp32 gradients run (they were refused, "allreduce of fp4"), fp4
# gradients are refused (they were modelled). An all-gather GEMM reduces
# nothing; its split-k alternative adds partials as fp8 (it was refused).
for a in "ddp --dtype fp4 --grad_dtype fp32" "fsdp --dtype fp4 --grad_dtype fp32" \
         "ddp --grad_dtype fp4" "zero --grad_dtype fp4" "ag_gemm --dtype fp4"; do
    # shellcheck disable=SC2086
    $CR op $a --topo hgx-b200-8 --json > /tmp/cr-golden-fp4.json 2> /tmp/cr-golden-fp4.err
    echo "$a: exit $? $(cat /tmp/cr-golden-fp4.err | head -1)"
done
rm -f /tmp/cr-golden-fp4.json /tmp/cr-golden-fp4.err
