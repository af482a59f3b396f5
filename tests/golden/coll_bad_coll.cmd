$CR coll allreduc --topo hgx-h100-8
