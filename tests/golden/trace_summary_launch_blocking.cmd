# trace summary says whether the traced process's launches blocked
# (metadata.launch_blocking), in text and JSON, and nothing where the trace
# does not say (an older tracer's: traces/h200-1/cuda_demo_pci.json).
L=traces/h100-1/launch-blocking-2026-12-06
$CR trace summary $L/torch-blocking.json.gz $L/torch-async.json.gz traces/h200-1/cuda_demo_pci.json | grep -E '^# trace |launches'
$CR trace summary $L/torch-async.json.gz traces/h200-1/cuda_demo_pci.json --json | grep '"launch_blocking"'
