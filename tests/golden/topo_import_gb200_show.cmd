# A dump spanning two hosts (MNNVL): import, then show the two-node topology.
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/gb200-2tray-mnnvl.xml -o "$d/gb.xml" >/dev/null &&
    $CR topo show "$d/gb.xml"; rc=$?; rm -rf "$d"; exit $rc
