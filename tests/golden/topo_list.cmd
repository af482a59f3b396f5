$CR topo list
