$CR topo list > /dev/full
