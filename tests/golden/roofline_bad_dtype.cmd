$CR roofline tests/fixtures/roofline/torch_block.json --dtype bf17
