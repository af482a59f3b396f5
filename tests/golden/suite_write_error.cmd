$CR suite pkb --topo hgx-h100-8 --json > /dev/full
