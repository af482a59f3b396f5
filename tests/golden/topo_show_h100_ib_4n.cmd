$CR topo show h100-ib-4n
