# A trace whose writer says its launches did not block (metadata.launch_blocking
# false: the tracer run without CUDA_LAUNCH_BLOCKING=1) gets the note that its
# operators own the activities starting inside their ranges; the same trace
# saying nothing (torch_block.json) gets none. The JSON carries the count.
$CR roofline tests/fixtures/roofline/torch_block_by_start.json --top 3
$CR roofline tests/fixtures/roofline/torch_block_by_start.json --json | grep -E '"(by_start_traces|first_by_start)"'
$CR roofline tests/fixtures/roofline/torch_block.json --json | grep -E '"(by_start_traces|first_by_start)"'
