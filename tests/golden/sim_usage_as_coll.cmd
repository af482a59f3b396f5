# sim's one-collective form refuses what coll refuses, with exit 2 and
# nothing on stdout (each line: the exit status, then how many lines of
# stdout): a forced algorithm the collective cannot run, an element type
# NCCL lacks, --root on an unrooted collective, more channels than NCCL
# has, -b 0 with a multiplying step, more than 4096 sizes, one rank.
for args in "--algo pat" "--algo nvls --proto ll" "--dtype fp4" "--root 3" \
    "--nchannels 65" "-b 0 -e 1M" "-b 1 -e 1G -f 1.0001" "--ranks 0"; do
    out=$($CR sim allreduce -b 1M $args 2>/dev/null); rc=$?
    printf '%-24s exit %d, %d line(s) on stdout\n' "$args" $rc "$(printf '%s' "$out" | grep -c .)"
done
# and coll, for the same command lines
for args in "--algo pat" "--algo nvls --proto ll" "--dtype fp4" "--root 3" "--nchannels 65"; do
    $CR coll allreduce -b 1M -e 1M $args >/dev/null 2>&1
    printf 'coll %-19s exit %d\n' "$args" $?
done
# the messages
$CR sim allreduce -b 1M --algo nvls --proto ll
$CR sim allreduce -b 1M --ranks 0
# a zero-byte allreduce: every rank's end is the op's (no task of its own), never negative
$CR sim allreduce -b 0 --per-rank --topo hgx-h100-8 | grep -E "rank +[0-9]+ end" | sort -u -k5 | head -2
