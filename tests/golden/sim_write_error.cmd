$CR sim allreduce --topo hgx-h200-8 -b 1M > /dev/full
