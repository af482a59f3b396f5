$CR sim alltoall --topo hgx-h200-8 -b 64MB --proto ll --top 1 && $CR sim sendrecv --topo hgx-h200-8 -b 1MB --proto ll128 --json | grep "\"note\""
