# suite --json gives each problem's parameters, ParallelKernelBench ids
# and note, so that a harness checks its kernels against the suite's
# problems without parsing the suite file: every evaluated problem of pkb,
# read back through check --measured-json with its params, has the
# suite's bound (QA audit, session 41: the rows carried no parameters)
$CR suite pkb --json > /tmp/cr-golden-suite.json
python3 - /tmp/cr-golden-suite.json <<'PY'
import json, os, subprocess, sys
suite = json.load(open(sys.argv[1]))
items = [{"name": r["name"], "op": r["op"], "params": r["params"],
          "measured_us": 2 * r["bound_us"]} for r in suite["rows"]]
json.dump(items, open(sys.argv[1], "w"))
out = subprocess.run([os.environ["CR"], "check", "--measured-json", sys.argv[1]],
                     capture_output=True, text=True)
res = json.loads(out.stdout)["results"]
same = sum(abs(a["bound_us"] - r["bound_us"]) <= 1e-9 * r["bound_us"]
           for a, r in zip(res, suite["rows"]))
print("rows", len(suite["rows"]), "same bound", same, "exit", out.returncode)
print("with pkb ids", sum(1 for r in suite["rows"] if r["pkb"]), "with a note",
      sum(1 for r in suite["rows"] if r["note"]))
PY
rm -f /tmp/cr-golden-suite.json
