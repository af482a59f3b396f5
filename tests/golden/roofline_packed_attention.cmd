# Packed attention from a real trace (tests/fixtures/roofline/audit/
# effvar.trace.json: PyTorch 2.11's nested-tensor SDPA on the H200, 64
# sequences of 1024 tokens in one [1, 65536, 16, 128] call, median 1872.9
# us). Bounded as one sequence of 65536 tokens it was 17,788 us and every
# call "impossible"; as 64 sequences of 1024, causal (is_causal is not in
# the trace), 4 x 64 x 1024 x 1025 / 2 x 16 x 128 FLOPs = 2.75e11 at 989
# TFLOP/s = 278.2 us, and no call is below it.
$CR roofline tests/fixtures/roofline/audit/effvar.trace.json --topo h200-1 --dtype bf16 --top 0 | grep -E '^  aten|OK|below'
echo "exit $?"
