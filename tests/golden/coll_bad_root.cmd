$CR coll broadcast --topo hgx-h100-8 --ranks 0-3 --root 4
