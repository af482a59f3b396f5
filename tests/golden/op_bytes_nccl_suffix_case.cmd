# --bytes takes an nccl-tests size's suffix in either case, as coll's -b
# does (cli_parse_size: K, M, G, T, any case, powers of 1024) and
# nccl-tests' parsesize (k, m, g): 64m = 64M = 64 MiB, 1g = 1 GiB,
# 1t = 1T = 1 TiB. "64m" was refused as an unknown unit "m" where
# coll -b 64m read 67108864 B; the bulk JSON reads it as op does: a d2d
# copy of 64 MiB, cold, reads and writes 2 x 67108864 B at H100's
# 3350 GB/s of HBM: 40.06 us.
for b in 64m 64M 1g 1t 1T; do $CR op coll --coll allreduce --bytes $b --topo hgx-h100-8 2>&1 | sed -n '2p;/^commroof/p'; $CR coll allreduce -b $b -e $b --topo hgx-h100-8 | tail -1 | awk '{print "coll -b: " $1 " B"}'; done
echo '[{"op":"memcpy","params":{"bytes":"64m"},"measured_us":1000}]' | $CR check --measured-json - --topo hgx-h100-8 | grep -E '"(error|bound_cold_us)"'
