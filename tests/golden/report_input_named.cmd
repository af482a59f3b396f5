# An input of report that cannot be opened fails under its option's name,
# not under the first part that reads it (QA audit of 2026-12-06); a
# folder given to --trace with no trace in it, under its own path (it was
# "Measured problems: % of roofline: DIR: no trace file ...")
$CR report --trace /nonexistent/t.json -o /tmp/commroof-never-written --no-render
echo "exit $?"
$CR report --nccl-tests /nonexistent/x_all_reduce_perf.log -o /tmp/commroof-never-written --no-render
echo "exit $?"
E=$(mktemp -d /tmp/cr-golden-emptytr.XXXXXX)
$CR report --trace "$E" -o /tmp/commroof-never-written --no-render 2>&1 | sed "s|$E|EMPTY|"
rmdir "$E"
# the same for --measured-json, --corpus and --compare (QA audit of the
# report): they failed under their part's title ("Measured problems: % of
# roofline: ...", "corpus: ...", "Hardware comparison: bound time: ..."),
# the corpus and the comparison only after the charts before them had
# been rendered
$CR report --measured-json /nonexistent/m.json -o /tmp/commroof-never-written --no-render
echo "exit $?"
$CR report --corpus /nonexistent/corpus -o /tmp/commroof-never-written --no-render
echo "exit $?"
$CR report --corpus README.md -o /tmp/commroof-never-written --no-render
echo "exit $?"
$CR report --compare hgx-h100-8,nope -o /tmp/commroof-never-written --no-render 2>&1 | cut -c1-90
ls -d /tmp/commroof-never-written 2>&1 | sed 's/:.*//'
