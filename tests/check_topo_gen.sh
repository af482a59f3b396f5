#!/bin/sh
# SPDX-License-Identifier: MIT
# The way a user describes a cluster: `commroof topo gen fat-tree` from a
# shipped node. For machines of the corpus whose topology validate/corpus
# draws by hand (validate/corpus/topologies), the generated cluster must
# give every row of their nccl-tests logs the same bound and prediction as
# the hand-written file: a shipped node that leaves out what NCCL tunes by
# (dgx-a100-8 once named no CPU vendor, and NCCL prices a network step on
# AMD hosts at twice Intel's; nor its NICs' HDR port speed, which --nic-bw
# then had to give) shows here. Usage: tests/check_topo_gen.sh BUILD/commroof
set -u
CR=$1
cd "$(dirname "$0")/.." || exit 1
C=validate/corpus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
same() { # name gen-args hand-written-topology validate-args logs...
    name=$1 gen=$2 hand=$3 extra=$4
    shift 4
    # shellcheck disable=SC2086
    if ! "$CR" topo gen fat-tree $gen -o "$T/gen.xml"; then
        echo "check_topo_gen: FAIL: $name: topo gen $gen"
        fail=1
        return
    fi
    for log in "$@"; do
        # shellcheck disable=SC2086
        "$CR" validate --nccl-tests "$log" --topo "$hand" $extra --json >"$T/hand.json" 2>/dev/null
        # shellcheck disable=SC2086
        "$CR" validate --nccl-tests "$log" --topo "$T/gen.xml" $extra --json >"$T/gen.json" 2>/dev/null
        if ! python3 - "$T/hand.json" "$T/gen.json" "$name $(basename "$log")" <<'PY'; then
import json, sys
a = json.load(open(sys.argv[1]))["cases"]
b = json.load(open(sys.argv[2]))["cases"]
def differ(k, x, y):
    if x is None or y is None or k == "impl":
        return x != y
    return abs(x - y) > 1e-9 * max(abs(x), abs(y))
bad = [(p["case"], k, p[k], q[k]) for p, q in zip(a, b) for k in ("bound_us", "pred_us", "impl")
       if differ(k, p[k], q[k])]
n = sum(1 for p in a if p["pred_us"] is not None)
if len(a) != len(b) or n == 0 or bad:
    print("check_topo_gen: FAIL: %s: %d/%d rows, %d predicted; first differences: %s"
          % (sys.argv[3], len(a), len(b), n, bad[:3]))
    sys.exit(1)
print("check_topo_gen: %s: %d rows, %d predicted, as the hand-written topology" % (sys.argv[3], len(a), n))
PY
            fail=1
        fi
    done
}
same sophia-2n "--nodes 2 --node dgx-a100-8" \
    $C/topologies/sophia-dgx-a100-ib.xml "--nccl-version 2.22.3" $C/a100-ib-2n/alcf-sophia-n2-env2-*
same lambda-b200-2n "--nodes 2 --node hgx-b200-8 --nic-bw 400Gbps" \
    $C/topologies/lambda-b200-ib.xml "" $C/b200-ib-2n/*
same deepops-a100-4n "--nodes 4 --node dgx-a100-8" \
    $C/topologies/deepops-dgx-a100-ib-4n.xml "" $C/a100-ib-4n/deepops-*
# GB200 racks (topo gen nvl): a tray's NICs hang off its GPUs, so two GPUs
# of different local index in different racks reach each other only where
# the spines join the rails (the default, --spines shared); with a network
# per rail the same pair is refused (QA audit: sim sendrecv --ranks 11,88
# on --racks 2 --leaf-radix 36 exited 2, "no path that avoids the GPUs
# outside the rank set").
for sp in shared rail; do
    want=0
    [ $sp = rail ] && want=2
    if ! "$CR" topo gen nvl --racks 2 --leaf-radix 36 --spines $sp -o "$T/nvl.xml" ||
        ! "$CR" topo check "$T/nvl.xml" >/dev/null; then
        echo "check_topo_gen: FAIL: nvl --spines $sp: gen or check"
        fail=1
        continue
    fi
    "$CR" sim sendrecv --topo "$T/nvl.xml" --ranks 11,88 -b 1M >/dev/null 2>&1
    rc=$?
    if [ $rc -ne $want ]; then
        echo "check_topo_gen: FAIL: nvl --spines $sp: sim sendrecv --ranks 11,88 exit $rc, expected $want"
        fail=1
    else
        echo "check_topo_gen: nvl --racks 2 --spines $sp: sendrecv 11 -> 88 exit $rc, as expected"
    fi
done
[ $fail -eq 0 ] && echo "check_topo_gen: OK" || { echo "check_topo_gen: FAILED"; exit 1; }
