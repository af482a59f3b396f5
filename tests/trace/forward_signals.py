#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Signals and `commroof trace` (tests/check_trace.sh runs it): a SIGINT or
SIGQUIT sent to commroof alone (kill, Popen.send_signal) reaches CMD (it
was ignored: CMD ran on and the caller hung), and the terminal's Ctrl-C
reaches CMD once (it has it from the terminal; commroof does not pass it
on a second time). Usage: forward_signals.py COMMROOF TMPDIR(fresh) LIB;
prints what failed, exits 1 then."""
import os, pty, signal, subprocess, sys, time
cr, tmp, lib = sys.argv[1:4]  # lib: any shared library (CMD never starts CUDA)
def dfl():  # as an interactive shell starts a job (a script's background job ignores both)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
def wait_file(f):
    for _ in range(200):
        if os.path.exists(f): return
        time.sleep(0.05)
fails = 0
# 1. SIGINT and SIGQUIT sent to commroof alone reach CMD
for sig, want in ((signal.SIGINT, 130), (signal.SIGQUIT, 131)):
    st = os.path.join(tmp, "started%d" % sig)
    p = subprocess.Popen([cr, "trace", "--lib", lib, "-o", os.path.join(tmp, "d"), "--",
                          "sh", "-c", ': >"%s"; exec sleep 30' % st], preexec_fn=dfl,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_file(st)
    p.send_signal(sig)
    try:
        rc = p.wait(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill(); rc = "hang"
    if rc != want:
        print("forward_signals: signal %d to commroof alone: exit %s, expected %d" % (sig, rc, want)); fails += 1
# 2. Ctrl-C on a terminal reaches CMD once, not twice (commroof passing it on too)
log, st = os.path.join(tmp, "ints"), os.path.join(tmp, "started-tty")
script = ('n=0; trap \'n=$((n+1)); echo int >>"%s"\' INT; : >"%s"; '
          'i=0; while [ $i -lt 20 ]; do sleep 0.1; i=$((i+1)); done; exit 0') % (log, st)
pid, fd = pty.fork()
if pid == 0:
    dfl()
    os.execv(cr, [cr, "trace", "--lib", lib, "-o", os.path.join(tmp, "d"), "--", "sh", "-c", script])
wait_file(st)
os.write(fd, b"\x03")
out = b""
while True:
    try:
        b = os.read(fd, 4096)
    except OSError:
        break
    if not b: break
    out += b
_, status = os.waitpid(pid, 0)
n = len(open(log).read().split()) if os.path.exists(log) else 0
if n != 1:
    print("forward_signals: Ctrl-C on a terminal: CMD got SIGINT %d times, expected 1" % n); fails += 1
sys.exit(1 if fails else 0)
