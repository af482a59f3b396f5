# QA audit of 2026-12-06: a --param the model does not take, or out of its
# range, is a usage error before the corpus runs (it made every log unread
# and exited 0); a gate that holds nothing to a limit fails (a line of the
# other half only, or a band without rows), it passed in silence.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
t() {
    out=$("$@" 2>&1 >/dev/null)
    rc=$?
    printf '%s\n' "$out" | sed "s|$d/|TMP/|g"
    echo "exit $rc"
}
t $CR validate --corpus validate/corpus --param coll.op_fixed=-5
t $CR validate --corpus validate/corpus --param coll.op_fixd=5e-6
printf 'check all median 50\n' >"$d/g.txt"
t $CR validate --corpus validate/corpus --half fit --gate "$d/g.txt"
