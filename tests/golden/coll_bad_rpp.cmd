$CR coll allreduce --topo hgx-h200-8 --ranks 0,1 --ranks-per-process 3
