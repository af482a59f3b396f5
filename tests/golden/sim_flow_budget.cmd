$CR sim alltoall --topo h100-ib-1024n --ranks 0-4096 -b 1GB
