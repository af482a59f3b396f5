# An input of report that cannot be opened fails under its option's name,
# not under the first part that reads it (QA audit of 2026-12-06)
$CR report --trace /nonexistent/t.json -o /tmp/commroof-never-written --no-render
echo "exit $?"
$CR report --nccl-tests /nonexistent/x_all_reduce_perf.log -o /tmp/commroof-never-written --no-render
echo "exit $?"
