# SPDX-License-Identifier: MIT
"""Whether two traces of the same program (two tracer builds, or two runs)
hold the same events: per category and name, the count of events and the
argument keys they carry, and the metadata's keys. Timestamps, durations,
ids and values are not compared (two runs differ there), nor how many
commroof_stats events there are: one is written at every flush that
delivered records (traces/README.md), so their number follows the run's
timing; that there is one is compared.

Usage: python3 same_events.py A.json B.json
Prints the rows that differ (or "same events: N events, M kinds") and exits
1 when any differs, 2 when a file cannot be read as a complete trace.
"""
import collections
import json
import sys


def kinds(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    rows = collections.Counter()
    for ev in doc.get("traceEvents", []):
        if ev.get("ph") == "M" and ev.get("name") in ("process_name", "thread_name", "process_sort_index"):
            key = (ev.get("ph"), ev.get("name"), "")
        elif ev.get("ph") == "M" and ev.get("name") == "commroof_stats":
            rows[(ev.get("ph"), "", "commroof_stats", "dropped_records,records")] = 1
            continue
        else:
            args = ev.get("args", {})
            key = (ev.get("ph"), ev.get("cat", ""), ev.get("name"), ",".join(sorted(args)))
        rows[key] += 1
    meta = ",".join(sorted(doc.get("metadata", {})))
    return rows, meta


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        a, ma = kinds(argv[1])
        b, mb = kinds(argv[2])
    except (OSError, ValueError) as e:
        print(f"same_events: {e}", file=sys.stderr)
        return 2
    diff = [(k, a.get(k, 0), b.get(k, 0)) for k in sorted(set(a) | set(b), key=str) if a.get(k, 0) != b.get(k, 0)]
    for k, x, y in diff:
        print(f"differs: {k}: {x} in A, {y} in B")
    if ma != mb:
        print(f"differs: metadata keys: A {ma} / B {mb}")
    if diff or ma != mb:
        return 1
    print(f"same events: {sum(a.values())} events, {len(a)} kinds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
