$CR sim broadcast --topo hgx-h200-8 --ranks 0-3 --root 4 -b 1MB
