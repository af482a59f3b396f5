$CR sim alltoall --topo hgx-h200-8 -b 64MB --top 2 --json
