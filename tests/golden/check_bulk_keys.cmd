# What a harness's keys do (audit of 2026-12-04): "topology" (what coll and
# validate print) and "parameters" where "topo" / "params" are absent are
# errors, not the default topology and shape silently; an operator
# parameter at the top level is an error naming where it goes; metadata
# beside the key it resembles (measured_std_us next to measured_us) is the
# harness's own. Every row has index, name, op and topo.
$CR check --measured-json - --topo h200-1 <<'JSON' | grep -E '"(index|topo|bound_us|verdict|error)"'
[
 {"op": "gemm_rs", "topology": "mi300x-8", "params": {"tp": 8}, "measured_us": 100},
 {"op": "gemm", "parameters": {"m": 8192}, "measured_us": 100},
 {"op": "gemm", "m": 8192, "n": 8192, "k": 8192, "measured_us": 100},
 {"op": "gemm", "params": {"m": 4096, "n": 4096, "k": 4096}, "measured_us": 300, "measured_std_us": 4, "measured_runs": 20, "name": "g", "names": "meta"}
]
JSON
