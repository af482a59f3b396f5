# Ranks 0-14 of h100-ib-4n: 8 on node 0, 7 on node 1. coll's auto picked
# the NVLS tree at 32 MiB and 1 GiB, whose simulated schedule pairs the
# nodes' heads one to one, and sim then refused its own pick ("nvlstree
# needs the same number of ranks on every node", exit 1; found by a
# randomised sim-vs-bound oracle). coll no longer offers the NVLS tree on
# uneven nodes (forced: a usage error, exit 2); sim runs NCCL's next pick.
$CR sim allreduce --topo h100-ib-4n --ranks 0-14 -b 32M -e 1G -f 32 > /tmp/sim_uneven.$$; echo "exit $?"
grep -v '^#' /tmp/sim_uneven.$$ | sed -n '1,2p' | awk '{print $1, $7, $8}'
rm -f /tmp/sim_uneven.$$
$CR coll allreduce --topo h100-ib-4n --ranks 0-14 -b 1G -e 1G --algo nvlstree 2>&1 | head -1
$CR coll allreduce --topo h100-ib-4n --ranks 0-14 -b 1G -e 1G --algo nvlstree > /dev/null 2>&1; echo "exit $?"
