$CR sim allreduce --topo hgx-h200-8 --algo ring -b 1MB -e 64MB -f 8 --top 4
