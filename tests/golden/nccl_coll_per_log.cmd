# --coll given more than once names the log given right before each
# (DESIGN.md: [--nccl-tests LOG [--coll C]]...), so that logs of two
# collectives pasted without their "Collective test starting" lines go in
# one run of validate or calibrate; it was refused as "--coll given twice"
# (QA audit of pasted logs, session 51). Given once it still names every
# log's. A --coll before any log, or two after one log, is a usage error.
T=$(mktemp -d /tmp/cr-golden-coll.XXXXXX)
grep -v "Collective test starting" tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log > "$T/a.log"
grep -v "Collective test starting" tests/fixtures/nccl-tests/h100-8-1proc-all_gather_perf.log > "$T/b.log"
$CR validate --topo hgx-h100-8 --summary --nccl-tests "$T/a.log" --coll all_reduce \
    --nccl-tests "$T/b.log" --coll all_gather | grep '^# nccl-tests'
echo "exit $?"
$CR calibrate --topo hgx-h100-8 -o "$T/fit.xml" --nccl-tests "$T/a.log" --coll allreduce \
    "$T/b.log" --coll allgather 2>&1 | grep '^# nccl-tests' | sed "s|$T|T|g"
test -s "$T/fit.xml" && echo "fit.xml written"
# once, before or after the logs: every log's
$CR validate --topo hgx-h100-8 --summary --coll all_reduce --nccl-tests "$T/a.log" | grep '^# nccl-tests'
$CR validate --topo hgx-h100-8 --coll all_reduce --nccl-tests "$T/a.log" --nccl-tests "$T/b.log" \
    --coll all_gather > "$T/o" 2>&1
echo "exit $?"
sed "s|$T|T|g" "$T/o"
$CR calibrate --topo hgx-h100-8 --nccl-tests "$T/a.log" --coll all_reduce --coll all_gather > "$T/o" 2>&1
echo "exit $?"
sed "s|$T|T|g" "$T/o"
# a log without --coll among others that have one reads as before: from
# its "Collective test starting" line or file name, else refused
$CR validate --topo hgx-h100-8 --nccl-tests "$T/a.log" --coll all_reduce --nccl-tests "$T/b.log" \
    --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --coll all_reduce > "$T/o" 2>&1
echo "exit $?"
sed "s|$T|T|g" "$T/o"
rm -rf "$T"
