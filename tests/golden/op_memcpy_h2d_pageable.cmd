$CR op memcpy --topo h200-1 --kind h2d --bytes 1GiB --pinned no
