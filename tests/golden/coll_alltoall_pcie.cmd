$CR coll alltoall --topo l40s-pcie-8 -b 64M -e 64M --terms
