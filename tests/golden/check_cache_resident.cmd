$CR check memcpy --topo h200-1 --bytes 16MiB --measured-us 5.92
