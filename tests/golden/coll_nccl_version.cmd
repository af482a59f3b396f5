# NCCL's LL128 switch across nodes by release: 2 nodes of 4 GH200, whose
# NICs hang off Grace (NVLink-C2C, then PCIe). From 2.27 NCCL names that
# path P2C and takes LL128 across nodes (the default, 2.28.9: ring/ll128 at
# 2 MiB); before, it was PHB and LL128 stayed off (2.23.4: tree/simple).
$CR coll allreduce --topo validate/corpus/topologies/alps-gh200x4-slingshot.xml --ranks 0-7 -b 2M -e 2M
$CR coll allreduce --topo validate/corpus/topologies/alps-gh200x4-slingshot.xml --ranks 0-7 -b 2M -e 2M --nccl-version 2.23.4
$CR coll allreduce --topo validate/corpus/topologies/alps-gh200x4-slingshot.xml --ranks 0-7 -b 2M -e 2M --nccl-version 22700
