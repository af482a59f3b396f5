# nccl-tests prints the time of its host-timed loop of back-to-back
# operations: every thread enqueues its GPUs' operations while the GPUs run
# the previous ones, so the host's time per operation (coll.host_op x the
# GPUs the thread drives) floors each row, also with one process per GPU
# (srun: 16 ranks, one GPU each). With coll.host_op raised to 1 ms (and its
# part per channel, coll.host_op.ch, set to 0) in a copy of h100-ib-4n
# every row (1-16 MiB) is predicted at 1000 us: their GPU time is 100-300
# us (before: the host floor held for -g N logs only).
T=$(mktemp -d /tmp/cr-golden-hostloop.XXXXXX)
sed 's#</topology>#  <param key="coll.host_op" value="1e-3" source="test: a slow host"/>\n  <param key="coll.host_op.ch" value="0" source="test: no part per channel"/>\n</topology>#' topologies/h100-ib-4n.xml > "$T/h100-ib-4n.xml"
cp topologies/commroof-topology.dtd "$T/"
$CR validate --topo "$T/h100-ib-4n.xml" --nccl-tests tests/fixtures/nccl-tests/pasted-srun-all_reduce_perf.log --json |
    grep -E '"(bytes|pred_us)"' | paste - - | sed 's/[",]//g' | awk '{ print $3, $4, $1, $2 }'
rm -rf "$T"
