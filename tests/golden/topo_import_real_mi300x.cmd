# A real RCCL dump (version 2, <xgmi>) of 8 MI300X (ROCm/rccl
# tools/topo_expl/models/topo_8p_940.xml): refused as "version 2" before;
# now a full xGMI mesh, the allreduce bound as on the shipped mi300x-8.
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/real-rccl-mi300x-8.xml -o "$d/m.xml" >/dev/null &&
    $CR coll allreduce --topo "$d/m.xml" -b 1M -e 1G -f 32 &&
    $CR coll allreduce --topo mi300x-8 -b 1M -e 1G -f 32; rc=$?; rm -rf "$d"; exit $rc
