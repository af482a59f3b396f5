# The corpus is read whole or not at all (QA audit, session 42): a log in a
# system folder that split.txt does not name, a copy of a log under another
# name (here in the other half: fitted rows in the checking half), a log
# named in both halves while one half is evaluated, and a log that does not
# read (a damaged time; an empty file) each fail the run, naming the file;
# the gate file holds each figure to one limit and reads decimals only
# (a second line for "check all median" went unsaid, the stricter one
# deciding; "0x14" was read as 20 %).
T=$(mktemp -d /tmp/cr-golden-corpint.XXXXXX)
trap 'rm -rf "$T"' EXIT
fresh() { rm -rf "$T/c"; mkdir "$T/c"; cp -r tests/fixtures/corpus/. "$T/c"; }
run() {
    "$@" >/dev/null 2>"$T/err"
    rc=$?
    grep -v ': gate ' "$T/err" | sed "s|$T|T|g"
    echo "rc=$rc"
}
fresh
cp "$T/c/h100-8/fixture-all_reduce_perf.log" "$T/c/h100-8/copy-all_reduce_perf.log"
run $CR validate --corpus "$T/c"
echo "check h100-8/copy-all_reduce_perf.log" >> "$T/c/split.txt"
run $CR validate --corpus "$T/c"
fresh
echo "check h100-8/fixture-all_reduce_perf.log" >> "$T/c/split.txt"
run $CR validate --corpus "$T/c" --half fit
fresh
sed -i 's/ 28\.14 / 28.1x4 /' "$T/c/h100-8/fixture-all_reduce_perf.log"
grep -c '28.1x4' "$T/c/h100-8/fixture-all_reduce_perf.log"
run $CR validate --corpus "$T/c"
fresh
: > "$T/c/h100-8/fixture-all_gather_perf.log"
run $CR validate --corpus "$T/c" --half check
fresh
printf 'check all median 20\ncheck all median 5\n' > "$T/g.txt"
run $CR validate --corpus "$T/c" --gate "$T/g.txt"
printf 'check all median 0x14\n' > "$T/g.txt"
run $CR validate --corpus "$T/c" --gate "$T/g.txt"
# the shipped corpus reads whole
$CR validate --corpus validate/corpus >/dev/null
echo "validate/corpus: exit $?"
