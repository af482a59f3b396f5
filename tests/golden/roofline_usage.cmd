$CR roofline --topo h200-1
