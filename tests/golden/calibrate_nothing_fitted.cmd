# calibrate on a log of one row fits nothing (a key needs two rows): each
# key says so and a note says the output holds the base's constants (it
# said "not informed (kept)" everywhere and nothing else; QA audit,
# session 41)
T=$(mktemp -d /tmp/cr-golden-cal1.XXXXXX)
F=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
(sed -n 1,17p $F; sed -n 26p $F) > "$T/one.log"
$CR calibrate --nccl-tests "$T/one.log" --topo hgx-h100-8 -o "$T/one.xml" > "$T/o" 2>&1
echo "exit $?"
grep -c "too few rows to fit it on" "$T/o"
grep "nothing was fitted" "$T/o" | sed "s|$T|T|g"
rm -rf "$T"
