$CR sim allgather --topo gb200-nvl72 -b 64MB --top 0
