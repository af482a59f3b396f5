$CR coll allreduce --topo hgx-h200-8 -b 1G -e 16G -f 4
