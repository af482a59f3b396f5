$CR op ddp --topo hgx-h100-8 --dp 16
