$CR coll allreduce --topo hgx-h100-8 -b 1G -e 1G --no-in-network --terms
