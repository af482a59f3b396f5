$CR suite tests/fixtures/suites/single_gpu.xml --topo h200-1
