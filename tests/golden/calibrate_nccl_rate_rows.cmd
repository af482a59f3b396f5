# calibrate --nccl-tests on a log that stops at 32 MiB (nccl-tests' default
# -e 32M): ABCI's two nodes, all_reduce fitted, broadcast held out (the
# corpus's fitting half). No row is above 64 MiB, so the rows within 4x of
# the largest size (8-32 MiB) inform the rates (coll.eff.*) too, and the
# report says so; coll.eff.net is fitted (0.38 of the links: ABCI's network
# is slower than its four HDR ports) instead of "not informed (kept)", and
# the held-out broadcast's 1-64 MiB error falls (50.2 % -> 19.1 %).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
C=validate/corpus
$CR calibrate --nccl-tests $C/a100-ib-2n/abci2-2n-all_reduce_perf.log $C/a100-ib-2n/abci2-2n-broadcast_perf.log --topo $C/topologies/abci-a100-ib.xml --ranks 0-15 --nccl-version 2.8.4 --fit-coll all_reduce -o "$d/out.xml" 2>&1 | sed "s|$d/|TMP/|g" | grep -v "not informed"
