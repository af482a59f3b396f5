$CR topo import-nccl
