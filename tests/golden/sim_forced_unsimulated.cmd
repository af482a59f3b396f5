# sim refuses what it cannot run before the table starts (audit of
# 2026-12-04: --algo collnet printed the header to stdout, then exit 1):
# a usage error, exit 2, nothing on stdout; an unknown --dtype lists the
# element types sim takes, as coll does (it listed tf32 and fp4, which it
# then refuses)
$CR sim allreduce --topo h100-ib-4n -b 1M --algo collnet --proto simple 2>/dev/null | wc -c
$CR sim allreduce --topo h100-ib-4n -b 1M --algo collnet --proto simple; echo "exit $?"
$CR sim allreduce -b 1M --dtype int32; echo "exit $?"
