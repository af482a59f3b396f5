#!/bin/sh
# SPDX-License-Identifier: MIT
# Compiles kernels/ (crbench) once where nvcc exists, so that a change that
# breaks the CUDA build fails CI even though CI has no GPU; then checks that
# every NVTX range name crbench would open parses as a validate case
# (crbench --list touches no GPU). Skipped without nvcc, and in the SAN=1
# pass (BUILD ending in -san): nvcc output is not sanitised, and compiling
# twice would only cost time.
set -u
CR=$1
B=${BUILD:-build}
case "$B" in *-san) echo "check_kernels: skipped in the sanitizer pass"; exit 0 ;; esac
NVCC=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
if [ ! -x "$NVCC" ]; then echo "check_kernels: skipped ($NVCC not found)"; exit 0; fi
make --no-print-directory BUILD="$B" kernels >"$B/kernels-build.log" 2>&1 ||
    { cat "$B/kernels-build.log"; echo "check_kernels: crbench does not build"; exit 1; }
"$B/kernels/crbench" all --list >"$B/crbench-cases.txt" || { echo "check_kernels: crbench --list failed"; exit 1; }
n=$(wc -l <"$B/crbench-cases.txt")
[ "$n" -ge 100 ] || { echo "check_kernels: only $n cases listed"; exit 1; }
# Each listed name must parse: feed them to validate as a trace of ranges
# without activities (host-timed), which parses every name.
awk 'BEGIN { print "{\"traceEvents\":[" }
     { gsub(/"/, "\\\""); printf "{\"ph\":\"X\",\"cat\":\"nvtx\",\"name\":\"%s\",\"pid\":199,\"tid\":1,\"ts\":%d,\"dur\":10},\n", $0, NR * 100 }
     END { print "{\"ph\":\"M\",\"pid\":199,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}]}" }' \
    "$B/crbench-cases.txt" >"$B/crbench-cases.json"
out=$("$CR" validate "$B/crbench-cases.json" --topo h200-1 --summary 2>&1); rc=$?
echo "$out" | grep -q "skipped" && { echo "$out"; echo "check_kernels: some case names do not parse"; exit 1; }
[ $rc -eq 0 ] || [ $rc -eq 3 ] || { echo "$out"; echo "check_kernels: validate exit $rc"; exit 1; }
# The committed single-GPU sweep (traces/h200-1/kernels-<family>.json) must
# be what the current code runs: the same range names, parameters, declared
# bytes and FLOPs and iteration counts, case for case (order aside: nccl's
# loop order changed after the capture, its cases did not).
for fam in hbm ce mech gemm launch nccl; do
    tr=traces/h200-1/kernels-$fam.json
    [ -f "$tr" ] || { echo "check_kernels: $tr missing"; exit 1; }
    "$B/kernels/crbench" $fam --list | sort >"$B/crbench-$fam.txt"
    grep -o '"name":"cr:[^"]*"' "$tr" | sed 's/^"name":"//; s/"$//' | sort >"$B/trace-$fam.txt"
    nd=$(comm -3 "$B/crbench-$fam.txt" "$B/trace-$fam.txt" | wc -l)
    if [ "$nd" -ne 0 ]; then
        comm -3 "$B/crbench-$fam.txt" "$B/trace-$fam.txt" | head -5
        echo "check_kernels: $tr: $nd range name(s) differ from 'crbench $fam --list': re-capture or document"
        exit 1
    fi
done
echo "check_kernels: traces/h200-1 kernels-{hbm,ce,mech,gemm,launch,nccl}.json hold exactly the cases crbench lists now"
# calibrate measures this machine's GPU 0 with crbench; without a usable
# GPU (the CI machine) crbench exits 4 (CR_EXIT_NO_GPU) and calibrate must
# say so, exit 1 and write nothing.
if ! nvidia-smi -L >/dev/null 2>&1; then
    cal="$B/calibrate-nogpu.xml"
    rm -f "$cal"
    msg=$(COMMROOF_CRBENCH="$B/kernels/crbench" "$CR" calibrate --topo h200-1 -o "$cal" 2>&1); rc=$?
    if [ $rc -ne 1 ] || ! echo "$msg" | grep -q "no usable NVIDIA GPU on this machine" || [ -e "$cal" ]; then
        echo "$msg"; echo "check_kernels: calibrate without a GPU: exit $rc (want 1, a clear message, no file)"; exit 1
    fi
    echo "check_kernels: calibrate without a GPU fails cleanly (exit 1, nothing written)"
fi
echo "check_kernels: OK ($n case names parse)"
