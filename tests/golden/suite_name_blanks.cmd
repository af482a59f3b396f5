# A problem name with blanks is one field of the text table (blanks as '_',
# as roofline writes its names); --json keeps the name as written
$CR suite tests/fixtures/suites/name_with_blanks.xml --topo h200-1 | grep -c "attn_block_1 "
$CR suite tests/fixtures/suites/name_with_blanks.xml --topo h200-1 --json | grep -c '"attn block 1"'
