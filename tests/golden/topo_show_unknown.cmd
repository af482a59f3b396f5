$CR topo show no-such-machine
