# A case that declares its data cold (cr:hbm cache=cold) is held to the cold
# bound, and the FAILED line names that bound, not the warm one (QA
# re-verification of issue 15, 2026-12-07: every kernel of the H200's cold
# sweep timed 10x faster gave "first: ... read 1MiB, measured 0.206 us below
# the bound 0.052 us", the warm bound, below the time; the case broke its
# cold bound, 0.218 us). Here the cold 128 MiB read is cut to 20 us a call:
# above its warm bound (14.855 us: the 71303168 B that do not fit the
# 60 MiB L2, at 4.8 TB/s), below its cold one (27.962 us: 134217728 B at
# 4.8 TB/s); the warm case beside it, untouched, passes.
T=$(mktemp -d /tmp/cr-golden-coldviol.XXXXXX)
python3 - "$T/f.json" <<'PY'
import gzip, json, sys
t = json.load(gzip.open("traces/h200-1/cache-2026-12-02/kernels-hbm-cache-run1.json.gz"))
r = [e for e in t["traceEvents"] if e.get("cat") == "nvtx"
     and "op=read bytes=134217728 " in e["name"] and "cache=cold" in e["name"]][0]
for e in t["traceEvents"]:
    if e.get("cat") == "kernel" and r["ts"] <= e["ts"] < r["ts"] + r["dur"]:
        e["dur"] = 20.0
json.dump(t, open(sys.argv[1], "w"))
PY
$CR validate "$T/f.json" --topo h200-1 > "$T/out"
echo "rc=$?"
grep -E '^  hbm +read_128MiB(_warm)? |^# FAILED' "$T/out"
rm -rf "$T"
