$CR op ddp --topo hgx-h100-8 --dp 1 --tp 8
