$CR coll allreduce --topo tests/fixtures/coll/h200-ib-2n.xml -b 1G -e 9G -f 3
