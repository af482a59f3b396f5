# calibrate --nccl-tests on one file holding the tables of three collectives
# (a script that runs all_reduce_perf, all_gather_perf and
# reduce_scatter_perf into one log, as sakura's published file does): the
# three Snellius 1-node tables of the corpus's fitting half, joined. Each
# file was taken as the collective of its first table (QA audit of
# pasted logs): --fit-coll all_gather said "no log given is of that collective"
# (exit 2); --fit-coll all_reduce fitted all 70 rows as "1 log(s) of
# allreduce" and wrote source="fitted from all3.log"; without --fit-coll
# there was no cross-check ("one log"). Now each collective's table of a
# file is one log of the fit and the cross-check, named "FILE (coll)": the
# leave-one-log-out figures are those of the three tables given as three
# files (all_reduce 1.4 -> 5.6 %, all_gather 1.5 -> 3.2, reduce_scatter
# 7.9 -> 8.4, all rows), and --fit-coll fits the rows of its table only
# (all_gather 22, all_reduce 26 of the 70).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
C=validate/corpus/h100x4-1/odissei-snellius-1n
T=validate/corpus/topologies/snellius-h100x4-ib.xml
cat $C-all_reduce_perf.log $C-all_gather_perf.log $C-reduce_scatter_perf.log > "$d/all3.log"
$CR calibrate --nccl-tests "$d/all3.log" --topo $T --ranks 0-3 --fit-coll all_gather -o "$d/ag.xml" > "$d/rep" 2>&1
echo "exit $?"
sed "s|$d/|TMP/|g" "$d/rep" | grep -E "^# (commroof|fit on|cross-check)|^  (all3|\()"
grep -o 'source="fitted from [^"]*"' "$d/ag.xml" | sort -u | sed "s|$d/|TMP/|g"
$CR calibrate --nccl-tests "$d/all3.log" --topo $T --ranks 0-3 --fit-coll all_reduce -o "$d/ar.xml" 2>&1 | grep -E "^# (fit on|cross-check)"
# without --fit-coll: each table under a fit on the other two
$CR calibrate --nccl-tests "$d/all3.log" --topo $T --ranks 0-3 -o "$d/all.xml" 2>&1 | grep -E "^# (fit on|cross-check)|^  all3.log .*all "
grep -o 'source="fitted from [^"]*"' "$d/all.xml" | sort -u | sed "s|$d/|TMP/|g"
# JSON: one entry per table
$CR calibrate --nccl-tests "$d/all3.log" --topo $T --ranks 0-3 -o "$d/all.xml" --json 2>/dev/null | grep -E '"(coll|role)"'
