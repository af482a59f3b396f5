# Import the VM dump to a file, then check and show what was written.
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml -o "$d/vm.xml" | sed "s|$d/||" &&
    $CR topo check "$d/vm.xml" | sed "s|$d/||" && $CR topo show "$d/vm.xml"; rc=$?; rm -rf "$d"; exit $rc
