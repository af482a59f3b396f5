# issue 18 item 3: --opt=value in roofline; the line of roofline_torch_block,
# so its output.
$CR roofline tests/fixtures/roofline/torch_block.json --topo=hgx-h200-8
