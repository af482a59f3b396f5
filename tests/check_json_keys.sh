#!/bin/sh
# SPDX-License-Identifier: MIT
# Every key a command's --json writes is documented in doc/json.md (a QA
# audit found t_hbm_cold_us, comm[], the roofline counters and more written
# nowhere). Runs each command's --json on small inputs (shipped topologies,
# tests/fixtures, traces/h200-1), collects every key path it emits (arrays
# as `[]`: `comm[].bytes`) and fails listing those that the command's
# section of doc/json.md does not name.
#
# doc/json.md's contract with this script: a section starts at a heading
# "## `commroof LABEL`" (LABEL as in the list below); a documented key is
# the first cell of a table row, in backticks (| `rows[].bound_us` | ...);
# a segment written <name> stands for any key (a dtype, a family); a line
# "All the keys of `commroof OTHER`" in a section documents OTHER's keys
# there too.
#
# Both ways: a documented key that none of the runs below emits fails too
# (a key renamed or dropped leaves its row behind), unless NOT_REACHED
# names the unit test that reaches it.
set -u
CR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.." || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# LABEL|ARGUMENTS ($TMP: a scratch folder). Several lines of one label
# reach the keys one input alone leaves out (overlap schedules, the error
# entries, a multi-node topology).
# trace's run mode with no tracer to load (as tests/check_trace.sh runs it)
printf '' | ${CC:-cc} -shared -fPIC -x c -o "$tmp/fake.so" - # an empty shared library
cat > "$tmp/cmds" <<'EOF'
topo list|topo list --json
topo show|topo show h200-1 --json
topo show|topo show hgx-h200-8 --json
topo show|topo show h100-ib-4n --json
topo check|topo check topologies/mi300x-8.xml --json
topo check|topo check tests/fixtures/xml/bad-no-unit.xml --json
topo import-nccl|topo import-nccl tests/fixtures/nccl/dgx-a100-2socket.xml -o $TMP/a.xml --json
topo import-nccl|topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml --json
topo gen|topo gen fat-tree --nodes 2 --node hgx-h100-8 -o $TMP/g.xml --json
topo gen|topo gen torus --dims 2x2x2 --json
op list|op list --json
op|op gemm --topo h200-1 --json
op|op ag_gemm --json
op|op memcpy --topo h200-1 --bytes 64MB --json
op|op moe --json
op|op ring_attn --json
op|op ddp --json
op|op rmsnorm --json
suite list|suite list --json
suite|suite pkb --topo hgx-h100-8 --json
suite|suite llm --topo h100-ib-4n --json
check|check gemm --topo h200-1 --m 8192 --n 8192 --k 8192 --measured-us 1000 --json
check|check ag_gemm --measured-us 100 --json
check --measured-json|check --measured-json tests/fixtures/check/bulk_ok.json --topo hgx-h100-8
check --measured-json|check --measured-json tests/fixtures/check/bulk_error.json --topo hgx-h100-8
check --measured-json|check --measured-json tests/fixtures/check/bulk_h200.json --topo h200-1
check --pkb-logs|check --pkb-logs tests/fixtures/pkb/logs --topo hgx-h100-8 --json
check --pkb-logs|check --pkb-logs tests/fixtures/pkb/missing_rank --topo hgx-h100-8 --json
coll|coll allreduce -b 1M -e 4M --json
coll|coll allreduce --topo hgx-h200-8 --mech multimem -b 64M -e 64M --json
coll|coll allgather --topo h100-ib-4n --ranks 0-31:8 -b 1M -e 1M --terms --json
coll|coll broadcast --topo dgx-a100-8 -b 4 -e 4 --ranks-per-process 8 --loop 20 --json
coll|coll alltoall --topo hgx-h100-8 -b 32 -e 32 --nccl-tests-version 2.13.11 --json
coll|coll allreduce --topo h200-1 -b 1K -e 1K --json
coll|coll allgather --topo hgx-h100-8 --nccl-algo PAT --nccl-proto Simple -b 1M -e 1M --json
sim|sim allgather --topo hgx-h100-8 -b 1MB --json
sim|sim alltoall --topo hgx-h100-8 -b 1MB --proto ll --json
coll|coll alltoall --topo hgx-h100-8 -b 1M -e 1M --proto ll --json
sim|sim alltoall --topo hgx-h200-8 -b 64MB --top 2 --per-rank --json
sim|sim --scenario tests/fixtures/scenarios/moe-hot.xml --topo hgx-h100-8 --json
sim|sim --scenario tests/fixtures/scenarios/chain-after.xml --topo hgx-h100-8 --per-rank --json
trace summary|trace summary traces/h200-1/cuda_demo.json --json
trace summary|trace summary traces/h200-1/kernels-nccl.json traces/h200-1/nvtx_payload_demo.json --json
trace summary|trace --lib $TMP/fake.so -o $TMP/tr --json -- true
trace summary|trace --lib $TMP/fake.so -o $TMP/tr --json -- ./no-such-command
roofline|roofline tests/fixtures/roofline/torch_block.json --json
roofline|roofline tests/fixtures/roofline/cr_skipped_beside_catalog.json --topo h200-1 --json
roofline|roofline tests/fixtures/roofline/nccl_two_procs_unpaired.json --json
roofline|roofline tests/fixtures/roofline/launch_linked.json --json
roofline|roofline tests/fixtures/roofline/cr_nccl.json --json
roofline|roofline traces/h200-1/kernels-gemm.json --topo h200-1 --json
validate|validate traces/h200-1/kernels-gemm.json --topo h200-1 --json
validate|validate traces/h200-1/kernels-nccl.json --topo h200-1 --json
validate|validate traces/h200-1/kernels-hbm.json traces/h200-1/kernels-ce.json --topo h200-1 --json
validate|validate --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --topo hgx-h100-8 --json
validate|validate tests/fixtures/roofline/zero_duration.json --topo h200-1 --json
validate|validate traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz --topo hgx-h200-8 --ranks 0-1 --json
validate|validate traces/nvidia-h200-x2/torchrun-nccl-rank0.json.gz traces/nvidia-h200-x2/torchrun-nccl-rank1.json.gz --topo hgx-h200-8 --ranks 0-1 --json
validate --corpus|validate --corpus validate/corpus --logs --json
calibrate --nccl-tests|calibrate --nccl-tests tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log --topo hgx-h100-8 --json
calibrate --nccl-tests|calibrate --nccl-tests tests/fixtures/nccl-tests/calib/synth-h100-8-all_reduce_perf.log tests/fixtures/nccl-tests/calib/synth-h100-8-all_gather_perf.log tests/fixtures/nccl-tests/calib/impossible-all_gather_perf.log --topo hgx-h100-8 --fit-coll all_reduce -o $TMP/cal.xml --json
calibrate --nccl-tests|calibrate --nccl-tests validate/corpus/a100x4-slingshot-2n/alcf-polaris-nccl221-n2-env4-all_reduce_perf.log --topo validate/corpus/topologies/polaris-a100x4-slingshot.xml --ranks 0-7 --nccl-version 2.21.5 --json
calibrate --nccl-tests|calibrate --nccl-tests validate/corpus/pcie-2080ti-2/autodl-2080ti-all_reduce_perf.log --topo validate/corpus/topologies/autodl-2080ti-pcie.xml --json
calibrate --from-traces|calibrate --topo h200-1 --from-traces traces/h200-1 --json
topo import-nccl|topo import-nccl traces/nvidia-h200-x2/nccl-topo.xml -o $TMP/x2.xml --json
calibrate --from-traces|calibrate --topo $TMP/x2.xml --from-traces traces/nvidia-h200-x2 -o $TMP/x2-cal.xml --json
plot|plot roofline --topo h200-1 --suite pkb -o $TMP/r.svg --no-render --json
plot|plot comm-roofline --topo hgx-h200-8 -o $TMP/c.svg --no-render --json
plot|plot gap --topo hgx-h200-8 -o $TMP/g.svg --no-render --json
plot|plot sweep allreduce --topo hgx-h200-8 -b 1K -e 1M -o $TMP/s.svg --no-render --json
plot|plot compare --topo hgx-h100-8,hgx-h200-8 -o $TMP/cmp.svg --no-render --json
plot|plot accuracy --topo h200-1 --trace traces/h200-1/kernels-gemm.json -o $TMP/a.svg --no-render --json
report|report --topo h200-1 -o $TMP/rep --no-render --json
EOF
python3 - "$CR" "$tmp" doc/json.md <<'EOF'
import json, re, shlex, subprocess, sys

cr, tmp, doc_path = sys.argv[1:4]

def walk(v, path, out):
    """Every key path of v as a tuple of segments; a list adds [] to its key."""
    if isinstance(v, dict):
        for k, x in v.items():
            q = path + (k,)
            out.add(q)
            walk(x, q, out)
    elif isinstance(v, list):
        p = path[:-1] + (path[-1] + "[]",) if path else ("[]",)
        for x in v:
            walk(x, p, out)

emitted = {}
bad = []
for line in open(tmp + "/cmds"):
    label, args = line.rstrip("\n").split("|", 1)
    argv = [cr] + shlex.split(args.replace("$TMP", tmp))
    r = subprocess.run(argv, capture_output=True, text=True)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        bad.append("%s (exit %d): no JSON document on stdout: %s"
                   % (args, r.returncode, r.stderr.strip()[:200]))
        continue
    walk(doc, (), emitted.setdefault(label, set()))

documented = {}
includes = {}
try:
    text = open(doc_path).read()
except OSError as e:
    sys.exit("check_json_keys: %s: %s: every --json key must be documented there" % (doc_path, e))
section = None
for line in text.splitlines():
    m = re.match(r"^## `commroof ([^`]+)`", line)
    if m:
        section = m.group(1)
        documented.setdefault(section, [])
        continue
    if line.startswith("## "):
        section = None
    if section is None:
        continue
    m = re.match(r"^\|\s*`([^`]+)`", line)
    if m:
        documented[section].append(tuple(m.group(1).split(".")))
    for other in re.findall(r"All the keys of `commroof ([^`]+)`", line):
        includes.setdefault(section, []).append(other)

def patterns(label, seen=()):
    out = list(documented.get(label, []))
    for other in includes.get(label, []):
        if other not in seen:
            out += patterns(other, seen + (label,))
    return out

def match(path, pat):
    if len(path) != len(pat):
        return False
    for s, p in zip(path, pat):
        if re.fullmatch(r"<[^>]+>(\[\])?", p):
            if p.endswith("[]") != s.endswith("[]"):
                return False
        elif s != p:
            return False
    return True

# documented keys no run above reaches, each with the test that does
NOT_REACHED = {
    ("calibrate --nccl-tests", "keys[].not_carried_with"):
        "tests/unit/test_calibrate_nccl.c (a fitted step moved past CR_CNF_CARRY_MAX)",
}

missing = []
for label in emitted:
    if label not in documented:
        missing.append("%s: no section \"## `commroof %s`\"" % (label, label))
        continue
    pats = patterns(label)
    for path in sorted(emitted[label]):
        if not any(match(path, p) for p in pats):
            missing.append("%s: %s" % (label, ".".join(path)))
stale = []
for label, pats in documented.items():
    seen = set()
    for other in [label] + [k for k, v in includes.items() if label in v]:
        seen |= emitted.get(other, set())
    for p in pats:
        if (label, ".".join(p)) not in NOT_REACHED and not any(match(e, p) for e in seen):
            stale.append("%s: %s" % (label, ".".join(p)))
for b in bad:
    print("check_json_keys: " + b)
for m in missing:
    print("check_json_keys: undocumented in %s: %s" % (doc_path, m))
for m in stale:
    print("check_json_keys: documented in %s but emitted by no run here (add a run that "
          "emits it, or drop the row if the key is gone): %s" % (doc_path, m))
if bad or missing or stale:
    sys.exit(1)
n = sum(len(v) for v in emitted.values())
print("check_json_keys: OK (%d key paths of %d commands documented)" % (n, len(emitted)))
EOF
