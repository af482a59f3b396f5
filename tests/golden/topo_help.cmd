$CR topo --help
