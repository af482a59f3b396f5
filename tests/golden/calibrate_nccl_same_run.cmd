# The same run given twice across files, and -o over the base topology
# (QA audit of calibrate, session 47).
# 1. A file holding the all_reduce and all_gather tables plus the all_gather
#    log on its own: its table counted twice, and the cross-check held out
#    a copy of what it fitted (all_gather 1-64 MiB 6.1 % where its honest
#    figure is 12.7). Now refused, naming both places, by calibrate and by
#    validate alike (exit 1, as a table pasted twice within one log).
# 2. Two runs' tables that share a single row's size and time are no copy
#    (one row cannot tell): still taken.
# 3. -o naming the --topo file replaced the hand-written base (comments,
#    templates) with the expanded graph and exited 0: now a usage error
#    (exit 2), the base untouched.
# 4. --coll contradicting a log's own collective line says that --coll
#    applies to every log given.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
C=validate/corpus/h100x4-1/odissei-snellius-1n
T=validate/corpus/topologies/snellius-h100x4-ib.xml
cat $C-all_reduce_perf.log $C-all_gather_perf.log > "$d/two.log"
cp $C-all_gather_perf.log "$d/ag_perf.log"
$CR calibrate --nccl-tests "$d/two.log" "$d/ag_perf.log" --topo $T --ranks 0-3 -o "$d/out.xml" > "$d/rep" 2>&1
echo "exit $?"
cat "$d/rep"
test -e "$d/out.xml" && echo "out.xml written" || echo "out.xml not written"
$CR validate --nccl-tests "$d/two.log" --nccl-tests "$d/ag_perf.log" --topo $T --ranks 0-3 > "$d/rep" 2>&1
echo "exit $?"
grep -v "^#\|^  nccl" "$d/rep"
# 2: a second log whose one row is the all_gather log's 4 KiB row
awk '!/^ +[0-9]/ || $1 == 4096' $C-all_gather_perf.log > "$d/ag2_all_gather_perf.log"
$CR validate --nccl-tests $C-all_gather_perf.log --nccl-tests "$d/ag2_all_gather_perf.log" --topo $T --ranks 0-3 > /dev/null 2>&1
echo "exit $?"
# 3
cp $T "$d/base.xml"
cksum < "$d/base.xml" > "$d/sum"
$CR calibrate --nccl-tests $C-all_gather_perf.log --topo "$d/base.xml" --ranks 0-3 -o "$d/base.xml" > "$d/rep" 2>&1
echo "exit $?"
sed "s|$d/|TMP/|g" "$d/rep"
cksum < "$d/base.xml" | cmp -s - "$d/sum" && echo "base.xml unchanged" || echo "base.xml changed"
# 4
$CR calibrate --nccl-tests $C-all_reduce_perf.log --coll allgather --topo $T --ranks 0-3 -o "$d/o.xml" > "$d/rep" 2>&1
echo "exit $?"
cat "$d/rep"
