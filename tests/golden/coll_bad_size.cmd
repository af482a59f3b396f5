$CR coll allreduce --topo hgx-h100-8 -b 1X
