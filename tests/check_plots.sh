#!/bin/sh
# SPDX-License-Identifier: MIT
# `commroof plot` and `commroof report` end to end: every chart kind renders
# a valid, non-empty PNG and SVG with its data file and script beside it;
# gnuplot failures give a clear error and exit 1; usage errors exit 2; the
# report's index.html references only files that exist.
# Usage: tests/check_plots.sh BUILD/commroof
set -u
CR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 1
T=$(mktemp -d /tmp/cr-check-plots.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# A PNG: the 8-byte signature, an IHDR chunk, more than 2 kB.
is_png() {
    [ "$(od -An -tx1 -N8 "$1" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
    [ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = IHDR ] || return 1
    [ "$(wc -c < "$1")" -gt 2000 ]
}
# An SVG: an <svg> root element, closed, drawing something.
is_svg() {
    grep -q '<svg' "$1" && grep -q '</svg>' "$1" && grep -q '<path' "$1" &&
        [ "$(wc -c < "$1")" -gt 2000 ]
}

# plot KIND-NAME ARGS...: renders NAME.png and NAME.svg, checks both.
plot() {
    name=$1
    shift
    for ext in png svg; do
        out="$T/$name.$ext"
        "$CR" plot "$@" -o "$out" > "$T/out.txt" 2>&1
        rc=$?
        if [ $rc != 0 ]; then
            bad "plot $* -o $out exited $rc: $(head -3 "$T/out.txt")"
            continue
        fi
        if [ "$ext" = png ]; then is_png "$out" || bad "$out is not a valid PNG"; fi
        if [ "$ext" = svg ]; then is_svg "$out" || bad "$out is not a valid SVG"; fi
        [ -s "$T/$name.dat" ] || bad "no data file $T/$name.dat"
        grep -q "$name.dat" "$T/$name.gp" 2>/dev/null || bad "$T/$name.gp does not read $name.dat"
        grep -q "wrote $out" "$T/out.txt" || bad "plot $name did not say where the image went"
    done
}

plot roofline roofline --topo hgx-h200-8
plot roofline-h200-1 roofline --topo h200-1
# the cache ceilings (doc/bounds.md 1.4): the H200's L2, MI300X's L2 and
# Infinity Cache, each a slanted line of its own
grep -q 'L2 20.28 TB/s (data that fits in 60 MiB, warm)' "$T/roofline-h200-1.gp" ||
    bad "roofline-h200-1.gp has no L2 ceiling"
plot roofline-mi300x roofline --topo mi300x-8
grep -q 'Infinity Cache 17.2 TB/s (256 MiB, warm)' "$T/roofline-mi300x.gp" ||
    bad "roofline-mi300x.gp has no Infinity Cache ceiling"
plot comm-roofline comm-roofline --topo hgx-h200-8
plot comm-roofline-ib comm-roofline --topo h100-ib-4n --gpu 9
# No bound point above the roof (QA audit, defect 1): x and FLOPs are the
# named algorithm's, the bound may be another algorithm's (ring attention
# re-sharded by heads: 69.49 us of compute at 585 FLOP per bus byte, 989.5
# TFLOP/s where the in-switch ceiling gives 585 x 897.7 GB/s = 525) or
# need fewer bytes than the bus-byte count (A100's allreduce bound, 331
# GB/s of bus bandwidth over 300 GB/s ports). The roof at x is the highest
# ceiling line the chart draws there (log-log interpolation of its
# segments); a point over it must sit in the series that says so.
for topo in hgx-h200-8 hgx-h100-8 dgx-a100-8 hgx-b200-8 gb200-nvl72 h100-ib-4n mi300x-8 l40s-pcie-8; do
    for kind in roofline comm-roofline; do
        "$CR" plot $kind --topo $topo --suite pkb --no-render --json -o "$T/roof.png" > "$T/roof.json" ||
            bad "plot $kind --topo $topo --json exited $?"
        python3 - "$T/roof.json" <<'PY' || bad "$kind on $topo: a bound point above the roof is not marked"
import json, math, sys
c = json.load(open(sys.argv[1]))["chart"]
ceil = [s for s in c["series"] if s["points"] and all("label" not in p for p in s["points"])]
def roof(x):
    best = 0.0
    for s in ceil:
        for a, b in zip(s["points"], s["points"][1:]):
            if a["x"] * (1 - 1e-9) <= x <= b["x"] * (1 + 1e-9):
                f = 0 if a["x"] == b["x"] else math.log(x / a["x"]) / math.log(b["x"] / a["x"])
                best = max(best, a["y"] * (b["y"] / a["y"]) ** f)
    return best
bound = [s for s in c["series"] if s["name"].endswith(": bound")]
bad = [(p["label"], p["x"], p["y"], roof(p["x"])) for s in bound for p in s["points"]
       if p["y"] > roof(p["x"]) * (1 + 1e-9)]
assert not bad, bad
PY
    done
done
# A bound that another algorithm gives (op: "bound: by another algorithm
# that moves less") is not the named algorithm's point, whether or not the
# highest line at its x holds it (QA audit, session 40: the MoE all-to-alls
# and ring attention's allgather sat in the plain bound series at 648 and
# 557 GB/s, over the 450 GB/s NVLink line their collectives run on, under
# only the in-switch reduction line); the plain bound series keeps the
# named algorithm's own bounds
"$CR" plot comm-roofline --suite pkb --no-render --json -o "$T/roof.png" |
    python3 -c 'import json,sys; c=json.load(sys.stdin)["chart"]
m = {p["label"] for s in c["series"] if "another algorithm" in s["name"] for p in s["points"]}
need = {"ep_moe_narrow", "ep_fused_moe", "ep_moe_balanced", "cp_ring_attention"}
sys.exit(not need <= m)' || bad "comm-roofline: a bound by another algorithm is not marked"
# Every problem of the suite is drawn or accounted for under the title:
# the problems `commroof suite` evaluates, less those with no FLOPs or no
# bytes of the chart's kind (from the suite's own JSON), are the points of
# the prediction series, and the subtitle counts the rest (20 of pkb's 44
# were left out unsaid before)
for kind in roofline comm-roofline; do
    for s in pkb llm; do
        "$CR" suite "$s" --json > "$T/suite-$s.json" || bad "suite $s --json failed"
        "$CR" plot "$kind" --suite "$s" --no-render --json -o "$T/left.png" > "$T/left.json" ||
            bad "plot $kind --suite $s failed"
        python3 - "$T/suite-$s.json" "$T/left.json" "$kind" <<'PY' || bad "plot $kind --suite $s: problems drawn + left out != the suite's"
import json, re, sys
suite = json.load(open(sys.argv[1]))
chart = json.load(open(sys.argv[2]))["chart"]
comm = sys.argv[3] == "comm-roofline"
total = suite["problems"]
drawable = [r for r in suite["rows"]
            if r["flops"] > 0 and r["comm_bytes" if comm else "hbm_bytes"] > 0]
pred = [s for s in chart["series"] if s["name"].endswith("prediction (best schedule)")]
drawn = len(pred[0]["points"]) if pred else 0
m = re.search(r"not drawn, (\d+) of the suite's (\d+) problems", chart.get("subtitle") or "")
left = int(m.group(1)) if m else 0
ok = drawn == len(drawable) and drawn + left == total and (not m or int(m.group(2)) == total)
if not ok:
    print("drawn", drawn, "drawable", len(drawable), "left", left, "total", total, file=sys.stderr)
sys.exit(not ok)
PY
    done
done
plot sweep sweep allreduce --topo hgx-h200-8 -b 1K -e 1G -f 4
# A byte size reads back exactly from --json: 16 GiB is 17179869184, not
# 1.717986918e10 (the ten digits every JSON text is written at rounded
# whole counts past 10 digits; model/json_num.h)
"$CR" plot sweep allreduce -b 8 -e 16G -f 2 --no-render --json -o "$T/exact.png" |
    python3 -c 'import json,sys; c=json.load(sys.stdin)["chart"]
xs = [p["x"] for s in c["series"] for p in s["points"]]
sys.exit(not (2**34 in xs and all(x == int(x) for x in xs)))' ||
    bad "plot sweep --json: a byte size is not exact (16 GiB)"
plot gap gap --topo hgx-h200-8 --suite pkb
# one size (QA audit, defect 5): gnuplot draws no line through one point,
# so the bound is a marker, and the x axis is centred on 1 MiB instead of
# starting a rounded-up decade at it
plot sweep-one sweep allreduce --topo hgx-h200-8 -b 1M -e 1M
python3 - "$T/sweep-one.gp" <<'PY' || bad "a one-size sweep draws no bound or sits on the edge"
import math, re, sys
gp = open(sys.argv[1]).read()
assert re.search(r'index 0 using 1:2 with linespoints [^\n]*title "bound', gp), gp
lo, hi = map(float, re.search(r"set xrange \[([^:]+):([^\]]+)\]", gp).groups())
assert abs(math.sqrt(lo * hi) / 1048576 - 1) < 1e-5, (lo, hi)
PY
plot compare compare --suite pkb --topo hgx-h100-8,hgx-h200-8
plot compare-headroom compare --suite pkb --metric headroom
# every number of the comparison is commroof suite's for the same suite and
# machine (bound_us, headroom), in the machines' order; a problem a
# machine cannot run is NaN, and a note of the data file, the JSON and the
# report's table says why, with suite's own reason (QA audit of machine
# comparison: the chart said only "commroof suite --topo says why")
SK=tests/fixtures/plots/compare-skips.xml
CMPT=dgx-a100-8,hgx-h100-8,h200-1
plot compare-skips compare --suite "$SK" --topo $CMPT
plot compare-skips-head compare --suite "$SK" --topo $CMPT --metric headroom
plot compare-pkb compare --suite pkb --topo hgx-h200-8,mi300x-8,h200-1,tpu-v5p-64 --metric headroom
"$CR" plot compare --suite "$SK" --topo $CMPT --no-render --json -o "$T/compare-skips-json.png" \
    > "$T/compare-skips.json" || bad "plot compare --json failed"
"$CR" report --no-render --suite "$SK" --compare $CMPT -o "$T/report-skips" > /dev/null ||
    bad "report --compare $CMPT failed"
python3 - "$CR" "$T" "$SK" <<'PY' || bad "the comparison's numbers or its skips differ from commroof suite's"
import json, math, shlex, subprocess, sys
cr, t, sk = sys.argv[1:4]
def suite(s, topo):
    out = subprocess.run([cr, "suite", s, "--topo", topo, "--json"], capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)
def check(dat, s, topos, key):
    head, rows = [], []
    for line in open(dat):
        if line.startswith("#"):
            head.append(line[1:].strip())
        elif line.strip():
            rows.append(shlex.split(line))
    cols = [h.split(None, 1)[1] for h in head if h.split(None, 1)[0].isdigit()
            and int(h.split(None, 1)[0]) >= 2]
    assert cols == topos, (dat, cols, topos)
    for ti, topo in enumerate(topos):
        js = suite(s, topo)
        assert len(rows) == js["problems"], (dat, topo)
        got = {r[0]: float(r[1 + ti]) for r in rows}
        ok = {r["name"]: r[key] for r in js["rows"]}
        why = {r["name"]: r["error"] for r in js["skipped"]}
        assert set(ok) | set(why) == set(got), (dat, topo)
        for name, v in got.items():
            if name in ok:
                assert math.isclose(v, ok[name], rel_tol=1e-9), (dat, topo, name, v, ok[name])
            else:
                assert math.isnan(v), (dat, topo, name, v)
                note = "no bar: %s on %s: %s" % (name, topo, why[name])
                assert note in head, (dat, note)
    return head
topos = "dgx-a100-8,hgx-h100-8,h200-1".split(",")
head = check(t + "/compare-skips.dat", sk, topos, "bound_us")
check(t + "/compare-skips-head.dat", sk, topos, "headroom")
check(t + "/compare-pkb.dat", "pkb", "hgx-h200-8,mi300x-8,h200-1,tpu-v5p-64".split(","), "headroom")
# exactly the two cells no machine can fill: fp8 on the A100, 8 ranks on one GPU
notes = [h for h in head if h.startswith("no bar: ")]
assert len(notes) == 2, notes
assert notes[0].startswith("no bar: gemm_fp8 on dgx-a100-8: ") and "no fp8 peak" in notes[0], notes
assert notes[1].startswith("no bar: allreduce_8 on h200-1: ") and "needs 8 GPUs" in notes[1], notes
j = json.load(open(t + "/compare-skips.json"))["chart"]
assert j["notes"] == notes, j.get("notes")
page = open(t + "/report-skips/index.html").read()
for n in notes:
    assert n in page, n
PY
# measured points: a synthetic nccl-tests log (tests/fixtures/plots, not a
# measurement) and, where they are committed, the H200 traces
LOG=tests/fixtures/plots/all_reduce_perf_8gpu.log
plot sweep-measured sweep allreduce --topo hgx-h200-8 --nccl-tests "$LOG"
grep -q "measured: all_reduce_perf_8gpu.log" "$T/sweep-measured.gp" ||
    bad "sweep with --nccl-tests has no measured series"
# a log measured past the default -e 8G (QA audit, defect 10): the model
# goes on to its 16 GiB row, and the highest value (the bound's 963 GB/s
# at 16 GiB) stays 15% under the frame, which ran through it at 1000; an
# -e given is kept
B200=validate/corpus/b200-8/aicr-b0027-alltoall_perf.log
plot sweep-past sweep alltoall --topo hgx-b200-8 --nccl-tests "$B200"
"$CR" plot sweep alltoall --topo hgx-b200-8 --nccl-tests "$B200" -e 8G --no-render \
    -o "$T/sweep-asked.png" > /dev/null || bad "plot sweep -e 8G with a 16 GiB log failed"
python3 - "$T/sweep-past" "$T/sweep-asked" <<'PY' || bad "sweep past -e or into the frame"
import re, sys
def blocks(stem):
    out = {}
    for blk in open(stem + ".dat").read().split("# index ")[1:]:
        name = blk.split("\n", 1)[0].split(": ", 1)[1]
        out[name] = [tuple(map(float, l.split()[:2])) for l in blk.split("\n")[1:]
                     if l and l[0].isdigit()]
    return out
past, asked = blocks(sys.argv[1]), blocks(sys.argv[2])
bound = past["bound (no implementation is faster)"]
meas = max(x for x, _ in past["measured: aicr-b0027-alltoall_perf.log"])
assert meas == 16 * 2**30, meas
assert bound[-1][0] == meas, bound[-1]
assert asked["bound (no implementation is faster)"][-1][0] == 8 * 2**30
top = max(y for s in past.values() for _, y in s)
gp = open(sys.argv[1] + ".gp").read()
hi = float(re.search(r"set yrange \[[^:]+:([^\]]+)\]", gp).group(1))
assert hi >= top * 1.15, (top, hi)
PY
plot accuracy-log accuracy --topo hgx-h200-8 --nccl-tests "$LOG"
plot accuracy-ratio accuracy --ratio --topo hgx-h200-8 --nccl-tests "$LOG"
grep -q "predicted / measured" "$T/accuracy-ratio.gp" || bad "accuracy --ratio is not the ratio chart"
n=$(grep -c -E '^[0-9.e+-]+ [0-9.e+-]+ "allreduce' "$T/accuracy-log.dat")
[ "$n" = 11 ] || bad "accuracy: $n allreduce cases in the data file, the log has 11 sizes"
for tr in traces/h200-1/*.json; do
    [ -f "$tr" ] && { plot accuracy accuracy --topo h200-1 traces/h200-1; break; }
done
for tr in traces/h200-1/*.json; do
    [ -f "$tr" ] && { plot roofline-measured roofline --topo h200-1 --trace traces/h200-1; break; }
done

# harness results in `commroof check --measured-json` form: measured bars;
# % of roofline = bound / measured x 100 must match the baseline bar's bound
printf '[{"name": "allreduce", "measured_us": 1000}]\n' > "$T/results.json"
plot gap-measured gap --suite pkb --measured-json "$T/results.json"
python3 - "$T/gap-measured.dat" <<'PY' || bad "gap --measured-json: no measured bar for allreduce"
import sys
for line in open(sys.argv[1]):
    if line.startswith('"allreduce"'):
        v = line.split()
        assert len(v) == 4 and v[3] != "NaN" and 0 < float(v[3]) < 100, v
        sys.exit(0)
sys.exit(1)
PY
printf '[{"name": "no_such_problem", "measured_us": 5}]\n' > "$T/bad.json"
"$CR" plot gap --measured-json "$T/bad.json" -o "$T/x.png" > "$T/err.txt" 2>&1
[ $? = 1 ] && grep -q '"no_such_problem") is neither a problem of suite pkb' "$T/err.txt" ||
    bad "a result for an unknown problem: $(cat "$T/err.txt")"

# real measured bars: the fused operators measured on two H200s
# (traces/nvidia-h200-x2), matched to suite h200x2 by operator and
# parameters, one series per variant run. From the harness results and,
# separately, from the trace: the same committed times. Expected % of
# roofline = bound / measured x 100 with the bound from `commroof op` and
# the measured times of fused-measured.json (ag_gemm 8192^3: baseline
# 913.995 us, 4-chunk overlap 1026.343 us); the bound itself is at least
# the compute time, 2 x 8192^3 / 2 FLOP per GPU at the H200's dense bf16
# 989.5 TFLOP/s = 555.59 us, so the baseline bar is at least 555.59 / 913.995 = 60.787%.
X2=traces/nvidia-h200-x2
bound=$("$CR" op ag_gemm --topo hgx-h200-8 --m 8192 --n 8192 --k 8192 --tp 2 --dtype bf16 --json |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("result", d)["bound_us"])')
for src in "--measured-json $X2/fused-measured.json" "--trace $X2/fused.json.gz"; do
    # shellcheck disable=SC2086
    plot gap-x2 gap --topo hgx-h200-8 --suite h200x2 $src
    python3 - "$T/gap-x2.dat" "$bound" <<'PY' || bad "gap $src: wrong measured bars"
import sys
rows = {}
for line in open(sys.argv[1]):
    if line.startswith('"'):
        v = line.split()
        rows[v[0].strip('"')] = [float(x) for x in v[1:]]
head = open(sys.argv[1]).read()
assert "#   4 measured: baseline" in head and "#   5 measured: overlap, 4 chunks" in head, head
assert "measured: " in head.splitlines()[1], head.splitlines()[1]
bound = float(sys.argv[2])
assert bound >= 2 * 8192**3 / 2 / 989.5e12 * 1e6 * (1 - 1e-9), bound
b, o = rows["ag_gemm_8192"][2], rows["ag_gemm_8192"][3]
assert abs(b - bound / 913.995 * 100) < 1e-3 * b, (b, bound)
assert abs(o - bound / 1026.343 * 100) < 1e-3 * o, (o, bound)
assert b >= 2 * 8192**3 / 2 / 989.5e12 * 1e6 / 913.995 * 100 * (1 - 1e-9), b
assert len(rows) == 9 and all(len(r) == 4 and r[2] == r[2] and r[3] == r[3] for r in rows.values()), rows
PY
done
grep -q "18 trace cases of $X2/fused.json.gz" "$T/gap-x2.gp" ||
    bad "the trace's gap chart does not say where its measured bars come from"

# the script re-renders on its own, in its folder (the last render was the SVG)
(cd "$T" && rm -f roofline.svg && gnuplot roofline.gp 2> gp.err) || bad "gnuplot roofline.gp failed"
# a chart named with a leading '$' re-renders (gnuplot read '$x.dat' as a
# datablock: "no datablock named $x.dat")
"$CR" plot roofline -o "$T/\$x.svg" > /dev/null || bad "plot roofline -o \$x.svg failed"
(cd "$T" && rm -f "\$x.svg" && gnuplot "\$x.gp" 2> gp.err && [ -s "\$x.svg" ]) ||
    bad "gnuplot \$x.gp (a name with a leading \$) failed to re-render: $(cat "$T/gp.err")"
is_svg "$T/roofline.svg" || bad "re-rendered roofline.svg is not a valid SVG"
(cd "$T" && gnuplot -e "outfile='again.png'" roofline.gp 2> gp.err) || bad "gnuplot -e outfile failed"
is_png "$T/again.png" || bad "re-rendered again.png is not a valid PNG"
# the re-render commands the script's comment and plot's output show paste
# into a shell as they are, whatever the name holds (QA audit of the
# report: "r`touch X` $(touch Y) #.gp" ran both touches, the # cut the rest)
mkdir "$T/hint" || bad "mkdir $T/hint"
H='h`touch PWN1` $(touch PWN2) #@x'
"$CR" plot roofline -o "$T/hint/$H.png" > "$T/hint.out" || bad "plot roofline -o '$H.png' failed"
c1=$(sed -n 's/.*(re-render: \(.*\), in its folder)$/\1/p' "$T/hint.out")
c2=$(sed -n 's/^# format: \(gnuplot -e .*\))\. Data: .*/\1/p' "$T/hint/$H.gp")
c3=$(sed -n 's/^# Re-render in this folder: \(.*\)   (writes .*/\1/p' "$T/hint/$H.gp")
(cd "$T/hint" && rm -f "$H.png" && eval "$c1" 2> gp.err && [ -s "$H.png" ] && eval "$c2" &&
    [ -s "$H.svg" ] && rm "$H.png" && eval "$c3" && [ -s "$H.png" ]) ||
    bad "the re-render commands shown for '$H' do not re-render it: [$c1] [$c2] [$c3]"
{ [ -e "$T/hint/PWN1" ] || [ -e "$T/hint/PWN2" ]; } &&
    bad "pasting the re-render commands for '$H' ran a command"

# --json: one document with the chart's numbers
"$CR" plot roofline --json -o "$T/j.png" > "$T/j.json" || bad "plot --json failed"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["chart"]["series"]' \
    "$T/j.json" 2>/dev/null || bad "plot --json is not a JSON document with series"

# no temporary files left behind
ls -a "$T" | grep -q '\.tmp' && bad "temporary files left in $T: $(ls -a "$T" | grep '\.tmp')"

# gnuplot failures: exit 1 and a message that says what failed
COMMROOF_GNUPLOT=false "$CR" plot roofline -o "$T/f.png" > "$T/err.txt" 2>&1
rc=$?
[ $rc = 1 ] || bad "a failing gnuplot gave exit $rc, expected 1"
grep -q "gnuplot (false) failed with status 1" "$T/err.txt" || bad "unclear error: $(cat "$T/err.txt")"
[ -e "$T/f.png" ] && bad "a failed render left $T/f.png"
COMMROOF_GNUPLOT=/nonexistent/gnuplot "$CR" plot roofline -o "$T/f.png" > "$T/err.txt" 2>&1
rc=$?
[ $rc = 1 ] || bad "a missing gnuplot gave exit $rc, expected 1"
grep -q "install gnuplot" "$T/err.txt" || bad "missing gnuplot: unclear error: $(cat "$T/err.txt")"
grep -q "\-\-no-render" "$T/err.txt" || bad "missing gnuplot: no hint at --no-render"
# a failed render writes nothing: neither the image nor the data file and
# script (--no-render is the way to get those without gnuplot)
for f in f.png f.dat f.gp; do [ -e "$T/$f" ] && bad "a failed render left $T/$f"; done
"$CR" plot roofline --no-render -o "$T/nr.png" > /dev/null 2>&1 || bad "plot --no-render failed"
[ -s "$T/nr.dat" ] && [ -s "$T/nr.gp" ] && [ ! -e "$T/nr.png" ] ||
    bad "--no-render: expected nr.dat and nr.gp and no image"
# a folder that does not exist is refused with the arguments (exit 2),
# before the chart is built (cli/opts.c output_place_ok)
"$CR" plot roofline -o /nonexistent-dir/x.png > "$T/err.txt" 2>&1
[ $? = 2 ] && grep -q "the folder /nonexistent-dir does not exist" "$T/err.txt" ||
    bad "an unwritable folder: $(cat "$T/err.txt")"

# usage errors: exit 2 with a hint
usage() {
    "$CR" plot "$@" > "$T/err.txt" 2>&1
    rc=$?
    [ $rc = 2 ] || bad "plot $* gave exit $rc, expected 2"
    grep -q "Try 'commroof plot --help'" "$T/err.txt" || bad "plot $*: no hint: $(cat "$T/err.txt")"
}
usage roofline -o "$T/x.jpg"
usage roofline -o "$T/.png"
usage roofline
usage piechart -o "$T/x.png"
usage sweep -o "$T/x.png"
usage sweep allreduce -b 1X -o "$T/x.png"
usage roofline --bogus -o "$T/x.png"
usage compare --metric speed -o "$T/x.png"
usage roofline --ratio -o "$T/x.png"
usage accuracy -o "$T/x.png"
"$CR" plot sweep allreduce --topo h200-1 -o "$T/x.png" > "$T/err.txt" 2>&1
# a usage error (exit 2), as sim's for one rank
[ $? = 2 ] && grep -q "moves nothing between GPUs" "$T/err.txt" ||
    bad "an allreduce sweep on one GPU: $(cat "$T/err.txt")"
"$CR" plot roofline --topo no-such-topo -o "$T/x.png" > /dev/null 2>&1
[ $? = 1 ] || bad "an unknown topology should exit 1"
"$CR" plot --help | grep -q "comm-roofline" || bad "plot --help does not list the kinds"

# the report's sweep is bf16 (QA audit, defect 11): the fixture log's fp32
# rows are drawn with a subtitle saying so, and the caption promises
# measured points only where the chart has some (--ranks 0,1: the log is
# of 8 ranks, so none)
"$CR" report --topo hgx-h200-8 --suite pkb --nccl-tests "$LOG" --no-render -o "$T/rep-dt" \
    > /dev/null 2>&1 || bad "report with an nccl-tests log failed"
grep -q 'measured rows in fp32; the model\\047s lines in bf16' "$T/rep-dt/sweep-allreduce.gp" ||
    bad "report sweep: fp32 rows beside the bf16 model without a word"
grep -q 'each transfer mechanism, and measured points' "$T/rep-dt/index.html" ||
    bad "report sweep: the caption does not name the measured points"
# --no-render says, chart by chart, that the image was not drawn and how
# to draw it (the page showed only data and script links; QA, session 41)
grep -q 'image not drawn (--no-render): <code>gnuplot roofline.gp</code>' "$T/rep-dt/index.html" ||
    bad "report --no-render: index.html does not say the images were not drawn"
"$CR" report --topo hgx-h200-8 --suite pkb --ranks 0,1 --nccl-tests "$LOG" --no-render \
    -o "$T/rep-none" > /dev/null 2>&1 || bad "report --ranks 0,1 with an 8-rank log failed"
grep -q 'measured points' "$T/rep-none/index.html" &&
    bad "report sweep: the caption promises measured points the chart does not have"
grep -q 'No measured point: no trace or nccl-tests log holds an all-reduce on as many ranks' \
    "$T/rep-none/index.html" || bad "report sweep: no word on the missing measured points"
# the ceilings table among the same ranks as the communication roofline: on
# two GPUs of hgx-h200-8 the in-switch reduction's allreduce busbw is 513
# GB/s, not the eight GPUs' 897.75 (it said so beside a 2-GPU chart)
grep -q '^ *in_switch_reduction_busbw *513 GB/s' "$T/rep-none/ceilings.txt" ||
    bad "report --ranks 0,1: ceilings table's in-switch ceiling is not the 2 GPUs' 513 GB/s"
grep -q '^ *in_switch_reduction_busbw *897.75 GB/s' "$T/rep-dt/ceilings.txt" ||
    bad "report without --ranks: ceilings table's in-switch ceiling is not the 8 GPUs' 897.75 GB/s"
# integer math in operations: the H200's int8 peak is 1979 TOP/s (it was
# labelled TFLOP/s; QA audit of machine comparison, session 51)
grep -q '^ *int8_peak *1979 TOP/s' "$T/rep-dt/ceilings.txt" ||
    bad "report: the ceilings table's int8 peak is not 1979 TOP/s"
grep -q '^ *bf16_peak *989.5 TFLOP/s' "$T/rep-dt/ceilings.txt" ||
    bad "report: the ceilings table's bf16 peak is not 989.5 TFLOP/s"

# the report: every file index.html references exists
R="$T/report"
if "$CR" report --topo hgx-h200-8 --suite pkb -o "$R" > "$T/rep.txt" 2>&1; then
    [ -s "$R/index.html" ] || bad "report wrote no index.html"
    refs=$(grep -o -E '(src|href)="[^"#][^"]*"' "$R/index.html" | sed -E 's/^(src|href)="//; s/"$//' | sort -u)
    [ -n "$refs" ] || bad "index.html references nothing"
    for f in $refs; do
        case "$f" in
        http:* | https:* | /*) bad "index.html references outside the report: $f" ;;
        *) [ -s "$R/$f" ] || bad "index.html references $f, which does not exist" ;;
        esac
    done
    for img in "$R"/*.png; do is_png "$img" || bad "$img is not a valid PNG"; done
    for svg in "$R"/*.svg; do is_svg "$svg" || bad "$svg is not a valid SVG"; done
    for f in ceilings.txt ceilings.csv ceilings.json roofline.png comm-roofline.png; do
        [ -s "$R/$f" ] || bad "report lacks $f"
    done
    grep -q "open $R/index.html" "$T/rep.txt" || bad "report did not say where index.html is"
    # every element that opens closes, in order
    python3 - "$R/index.html" <<'PY' || bad "index.html is not well-formed"
import sys
from html.parser import HTMLParser
VOID = {"meta", "br", "img", "hr", "link", "input"}
class Check(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.bad = [], []
    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()
        else:
            self.bad.append((tag, self.getpos()))
c = Check()
c.feed(open(sys.argv[1]).read())
sys.exit(1 if c.stack or c.bad else 0)
PY
else
    bad "report failed: $(head -5 "$T/rep.txt")"
fi
"$CR" report -o "$T/rep2" --json --nccl-tests "$LOG" > "$T/rep.json" || bad "report --json failed"
for f in validation.csv accuracy.png accuracy.svg accuracy-error.png sweep-allreduce.png; do
    [ -s "$T/rep2/$f" ] || bad "report with --nccl-tests lacks $f"
done
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "index.html" in d["files"]' \
    "$T/rep.json" 2>/dev/null || bad "report --json does not list index.html"
# the two-GPU report: measured gap bars, a 2-rank sweep with the measured
# NCCL all-reduce, every reference resolving
R2="$T/rep-x2"
"$CR" report --topo hgx-h200-8 --suite h200x2 --ranks 0,1 \
    --measured-json "$X2/fused-measured.json" --trace "$X2/fused.json.gz" \
    --trace "$X2/kernels-nccl.json.gz" -o "$R2" > "$T/rep-x2.txt" 2>&1 ||
    bad "the two-GPU report failed: $(head -5 "$T/rep-x2.txt")"
grep -q "measured: overlap, 4 chunks" "$R2/gap.dat" || bad "the two-GPU report's gap chart has no measured bars"
n=$(grep -c '^ag_gemm\|^gemm_' "$R2/measured.csv")
[ "$n" = 18 ] || bad "the two-GPU report's measured table has $n rows, the harness results 18"
grep -q '^ag_gemm_8192,baseline,913.995,' "$R2/measured.csv" ||
    bad "measured.csv does not carry the harness's 913.995 us for ag_gemm 8192^3"
grep -q "measured: kernels-nccl.json.gz" "$R2/sweep-allreduce.gp" ||
    bad "the two-GPU report's sweep has no measured points"
grep -q "(2 ranks" "$R2/sweep-allreduce.gp" || bad "the two-GPU report's sweep is not over 2 ranks"
for f in $(grep -o -E '(src|href)="[^"#][^"]*"' "$R2/index.html" | sed -E 's/^(src|href)="//; s/"$//' | sort -u); do
    [ -s "$R2/$f" ] || bad "rep-x2/index.html references $f, which does not exist"
done
# the program roofline (report --trace): the committed PyTorch block traced
# on the H200 (traces/h200-1/roofline-demo). The part's table is the one
# `commroof roofline --json` gives (same rows, same numbers, same totals:
# one library call), its gap chart has one bar per operator with a bound up
# to 12 (the rest summed), ordered by the time each could save, and
# renders; no time below its bound: exit 0 and no warning.
RT="$T/rep-torch"
TORCH=traces/h200-1/roofline-demo/torch_roofline.json.gz
"$CR" roofline "$TORCH" --topo h200-1 --dtype bf16 --json > "$T/rf.json" ||
    bad "roofline on $TORCH exited $?"
"$CR" report --topo h200-1 --trace "$TORCH" --dtype bf16 -o "$RT" > "$T/rep-torch.txt" 2>&1 ||
    bad "report --trace $TORCH exited $?: $(tail -3 "$T/rep-torch.txt")"
grep -q '<section id="program-roofline"><h2>Program roofline</h2>' "$RT/index.html" ||
    bad "report --trace has no Program roofline part"
grep -q 'class="warning"' "$RT/index.html" && bad "report --trace warns with no time below its bound"
# a program's trace holds no crbench case: the validation part says so
# instead of an empty table
grep -q 'skipped Validation of measured traces: 0 measured cases: the 1 trace file holds no cr: range' \
    "$T/rep-torch.txt" || bad "report --trace of a program's trace does not skip the empty validation part"
[ -e "$RT/validation.txt" ] && bad "report --trace wrote an empty validation table"
is_png "$RT/program-gap.png" || bad "$RT/program-gap.png is not a valid PNG"
grep -q '<img src="program-gap.png"' "$RT/index.html" || bad "index.html does not show program-gap.png"
python3 - "$T/rf.json" "$RT/program-roofline.json" "$RT/program-gap.dat" <<'PY' || bad "the report's program roofline differs from commroof roofline --json"
import json, sys
rf = json.load(open(sys.argv[1]))
tb = json.load(open(sys.argv[2]))
rows = tb["rows"]
assert len(rows) == len(rf["rows"]), (len(rows), len(rf["rows"]))
nb = sum(r["bound_us"] is not None for r in rf["rows"])
assert nb >= 19 and sum(r["bound_us"] is not None for r in rows) == nb, nb
def close(a, b):
    return (a is None and b is None) or abs(a - b) <= 1e-5 * max(abs(a), abs(b), 1e-3)
for a, b in zip(rf["rows"], rows):
    for k in ("kind", "op", "args", "binding", "verdict"):
        assert (a[k] or "") == (b[k] or ""), (k, a[k], b[k])
    for k in ("calls", "measured_us", "min_us", "total_us", "bound_us", "bound_cold_us",
              "pct_of_roofline", "save_us"):
        assert close(a[k], b[k]), (a["op"], k, a[k], b[k])
    # a count is an integer in both (the table wrote 40.0)
    assert isinstance(b["calls"], int), b["calls"]
# the totals line, as roofline prints it (its JSON has 6 digits)
import re
# each time in the unit that reads best, to 3 decimals
t = r"([0-9.]+) (s|ms|us)"
pat = r"device time %s; covered by a bound %s \(([0-9.]+)%%\); the program could save at best %s" % (t, t, t)
m = [re.fullmatch(pat, n) for n in tb["notes"]]
m = [x for x in m if x]
assert len(m) == 1, tb["notes"]
g = m[0].groups()
scale = {"s": 1e6, "ms": 1e3, "us": 1.0}
got = [float(g[0]) * scale[g[1]], float(g[2]) * scale[g[3]], float(g[4]), float(g[5]) * scale[g[6]]]
want = [rf["total_us"], rf["covered_us"], 100 * rf["covered_us"] / rf["total_us"], rf["save_us"]]
units = [g[1], g[3], None, g[6]]
for i, (x, w, u) in enumerate(zip(got, want, units)):
    # 3 decimals of the unit shown, and that unit the largest of s, ms, us under the value
    tol = 0.05 if u is None else 0.0005 * scale[u] + 1e-6 * w
    assert abs(x - w) <= tol, (i, got, want)
    assert u is None or u == ("s" if w >= 1e6 else "ms" if w >= 1e3 else "us"), (i, u, w)
# the gap chart: 12 operators, most to save first, then the rest summed;
# each bar bound / median x 100, as pct_of_roofline
bars = [l for l in open(sys.argv[3]) if l.startswith('"')]
bounded = sorted([r for r in rf["rows"] if r["bound_us"] is not None], key=lambda r: -r["save_us"])
assert len(bars) == 13 and bars[-1].startswith('"the other %d operators' % (nb - 12)), bars
for l, r in zip(bars[:12], bounded):
    assert abs(float(l.rsplit(None, 2)[1]) - r["pct_of_roofline"]) < 1e-3 * r["pct_of_roofline"], (l, r)
rest = [r for r in bounded[12:]]
want = 100 * sum(r["calls"] * r["bound_us"] for r in rest) / sum(r["total_us"] for r in rest)
assert abs(float(bars[-1].rsplit(None, 2)[1]) - want) < 1e-3 * want, (bars[-1], want)
PY
# a time below its bound (tests/fixtures/roofline/impossible_mm.json: an
# 8192^3 bf16 mm in 100 us, 1.11 ms at the H200's 989.5 TFLOP/s): the report
# is still written, says so at the top and in the part, and exits 3 as
# commroof roofline does
"$CR" report --topo h200-1 --trace tests/fixtures/roofline/impossible_mm.json --dtype bf16 \
    -o "$T/rep-imp" > "$T/rep-imp.txt" 2>&1
rc=$?
[ $rc = 3 ] || bad "report --trace with a time below its bound exited $rc, expected 3"
[ -s "$T/rep-imp/index.html" ] || bad "report with a time below its bound wrote no index.html"
n=$(grep -c 'class="warning".*FAILED: 1 .*below its bound' "$T/rep-imp/index.html")
[ "$n" = 2 ] || bad "index.html should warn at the top and in the part ($n warnings)"
grep -q ',impossible,' "$T/rep-imp/program-roofline.csv" || bad "program-roofline.csv has no impossible row"
grep -q "below their bound" "$T/rep-imp.txt" || bad "report exit 3 without a message"
"$CR" report --trace "$TORCH" --dtype bf17 -o "$T/rep4" > "$T/err.txt" 2>&1
[ $? = 2 ] || bad "report --dtype bf17 should exit 2: $(cat "$T/err.txt")"

"$CR" report --ranks 0,9 -o "$T/rep3" > "$T/err.txt" 2>&1
[ $? = 2 ] || bad "report --ranks past the GPUs should exit 2: $(cat "$T/err.txt")"
"$CR" report > /dev/null 2>&1
[ $? = 2 ] || bad "report without -o should exit 2"
mkdir -p "$T/ro" && chmod 555 "$T/ro"
if [ "$(id -u)" != 0 ]; then
    "$CR" report -o "$T/ro/sub" > /dev/null 2>&1
    [ $? = 1 ] || bad "report into an unwritable folder should exit 1"
fi

# Hostile names (issue 13): gnuplot runs `...` inside double-quoted strings.
# A topology, suite, measured variant, log file or output name holding one
# must reach the script as text: each chart renders, its script carries the
# name, and the command never runs (it creates $H/PWNED where it would).
H="$T/hostile"
mkdir -p "$H/\`touch PWNED\`"
cmd="\`touch $H/PWNED\`"
sed "s|<topology name=\"h200-1\"|<topology name=\"$cmd\"|" topologies/h200-1.xml > "$H/t.xml"
sed "s|<suite name=\"pkb\"|<suite name=\"$cmd\"|" suites/pkb.xml > "$H/s.xml"
printf '[{"name": "allreduce", "measured_us": 1000, "variant": "%s"}]\n' "$cmd" > "$H/m.json"
hlog="$H/\`touch PWNED\`_all_reduce_perf.log"
cp "$LOG" "$hlog"
hostile() {
    what=$1 gp=$2
    shift 2
    "$CR" "$@" > "$T/out.txt" 2>&1 || bad "$what: exit $?: $(head -3 "$T/out.txt")"
    [ -z "$gp" ] || grep -q -F "touch " "$gp" || bad "$what: the name did not reach $gp"
    for f in "$H/PWNED" "$H/\`touch PWNED\`/PWNED"; do
        [ -e "$f" ] && bad "$what: gnuplot ran the command in a name ($f exists)"
        rm -f "$f"
    done
}
hostile "topology name" "$H/r.gp" plot roofline --topo "$H/t.xml" -o "$H/r.png"
hostile "suite name" "$H/g.gp" plot gap --suite "$H/s.xml" -o "$H/g.png"
hostile "measured variant" "$H/m.gp" plot gap --measured-json "$H/m.json" -o "$H/m.png"
hostile "nccl-tests log name" "$H/l.gp" plot sweep allreduce --nccl-tests "$hlog" -o "$H/l.png"
hostile "output name" "$H/\`touch PWNED\`.gp" plot roofline -o "$H/\`touch PWNED\`.png"
hostile "output folder" "" plot roofline -o "$H/\`touch PWNED\`/c.png"
hostile "report" "$H/rep/gap.gp" report --topo "$H/t.xml" --suite "$H/s.xml" \
    --measured-json "$H/m.json" -o "$H/rep"
hostile "one-GPU report" "$H/rep1/roofline.gp" report --topo "$H/t.xml" -o "$H/rep1"

# An image target refused (a directory, a full device) changes nothing: the
# data and script wait until the image is in place (QA audit, session 40:
# NAME.dat and NAME.gp were written before the image failed)
mkdir "$T/refused.png"
echo old > "$T/refused.dat"
if "$CR" plot roofline -o "$T/refused.png" > /dev/null 2>&1; then
    bad "plot into a directory named refused.png succeeded"
fi
[ "$(cat "$T/refused.dat")" = old ] || bad "a refused image replaced refused.dat"
[ -e "$T/refused.gp" ] && bad "a refused image wrote refused.gp"
ls -a "$T" | grep -q '\.tmp' && bad "a refused image left temporary files"
if [ -w /dev/full ] && ln -s /dev/full "$T/full.png" 2>/dev/null; then
    "$CR" plot roofline -o "$T/full.png" > /dev/null 2>&1 && bad "plot into /dev/full succeeded"
    [ -e "$T/full.dat" ] && bad "an image refused by /dev/full wrote full.dat"
fi

if [ $fail = 0 ]; then echo "check_plots: OK"; else echo "check_plots: FAILED"; fi
exit $fail
