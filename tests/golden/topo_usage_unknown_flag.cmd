$CR topo show hgx-h200-8 --frobnicate
