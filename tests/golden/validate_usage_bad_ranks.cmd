# issue 13 item 10: a rank set outside the topology is a usage error (exit 2)
# in validate as in coll and sim, found before the traces are read (it
# exited 1, per case).
$CR validate --ranks 0-99 tests/fixtures/traces/h200_cuda_demo.json
