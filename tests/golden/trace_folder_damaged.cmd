# In a folder of traces, a file that starts as a trace (its first event
# reads) but is damaged further on fails the reading, naming it; another
# tool's JSON beside the traces is still left out with a note. A trace
# with a negative duration was left out as "not a trace" with exit 0, its
# kernels unchecked (QA audit, session 41).
T=$(mktemp -d /tmp/cr-golden-dmg.XXXXXX)
cp traces/h200-1/kernels-hbm.json "$T/a.json"
printf '{"some": "other tool"}\n' > "$T/events.json"
python3 - "$T/b.json" <<'PY'
import json, sys
t = json.load(open("traces/h200-1/kernels-hbm.json"))
[e for e in t["traceEvents"] if e.get("cat") == "kernel"][5]["dur"] = -800
t["metadata"]["os_pid"] = t["metadata"].get("os_pid", 1) + 1  # another run, not a copy
json.dump(t, open(sys.argv[1], "w"))
PY
for cmd in roofline validate; do
    $CR $cmd "$T" --topo h200-1 > /dev/null 2> "$T/err"
    echo "$cmd exit $?"
    sed "s|$T|T|g" "$T/err"
done
rm "$T/b.json"
$CR roofline "$T" --topo h200-1 2>&1 | grep "not traces" | sed "s|$T|T|g"
rm -rf "$T"
