# A short option's value may follow it at once, as nccl-tests' getopt takes
# it (QA audit of 2026-12-06: -b1M was an unknown option); -b=1M is refused
# with the spelling that works (getopt would take "=1M"), and so is -o=DIR,
# which made report write into a folder named "=" (QA re-verification,
# 2026-12-07): nothing is written.
$CR coll allreduce -b1M -e1M -f2 | tail -1
$CR coll allreduce -b=1M -e1M
echo "exit $?"
T=$(mktemp -d /tmp/cr-golden-oeq.XXXXXX)
(cd "$T" && $CR report -o=out; echo "exit $?"; ls -A)
rm -rf "$T"
