# calibrate --nccl-tests says so when its fit leaves the fitted rows as a
# whole further from the measurements than the shipped constants: each key
# is fitted on the rows it shapes (validate/calibrate_nccl.c), and on 10
# nodes of 8 H100 (xxrjun's published all_reduce, validate/corpus) the
# two small Simple rows that inform coll.alpha.net.simple pull against the
# eight large ones; the note and the figures before and after.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
C=validate/corpus/h100-net-10n
$CR calibrate --nccl-tests $C/xxrjun-cluster01-n10g8-all_reduce_perf.log $C/xxrjun-cluster01-n10g8-all_gather_perf.log --topo topologies/h100-ib-128n.xml --ranks 0-79 --fit-coll all_reduce -o "$d/out.xml" 2>&1 | sed "s|$d/|TMP/|g" | grep -v "^# nccl-tests" | head -3
