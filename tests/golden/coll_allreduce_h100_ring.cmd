$CR coll allreduce --topo hgx-h100-8 -b 1G -e 8G -f 2 --algo ring --proto simple
