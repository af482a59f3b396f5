$CR topo check topologies/mi300x-8.xml --json
