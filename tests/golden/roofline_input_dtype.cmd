$CR roofline tests/fixtures/roofline/input_dtype.json --topo hgx-h200-8 --ranks 0 --top 0
