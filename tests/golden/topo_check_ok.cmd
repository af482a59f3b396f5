$CR topo check topologies/l40s-pcie-8.xml
