$CR coll allgather --topo h100-ib-4n --ranks 0-31:8 -b 1M -e 1M --json
