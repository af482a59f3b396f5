$CR trace summary tests/fixtures/traces/bare_array.json tests/fixtures/traces/pytorch_profiler.json --top 1
