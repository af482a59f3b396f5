# A crbench case's row (cr: range) holds each of its iterations to the
# bound by itself, as every other row's calls are: the fastest call and the
# total are the iterations' own (QA audit, session 41: min_us was the
# median and total median x calls, so an iteration below the bound passed
# with exit 0). Here one of the five kernels of the 8 GiB triad is cut to
# 100 us: the row is impossible, exit 3, the median unchanged near the roof.
T=$(mktemp -d /tmp/cr-golden-crcall.XXXXXX)
python3 - "$T/f.json" <<'PY'
import json, sys
t = json.load(open("traces/h200-1/kernels-hbm.json"))
r = [e for e in t["traceEvents"] if e.get("cat") == "nvtx" and "op=triad bytes=8589934592" in e["name"]][0]
k = [e for e in t["traceEvents"] if e.get("cat") == "kernel" and r["ts"] <= e["ts"] < r["ts"] + r["dur"]]
k[0]["dur"] = 100.0
json.dump(t, open(sys.argv[1], "w"))
PY
for f in traces/h200-1/kernels-hbm.json "$T/f.json"; do
    $CR roofline "$f" --topo h200-1 --json > "$T/out"
    echo "rc=$?"
    python3 -c 'import json, sys
r = [r for r in json.load(open(sys.argv[1]))["rows"] if "triad 8GiB" in r["args"]][0]
print(r["calls"], r["measured_us"], r["min_us"], r["total_us"], r["verdict"], r["note"])' "$T/out"
done
rm -rf "$T"
