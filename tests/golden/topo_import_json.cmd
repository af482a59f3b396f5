# Import the two-socket A100 dump with --json (no XML in the document when -o is given).
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/dgx-a100-2socket.xml -o "$d/a.xml" --json |
    sed "s|$d/||"; rm -rf "$d"
