$CR coll allreduce --topo l40s-pcie-8 --algo nvls -b 1M -e 1M
