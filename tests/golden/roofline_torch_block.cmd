$CR roofline tests/fixtures/roofline/torch_block.json --topo hgx-h200-8
