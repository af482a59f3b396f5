$CR topo
