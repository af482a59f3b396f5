# SPDX-License-Identifier: MIT
"""event_timing: what torch_roofline.py and torch_train_roofline.py share.

Both trace a PyTorch program under the CUPTI tracer, then time operators
alone with CUDA events in an untraced child process:

  parse_args(prog, iters, flags)  OUT.json, --iters N, --reps N, --events-only
                                  and the program's own boolean flags
  time_call(torch, fn, reps)      fn's GPU time per call, sorted (us): each
                                  call between two events recorded behind a
                                  torch.cuda._sleep() that keeps the stream
                                  busy, so the events see the GPU's time of
                                  the call and not the host's launch
  run_events_child(script, o, flags)  reruns script with --events-only and
                                  the flags set in o, without the tracer's
                                  environment and CUDA_LAUNCH_BLOCKING
"""
import os
import subprocess
import sys


def parse_args(prog, iters, flags=()):
    a = sys.argv[1:]
    usage = (f"usage: {prog} OUT.json [--iters N] [--reps N] [--events-only]"
             + "".join(f" [--{f}]" for f in flags))
    if not a or a[0].startswith("-"):
        sys.exit(usage)
    o = {"out": a[0], "iters": iters, "reps": 50, "events_only": False}
    o.update({f.replace("-", "_"): False for f in flags})
    i = 1
    while i < len(a):
        if a[i] == "--events-only":
            o["events_only"] = True
        elif a[i].startswith("--") and a[i][2:] in flags:
            o[a[i][2:].replace("-", "_")] = True
        elif a[i] in ("--iters", "--reps") and i + 1 < len(a):
            o[a[i][2:]] = int(a[i + 1])
            i += 1
        else:
            sys.exit(f"{prog}: unknown option {a[i]}\n{usage}")
        i += 1
    return o


def time_call(torch, fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    t = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(200000)  # ~0.1 ms: the call is queued behind it
        a.record()
        fn()
        b.record()
        b.synchronize()
        t.append(a.elapsed_time(b) * 1000.0)  # us
    t.sort()
    return t


def run_events_child(script, o, flags=()):
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH", "CUDA_LAUNCH_BLOCKING",
                        "COMMROOF_TRACE_DIR")}
    cmd = [sys.executable, os.path.abspath(script), o["out"], "--reps", str(o["reps"]),
           "--events-only"] + [f"--{f}" for f in flags if o[f.replace("-", "_")]]
    return subprocess.run(cmd, env=env).returncode
