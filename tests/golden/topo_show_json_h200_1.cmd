$CR topo show h200-1 --json
