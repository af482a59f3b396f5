$CR coll allreduce --topo hgx-h100-8 --ranks 0-8
