# Issue 14 item 4: --bytes takes sizes as nccl-tests' -b does (parsesize in
# src/common.cu: a bare count is bytes, K/M/G are powers of 1024) besides a
# quantity with a unit: 8 -> 8B, 128M -> 128MiB (= 128MiB), 1G -> 1GiB;
# 25MB keeps its SI unit (25000000 B); 12x is neither.
for b in 8 128M 128MiB 1G 25MB 12x; do $CR op coll --coll allreduce --bytes $b --topo hgx-h100-8 2>&1 | sed -n '2p;/^commroof/p'; done
