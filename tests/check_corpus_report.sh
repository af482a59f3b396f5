#!/bin/sh
# SPDX-License-Identifier: MIT
# The measurement corpus (issue 14 item 5) on the fixture corpus
# tests/fixtures/corpus (two systems, one "none"): `commroof validate
# --corpus` gives each row the error `commroof validate --nccl-tests LOG
# --topo T --ranks SPEC` gives it (one evaluation), its per-band figures are
# the linear-interpolation percentiles of those errors (recomputed here with
# awk), the fitting and checking halves stay apart; `commroof report
# --corpus` adds the part with both halves and per-system rows and renders
# its charts; bad topologies.txt and split.txt lines give file:line errors
# and exit 1.
# Usage: tests/check_corpus_report.sh BUILD/commroof
set -u
CR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d /tmp/cr-check-corpus.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
F=tests/fixtures/corpus

# 1. the same errors as validate per log, and the percentiles of them
"$CR" validate --corpus $F --json > "$T/c.json" || bad "validate --corpus exited $?"
# |err| per log from validate itself, on the topology topologies.txt names
v() { "$CR" validate --nccl-tests "$F/$1" --topo "$2" ${3:+--ranks $3} --json |
      tr -d ' \n' | grep -o '"error_pct":[-0-9.e]*' | cut -d: -f2 | tr -d - ; }
{ v h100-8/fixture-all_reduce_perf.log hgx-h100-8; v h100-efa-2n/excerpt-a-all_reduce_perf.log h100-ib-4n 0-15; } \
    | sort -g > "$T/fit.err"
{ v h100-8/fixture-all_gather_perf.log hgx-h100-8; v h100-efa-2n/excerpt-b-all_reduce_perf.log h100-ib-4n 0-15; } \
    | sort -g > "$T/check.err"
[ "$(wc -l < "$T/fit.err")" = 5 ] || bad "expected 5 fit rows from validate, got $(wc -l < "$T/fit.err")"
[ "$(wc -l < "$T/check.err")" = 5 ] || bad "expected 5 check rows (the none log left out)"
# linear interpolation at q (n - 1), as corpus.h says
pct() { awk -v q="$2" '{v[NR-1]=$1} END {p=q*(NR-1); lo=int(p); hi=lo+1<NR?lo+1:NR-1;
        printf "%.3f\n", v[lo]+(v[hi]-v[lo])*(p-lo)}' "$1"; }
# the JSON's "all" figures of a half, band "all"
jget() { python3 -c "import json,sys; t=json.load(open('$T/c.json'))['tables']['$1']['$2']['$3'];
print('%.3f' % t['$4'] if t['$4'] is not None else '-')"; }
for h in fit check; do
    for q in median:0.5 p90:0.9; do
        want=$(pct "$T/$h.err" "${q#*:}")
        got=$(jget $h all all "${q%:*}")
        # validate --json prints each error to 6 significant digits: the
        # percentile of the rounded errors may differ in the last digit
        awk -v a="$want" -v b="$got" 'BEGIN {d = a - b; exit !(d <= 0.0015 && d >= -0.0015)}' ||
            bad "$h all ${q%:*}: corpus $got, validate's errors give $want"
    done
done
python3 -c "
import json; d=json.load(open('$T/c.json'))
assert set(d['tables']) == {'fit', 'check'}, d['tables'].keys()
for h in ('fit', 'check'):
    assert set(d['tables'][h]) == {'all', 'h100-8', 'h100-efa-2n'}, (h, d['tables'][h].keys())
    assert d['tables'][h]['all']['all']['rows'] == 5
s = {x['log']: x['status'] for x in d['logs']}
assert s['pcie-x/no-topo-all_reduce_perf.log'] == 'none', s
assert all(r['half'] in ('fit', 'check') for r in d['rows'])
" || bad "validate --corpus --json: halves, systems or log status wrong"
"$CR" validate --corpus $F --half check --json > "$T/check.json"
python3 -c "
import json; d=json.load(open('$T/check.json'))
assert list(d['tables']) == ['check'] and all(x['half'] == 'check' for x in d['logs'])
" || bad "validate --corpus --half check reports the fitting half"

# 2. the report part: both halves, per-system rows, four charts
"$CR" report --topo hgx-h100-8 --corpus $F -o "$T/rep" > "$T/rep.txt" 2>&1 ||
    bad "report --corpus exited $?: $(head -3 "$T/rep.txt")"
grep -q 'id="corpus"' "$T/rep/index.html" || bad "index.html has no Measurement corpus part"
for h in fit check; do
    for s in all h100-8 h100-efa-2n; do
        grep -q "^$h,$s," "$T/rep/corpus.csv" || bad "corpus.csv has no $h row for $s"
    done
    for k in accuracy error; do
        [ -s "$T/rep/corpus-$h-$k.png" ] || bad "no corpus-$h-$k.png"
        grep -q "corpus-$h-$k.png" "$T/rep/index.html" || bad "index.html does not show corpus-$h-$k"
    done
done
grep -q 'no-topo-all_reduce_perf.log: no topology' "$T/rep/corpus.txt" ||
    bad "corpus.txt does not name the log left out"
# the figures of the report's table are validate --corpus's
grep '^fit,all,' "$T/rep/corpus.csv" | grep -q ",$(jget fit all all median | sed 's/0*$//; s/\.$//')" ||
    bad "report's fit median differs from validate --corpus's: $(grep '^fit,all,' "$T/rep/corpus.csv")"

# 3. bad lines: file:line, exit 1
badcase() { # NAME FILE LINE-TEXT WANT
    rm -rf "$T/bc"; cp -r $F "$T/bc"
    printf '%s\n' "$3" >> "$T/bc/$2"
    n=$(wc -l < "$T/bc/$2")
    out=$("$CR" validate --corpus "$T/bc" 2>&1); rc=$?
    [ $rc = 1 ] || bad "$1: exit $rc, expected 1"
    printf '%s' "$out" | grep -q "$T/bc/$2:$n: $4" || bad "$1: no \"$2:$n: $4\" in: $out"
    out=$("$CR" report --topo hgx-h100-8 --corpus "$T/bc" -o "$T/bcrep" --no-render 2>&1); rc=$?
    [ $rc = 1 ] || bad "$1 (report): exit $rc, expected 1"
    printf '%s' "$out" | grep -q "$2:$n: " || bad "$1 (report): no file:line in: $out"
}
badcase split-half split.txt "train h100-8/fixture-all_reduce_perf.log" 'half "train"'
badcase split-fields split.txt "fit" 'expected "fit|check FOLDER/FILE"'
badcase split-dup split.txt "check h100-8/fixture-all_reduce_perf.log" 'h100-8/fixture-all_reduce_perf.log is in the split already'
badcase split-missing split.txt "fit h100-8/nothing_perf.log" '.*no such log file'
badcase split-unmapped split.txt "fit other/x_perf.log" 'other/x_perf.log has no line'
badcase split-dotdot split.txt "fit ../x/y.log" '"../x/y.log" is not a log of the corpus'
badcase topo-fields topologies.txt "a100-8 dgx-a100-8 --ranks" '--ranks without its value; expected "FOLDER'
badcase topo-dup topologies.txt "h100-8 hgx-h200-8" 'h100-8 is mapped already on line'
rm -rf "$T/bc"; cp -r $F "$T/bc"
sed -i 's/^h100-8  .*/h100-8 no-such-machine/' "$T/bc/topologies.txt"
out=$("$CR" validate --corpus "$T/bc" 2>&1); rc=$?
[ $rc = 1 ] || bad "unknown topology: exit $rc, expected 1"
printf '%s' "$out" | grep -q "topologies.txt:3: topology no-such-machine" ||
    bad "unknown topology: no file:line in: $out"
sed -i 's/^h100-8 .*/h100-8 hgx-h100-8 --ranks 0-15/' "$T/bc/topologies.txt"
out=$("$CR" validate --corpus "$T/bc" 2>&1); rc=$?
[ $rc = 1 ] || bad "rank set too large: exit $rc, expected 1"
printf '%s' "$out" | grep -q "topologies.txt:3: --ranks 0-15 on hgx-h100-8" ||
    bad "rank set too large: no file:line in: $out"
# --gate: a line at the fixture's own check-half median (from the JSON
# above) plus 0.1 holds, minus 0.1 misses (exit 1, the line named on
# stderr); a malformed line is file:line before the corpus runs
med=$(jget check all all median)
lo=$(echo "$med" | awk '{printf "%.3f", $1 - 0.1}'); hi=$(echo "$med" | awk '{printf "%.3f", $1 + 0.1}')
printf '# fixture gate\ncheck all median %s target 10\n' "$hi" > "$T/gate-ok.txt"
printf 'fit all p90 1000\ncheck all median %s\n' "$lo" > "$T/gate-miss.txt"
out=$("$CR" validate --corpus $F --gate "$T/gate-ok.txt" 2>&1 >/dev/null); rc=$?
[ $rc = 0 ] || bad "gate at median + 0.1: exit $rc, expected 0: $out"
printf '%s' "$out" | grep -q "gate-ok.txt:2: check all median .*<= $(printf '%.1f' "$hi")%.*target 10.0%.*: ok" ||
    bad "gate at median + 0.1: no ok line for gate-ok.txt:2 in: $out"
out=$("$CR" validate --corpus $F --gate "$T/gate-miss.txt" 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] || bad "gate at median - 0.1: exit $rc, expected 1"
printf '%s' "$out" | grep -q "gate-miss.txt:2: check all median .* above .*: MISSED" ||
    bad "gate at median - 0.1: no MISSED line for gate-miss.txt:2 in: $out"
printf '%s' "$out" | grep -q "gate-miss.txt:1: fit all p90 .*: ok" || bad "gate: the fit line is not reported ok: $out"
printf 'check all mean 5\n' > "$T/gate-bad.txt"
out=$("$CR" validate --corpus $F --gate "$T/gate-bad.txt" 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && printf '%s' "$out" | grep -q 'gate-bad.txt:1: statistic "mean": expected median' ||
    bad "gate with 'mean': exit $rc, no file:line in: $out"
"$CR" validate --corpus 2>/dev/null; [ $? = 2 ] || bad "--corpus without a folder: not a usage error"
"$CR" validate --corpus $F --half both 2>/dev/null; [ $? = 2 ] || bad "--half both: not a usage error"
"$CR" validate --corpus $F --topo x 2>/dev/null; [ $? = 2 ] || bad "--corpus --topo: not a usage error"
"$CR" validate --corpus "$T/none" > /dev/null 2>&1; [ $? = 1 ] || bad "missing corpus folder: not exit 1"

# The four corpus charts of the committed corpus (validate/corpus): one
# system, one colour and marker on all four (the accuracy charts ordered
# their series by row count, the error charts by name: a100-8 changed
# looks between them); a system of a half with no row to draw is named in
# that half's captions (gb200-nvl72-ib-2rack vanished from the checking
# half's charts without a word).
"$CR" report --corpus validate/corpus -o "$T/rep-vc" > "$T/rep-vc.txt" 2>&1 ||
    bad "report --corpus validate/corpus exited $?: $(tail -3 "$T/rep-vc.txt")"
python3 - "$T/rep-vc" validate/corpus/split.txt <<'PY' || bad "corpus charts: a system's look differs between charts, or a system vanishes unnamed"
import re, sys
d, split = sys.argv[1], sys.argv[2]
halves = {"fit": set(), "check": set()}
for line in open(split):
    if line.strip() and not line.startswith("#"):
        h, path = line.split()[:2]
        halves[h].add(path.split("/")[0])
looks = {}
for h in ("fit", "check"):
    for kind in ("accuracy", "error"):
        gp = open("%s/corpus-%s-%s.gp" % (d, h, kind)).read()
        drawn = set()
        for pt, col, name in re.findall(r'with points pt (\d+) [^"]*"(#[0-9A-Fa-f]+)" title "([^"]*)"', gp):
            drawn.add(name)
            assert looks.setdefault(name, (col, pt)) == (col, pt), (h, kind, name, looks[name], (col, pt))
        title = re.search(r'set title "([^"]*)"', gp).group(1)
        # the caption wraps at "; " (the break replaces it) or at a space
        title = title.replace(",\\n", ", ").replace("\\n", "; ")
        m = re.search(r"not drawn, no row with a prediction \(the table\\047s notes say why\): ([^;]*)", title)
        named = set(m.group(1).strip().split(", ")) if m else set()
        gone = halves[h] - drawn
        assert gone == named, (h, kind, sorted(gone), sorted(named))
assert len(looks) > 10, looks
PY

[ $fail = 0 ] && echo "check_corpus_report: OK"
exit $fail
