$CR sim --topo hgx-h200-8
