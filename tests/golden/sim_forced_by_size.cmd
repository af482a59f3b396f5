# A forced algorithm that runs at the sweep's first sizes but not at a later
# one (RCCL's MSCCL all-pairs allreduce on 8 MI300X covers up to 16 MiB) is a
# usage error found before the table starts, naming the size, as coll does
# (QA audit of 2026-12-06: sim printed rows to 4 MiB, then failed with exit 1).
$CR sim allreduce --topo mi300x-8 --algo direct -b 1K -e 256M -f 16
echo "exit $?"
$CR sim allreduce --topo mi300x-8 --algo direct -b 1K -e 256M -f 16 --json
echo "exit $?"
