# Import the bare-metal HGX H200 dump; the summary names the output file.
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/hgx-h200-baremetal.xml -o "$d/hgx.xml" |
    sed "s|$d/||"; rm -rf "$d"
