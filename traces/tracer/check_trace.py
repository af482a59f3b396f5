# SPDX-License-Identifier: MIT
"""Quick look at commroof traces on a machine without the commroof CLI (the
GPU machine): completeness, events by category, kernels, copies, NVTX ranges,
dropped records, devices. Accepts files cut short (reads line by line then).

Usage: python3 check_trace.py TRACE.json... [--expect-kernels N]
Exit status 1 when a file has dropped records or (with --expect-kernels) a
different kernel count.
"""
import collections
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        txt = f.read()
    try:
        return json.loads(txt), True
    except ValueError:
        evs = []
        for line in txt.splitlines()[1:]:
            line = line.strip().rstrip(",")
            if line.startswith("{"):
                try:
                    evs.append(json.loads(line))
                except ValueError:
                    pass
        return {"traceEvents": evs}, False


def main(argv):
    expect = None
    paths = []
    i = 0
    while i < len(argv):
        if argv[i] == "--expect-kernels":
            expect = int(argv[i + 1])
            i += 2
        else:
            paths.append(argv[i])
            i += 1
    bad = 0
    for p in paths:
        doc, complete = load(p)
        evs = doc["traceEvents"]
        md = doc.get("metadata", {})
        cats = collections.Counter(e.get("cat", "M" if e.get("ph") == "M" else "?") for e in evs)
        dropped = md.get("dropped_records")
        if dropped is None:
            stats = [e for e in evs if e.get("name") == "commroof_stats"]
            dropped = stats[-1]["args"]["dropped_records"] if stats else None
        print(f"== {p}: complete={complete} events={len(evs)} dropped={dropped} by cat={dict(cats)}")
        if md:
            print(f"   metadata: records={md.get('records')} errors={md.get('errors')} "
                  f"command={md.get('command')!r}")
            print("   nvtx: " + " ".join(f"{k}={md[k]}" for k in md if k.startswith("nvtx_")))
            for d in md.get("devices", []):
                print(f"   device: {json.dumps(d)}")
        k = collections.defaultdict(lambda: [0, 0.0])
        for e in evs:
            if e.get("cat") == "kernel":
                k[e["name"]][0] += 1
                k[e["name"]][1] += e["dur"]
        for name, (cnt, tot) in sorted(k.items(), key=lambda x: -x[1][1])[:8]:
            print(f"   kernel {cnt:6d} x {tot / cnt:10.3f} us  {name[:100]}")
        c = collections.defaultdict(lambda: [0, 0, 0.0])
        for e in evs:
            if e.get("cat") in ("memcpy", "memset"):
                a = e["args"]
                key = (e["cat"], a.get("kind", ""), a.get("src_mem", a.get("mem", "")), a.get("dst_mem", ""))
                c[key][0] += 1
                c[key][1] += a.get("bytes", 0)
                c[key][2] += e["dur"]
        for key, (cnt, byts, tot) in sorted(c.items(), key=lambda x: -x[1][1]):
            gbps = byts / (tot * 1e3) if tot > 0 else 0
            print(f"   {key}: {cnt} x, {byts} bytes, {tot:.3f} us, {gbps:.1f} GB/s")
        for e in evs:
            if e.get("cat") == "nvtx":
                print(f"   nvtx {e.get('ph')} {e.get('name')!r} ts={e.get('ts')} dur={e.get('dur')} args={e.get('args')}")
        for e in evs:
            if e.get("cat") == "sync":
                print(f"   sync {e['name']} dur={e['dur']} args={e['args']}")
                break
        nk = sum(v[0] for v in k.values())
        if dropped not in (0, None):
            bad = 1
        if expect is not None and nk != expect:
            print(f"   kernel count {nk}, expected {expect}")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
