$CR suite pkb --topo hgx-h100-8
