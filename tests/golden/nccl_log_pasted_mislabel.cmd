# Logs as pasted, refused where they would be read wrong (QA audit,
# session 41): a row whose size is no whole number (2.6e5, 262144.0,
# 262,144) was dropped silently; an all_reduce table under a sendrecv
# name (busbw 1.74 x algbw, where sendrecv prints busbw = algbw) was
# predicted as a sendrecv; a broadcast table under an all_reduce name,
# with every rank listed, was read as 2 ranks because its busbw/algbw
# said so. An excerpt of the rank list (only the last rank's line) still
# yields to busbw/algbw, with a note (CoreWeave's 2-rack GB200 log).
T=$(mktemp -d /tmp/cr-golden-paste.XXXXXX)
F=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
for v in "2.6e5  " "262144.0 " "262,144 "; do
    sed "23s/^      262144 /      $v/" $F > "$T/smid.log"
    $CR validate --topo hgx-h100-8 --summary --nccl-tests "$T/smid.log" > "$T/o" 2>&1
    echo "exit $?"
    sed "s|$T|T|g" "$T/o"
done
mkdir "$T/fn"
grep -v 'Collective test' $F > "$T/fn/sendrecv_perf.log"
$CR validate --topo hgx-h100-8 --summary --nccl-tests "$T/fn/sendrecv_perf.log" 2>&1 | sed "s|$T|T|g"
grep -v '^##' validate/corpus/h100-8/sakura-llmjp-h100-1n-broadcast_perf.log > "$T/fn/all_reduce_perf.log"
$CR validate --topo hgx-h100-8 --summary --nccl-tests "$T/fn/all_reduce_perf.log" 2>&1 | sed "s|$T|T|g"
$CR validate --topo gb200-nvl72 --summary --nccl-tests validate/corpus/gb200-nvl72-ib-2rack/coreweave-2rack-all_reduce_perf.log 2>&1 | grep -o "rank lines list 144 ranks, but busbw/algbw says 128[^;]*" | head -1
# a table pasted twice into one log: its rows would count twice (2,000
# copies took calibrate 80 s)
cat $F $F > "$T/twice.log"
$CR validate --topo hgx-h100-8 --summary --nccl-tests "$T/twice.log" > "$T/o" 2>&1
echo "exit $?"
sed "s|$T|T|g" "$T/o"
rm -rf "$T"
