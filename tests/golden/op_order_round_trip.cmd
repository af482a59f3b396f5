# A problem's params read back are the same problem: op --json's params
# name the rank layout ("order"), which moves the bound (a ddp laid out
# dp,tp on 4 nodes); check --measured-json of them gives op's bound.
# Without it the round trip judged the tp,dp layout: bound 2130 us, an
# impossible verdict for a 500 us time (QA audit, session 41).
$CR op ddp --topo h100-ib-4n --tp 8 --dp 4 --order dp,tp --json > /tmp/cr-golden-order.json
python3 - /tmp/cr-golden-order.json <<'PY'
import json, subprocess, sys
op = json.load(open(sys.argv[1]))
item = [{"op": "ddp", "topo": "h100-ib-4n", "params": op["params"], "measured_us": 500}]
json.dump(item, open(sys.argv[1], "w"))
out = subprocess.run([__import__("os").environ["CR"], "check", "--measured-json", sys.argv[1]],
                     capture_output=True, text=True)
res = json.loads(out.stdout)["results"][0]
print("params.order", op["params"]["order"], "op bound_us", op["bound_us"])
print("check bound_us", res["bound_us"], res["verdict"], "exit", out.returncode)
PY
rm -f /tmp/cr-golden-order.json
$CR op ddp --order ""
