# op --json writes params as values: --bytes 64MB is 64 x 10^6 bytes (GB =
# 1e9 bytes), an integer, not the display string "62500KiB"; the copy
# direction is its name and pinned a boolean
$CR op memcpy --topo h200-1 --bytes 64MB --kind h2d --json | grep -A4 '"params"'
