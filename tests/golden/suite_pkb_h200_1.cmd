$CR suite pkb --topo h200-1
