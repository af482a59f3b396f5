# A forced choice is refused (exit 2, with the reason) wherever it cannot
# run, whatever the sweep or the rank count (audit of 2026-12-04):
# - RCCL's MSCCL all-pairs allreduce, the direct algorithm on 8 MI300X,
#   covers 0-16 MiB (tools/msccl-algorithms allreduce-allpairs-8n-*.xml,
#   model/algo.c): a sweep from 4 MiB to 64 MiB used to print 64 MiB as n/a
#   and exit 1 with no message; now refused, naming 64 MiB;
# - a forced protocol is kept for an allreduce there: LL at 1 MiB runs
#   ring or tree (MSCCL's file names Simple there), not direct/simple;
# - one rank: NVLS without a multicast switch, and multimem on int8, are
#   refused as with 8 ranks (they used to print the local copy, exit 0).
$CR coll allreduce --topo mi300x-8 --algo direct -b 4M -e 64M -f 4; echo "exit $?"
$CR coll allreduce --topo mi300x-8 --algo direct -b 4M -e 16M -f 4 | tail -2 | awk '{print $1, $7, $8}'; echo "exit $?"
$CR coll allreduce --topo mi300x-8 --proto ll -b 1M -e 1M | tail -1 | awk '{print $7, $8}'; echo "exit $?"
$CR coll allreduce --topo mi300x-8 --algo direct --proto ll -b 1M -e 1M; echo "exit $?"
$CR coll allreduce --topo h200-1 --algo nvls --proto simple -b 1M -e 1M; echo "exit $?"
$CR coll allreduce --topo hgx-h100-8 --ranks 0 --mech multimem --dtype int8 -b 1M -e 1M; echo "exit $?"
