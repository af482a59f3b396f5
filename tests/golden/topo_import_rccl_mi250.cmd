# An RCCL dump of MI250 GCDs (tests/fixtures/nccl/rccl-mi250-4gcd.xml, the
# structure of ROCm/rccl topo_8p1h.xml): each GCD a GPU of its own, 0x740c
# with 104 CUs the MI250 (gfx90a given as the older "910"), GCDs of one
# OAM joined by 4 xGMI links (200 GB/s a direction), of different OAMs by 2
# or 1; the allreduce bound on it (run in the temporary directory, so that
# the notes name m.xml alone).
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/rccl-mi250-4gcd.xml -o "$d/m.xml" >/dev/null &&
    cd "$d" && $CR topo show m.xml && $CR coll allreduce --topo m.xml -b 1M -e 1G -f 32; rc=$?; cd / && rm -rf "$d"; exit $rc
