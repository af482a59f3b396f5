# A short option's value may follow it at once, as nccl-tests' getopt takes
# it (QA audit of 2026-12-06: -b1M was an unknown option); -b=1M gives "=1M",
# which is no size, and says so.
$CR coll allreduce -b1M -e1M -f2 | tail -1
$CR coll allreduce -b=1M -e1M
echo "exit $?"
