$CR check --measured-json - --topo hgx-h100-8 <<'JSON'
{"results": [
 {"name": "rs_good", "variant": "overlap", "op": "gemm_rs", "params": {"m": 1024, "n": 1024, "k": 512, "tp": 8}, "measured_us": 20},
 {"name": "rs_too_fast", "op": "gemm_rs", "params": {"m": 1024, "n": 1024, "k": 512, "tp": 8}, "measured_us": 1.5},
 {"name": "misspelt", "op": "gemm_rs", "parms": {"m": 1024}, "measured_us": 20},
 {"name": "no_such_op", "op": "gemm_rx", "measured_us": 20},
 {"name": "not_divisible", "op": "gemm_rs", "params": {"k": 1001}, "measured_us": 20},
 {"name": "too_many_gpus", "op": "ddp", "params": {"dp": 16}, "measured_us": 20},
 {"name": "zero_time", "op": "gemm", "measured_us": 0},
 {"name": "group_not_string", "op": "coll", "params": {"group": 3}, "measured_us": 20},
 {"name": "other_topo", "op": "gemm", "topo": "h200-1", "measured_us": 6}
]}
JSON
