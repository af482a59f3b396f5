$CR sim allreduce --topo hgx-h200-8
