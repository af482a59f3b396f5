$CR trace summary tests/fixtures/roofline/torch_block.json --top 4 --full-names
