$CR topo frob
