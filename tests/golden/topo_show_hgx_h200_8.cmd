$CR topo show hgx-h200-8
