# The corpus readers (validate/corpus.c): topologies.txt, split.txt and the
# gate file skip blank lines and lines that are all comment, count them in
# the line numbers their errors give, and reject a line of too many words.
# Each case copies the fixture corpus (tests/fixtures/corpus) and breaks
# one line; line numbers by hand from the text written.
T=$(mktemp -d /tmp/cr-golden-corpus.XXXXXX)
cp -r tests/fixtures/corpus/. "$T"
run() {
    "$@" >/dev/null 2>"$T/err"
    rc=$?
    sed "s|$T|T|g" "$T/err"
    echo "rc=$rc"
}
# topologies.txt: line 3 has an odd word after the topology
printf '# c\n\nh100-8 hgx-h100-8 --ranks 0-7 x  # note\n' > "$T/topologies.txt"
run $CR validate --corpus "$T"
# topologies.txt: options in either order; line 2 gives --ranks twice,
# line 3 an NCCL release before 2.9
sed 's/^h100-8 .*/h100-8 hgx-h100-8 --nccl-version 2.23.4 --ranks 0-7/' \
    tests/fixtures/corpus/topologies.txt > "$T/topologies.txt"
run $CR validate --corpus "$T"
printf '# c\nh100-8 hgx-h100-8 --ranks 0-7 --ranks 0-3\n' > "$T/topologies.txt"
run $CR validate --corpus "$T"
printf '# c\n\nh100-8 hgx-h100-8 --nccl-version 2.7.8\n' > "$T/topologies.txt"
run $CR validate --corpus "$T"
# topologies.txt: line 2's NCCL_ALGO names no NCCL algorithm
printf '# c\nh100-8 hgx-h100-8 --nccl-algo Ring,Rink\n' > "$T/topologies.txt"
run $CR validate --corpus "$T"
# topologies.txt: line 4 maps h100-8 again (first on line 2)
printf '\nh100-8 hgx-h100-8\n   # only a comment\nh100-8 none  # why\n' > "$T/topologies.txt"
run $CR validate --corpus "$T"
# split.txt: line 3 names a half that is neither fit nor check
cp tests/fixtures/corpus/topologies.txt "$T/topologies.txt"
printf '# c\nfit h100-8/fixture-all_reduce_perf.log\nhalf h100-8/fixture-all_gather_perf.log\n' > "$T/split.txt"
run $CR validate --corpus "$T"
# the gate file: line 3 has no LIMIT_PCT; then one of comments only
cp tests/fixtures/corpus/split.txt "$T/split.txt"
printf '# gate\nfit all median 50\ncheck all p90 # 10\n' > "$T/gate.txt"
run $CR validate --corpus "$T" --gate "$T/gate.txt"
printf '# gate\n\n  # nothing\n' > "$T/gate.txt"
run $CR validate --corpus "$T" --gate "$T/gate.txt"
# the gate file: the systems' own medians (every system alike) as a gate
# statistic; line 3's statistic is misspelt
printf '# gate\nfit all systems-median 1000\ncheck all sistems-median 10\n' > "$T/gate.txt"
run $CR validate --corpus "$T" --gate "$T/gate.txt"
printf 'fit all systems-median 1000\nfit all systems-p90 0.001\n' > "$T/gate.txt"
run $CR validate --corpus "$T" --gate "$T/gate.txt"
# a log the reader reads without finding a result row (a launcher prefix it
# does not know before every line) is "not read", not "ok" with 0 rows
printf '(x) {1,0}<o>:       8             2     float     sum      -1    35.00    0.00    0.00      0    35.00    0.00    0.00      0\n' > "$T/h100-8/fixture-all_gather_perf.log"
$CR validate --corpus "$T" --logs 2>&1 | grep fixture-all_gather | sed "s|$T|T|g"
rm -rf "$T"
