$CR check --cold elementwise --topo h200-1 --elems 4M --measured-us 3
