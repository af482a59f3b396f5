$CR suite tests/fixtures/suites/bad_unknown_param.xml --topo h200-1
