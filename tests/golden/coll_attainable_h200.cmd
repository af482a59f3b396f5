$CR coll allreduce --topo tests/fixtures/coll/hgx-h200-8-calibrated.xml -b 1G -e 1G --terms
