$CR op ring_attn --topo hgx-h100-8 --seq 1000
