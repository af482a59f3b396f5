# issue 18 item 3: --opt=value in sim; the line of sim_ring_hgx, so its output.
$CR sim allreduce --topo=hgx-h200-8 --algo=ring -b 1MB --maxbytes=64MB --stepfactor=8 --top=4
