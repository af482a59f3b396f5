#!/bin/sh
# SPDX-License-Identifier: MIT
# Compiles kernels/ (crbench) once where nvcc exists, so that a change that
# breaks the CUDA build fails CI even though CI has no GPU; then checks that
# every NVTX range name crbench would open parses as a validate case
# (crbench --list touches no GPU), that every committed sweep trace
# (traces/h200-1, traces/nvidia-h200-x2) holds exactly the cases the current
# code lists for the arguments of its capture, and that calibrate fails
# cleanly where no GPU is usable. Skipped without nvcc, and in the SAN=1
# pass (BUILD ending in -san): nvcc output is not sanitised, and compiling
# twice would only cost time.
set -u
CR=$1
# crbench's nccl names depend on these (a launcher's world size and rank,
# NCCL's forced choices); the listings below set what each capture had.
unset WORLD_SIZE RANK OMPI_COMM_WORLD_SIZE OMPI_COMM_WORLD_RANK PMI_SIZE PMI_RANK SLURM_NTASKS \
    SLURM_PROCID NCCL_ALGO NCCL_PROTO
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
    # hbm: the 2026-11-29 capture predates op=add and the cache= key (its
    # cases are the cold ones, named without it); the cache sweep
    # (traces/h200-1/cache-2026-12-02) is checked whole below
    if [ $fam = hbm ]; then
        "$B/kernels/crbench" hbm --list | grep -v ' op=add ' | sed 's/ cache=cold//' |
            sort >"$B/crbench-$fam.txt"
    else
        "$B/kernels/crbench" $fam --list | sort >"$B/crbench-$fam.txt"
    fi
    grep -o '"name":"cr:[^"]*"' "$tr" | sed 's/^"name":"//; s/"$//' | sort >"$B/trace-$fam.txt"
    nd=$(comm -3 "$B/crbench-$fam.txt" "$B/trace-$fam.txt" | wc -l)
    if [ "$nd" -ne 0 ]; then
        comm -3 "$B/crbench-$fam.txt" "$B/trace-$fam.txt" | head -5
        echo "check_kernels: $tr: $nd range name(s) differ from 'crbench $fam --list': re-capture or document"
        exit 1
    fi
done
echo "check_kernels: traces/h200-1 kernels-{hbm,ce,mech,gemm,launch,nccl}.json hold exactly the cases crbench lists now"
C15=traces/h200-1/cache-2026-12-02
for tr in $C15/kernels-hbm-cache-run1.json.gz $C15/kernels-hbm-cache-run2.json.gz; do
    [ -f "$tr" ] || { echo "check_kernels: $tr missing"; exit 1; }
    "$B/kernels/crbench" hbm --cache both --max-bytes 256M --list | sort >"$B/crbench-c15.txt"
    gzip -dc "$tr" | grep -o '"name":"cr:[^"]*"' | sed 's/^"name":"//; s/"$//' | sort >"$B/trace-c15.txt"
    nd=$(comm -3 "$B/crbench-c15.txt" "$B/trace-c15.txt" | wc -l)
    [ "$nd" -eq 0 ] || { comm -3 "$B/crbench-c15.txt" "$B/trace-c15.txt" | head -5
        echo "check_kernels: $tr: $nd range name(s) differ from 'crbench hbm --cache both --max-bytes 256M --list'"; exit 1; }
done
echo "check_kernels: $C15 holds exactly the cases 'crbench hbm --cache both --max-bytes 256M' lists"
# The same for every two-GPU trace (traces/nvidia-h200-x2), listed with the
# arguments each capture ran (kernels/nccl_groups.sh): one process driving
# two GPUs (--gpus 2), NCCL_ALGO x NCCL_PROTO groups, torchrun ranks.
X2=traces/nvidia-h200-x2
same() { # same TRACE.json.gz LABEL crbench-args... (env set by the caller)
    tr=$1 label=$2
    shift 2
    [ -f "$tr" ] || { echo "check_kernels: $tr missing"; exit 1; }
    if [ "${OLD_HBM:-0}" = 1 ]; then # captured before op=add and cache= (above)
        "$B/kernels/crbench" "$@" --list | grep -v ' op=add ' | sed 's/ cache=cold//' |
            sort >"$B/crbench-x2.txt"
    else
        "$B/kernels/crbench" "$@" --list | sort >"$B/crbench-x2.txt"
    fi
    gzip -dc "$tr" | grep -o '"name":"cr:[^"]*"' | sed 's/^"name":"//; s/"$//' | sort >"$B/trace-x2.txt"
    nd=$(comm -3 "$B/crbench-x2.txt" "$B/trace-x2.txt" | wc -l)
    nt=$(wc -l <"$B/trace-x2.txt")
    if [ "$nd" -ne 0 ] || [ "$nt" -eq 0 ]; then
        comm -3 "$B/crbench-x2.txt" "$B/trace-x2.txt" | head -5
        echo "check_kernels: $tr ($label): $nd of $nt range name(s) differ from 'crbench $* --list'"
        exit 1
    fi
    x2n=$((x2n + nt))
}
x2n=0
for fam in hbm ce mech gemm launch nccl; do
    OLD_HBM=$([ $fam = hbm ] && echo 1 || echo 0) \
        same traces/h200-1/run-2026-12-01/kernels-$fam.json.gz "second capture" $fam
done
echo "check_kernels: traces/h200-1/run-2026-12-01: all $x2n ranges are the cases crbench lists now"
x2n=0
. kernels/nccl_groups.sh
same $X2/kernels-nccl.json.gz "one process, auto" nccl --gpus 2
same $X2/kernels-p2p.json.gz p2p p2p
same $X2/fused.json.gz fused fused
for a in $CR_NCCL_ALGOS; do
    for p in $CR_NCCL_PROTOS; do
        if [ $a = auto ]; then unset NCCL_ALGO; else NCCL_ALGO=$a; export NCCL_ALGO; fi
        NCCL_PROTO=$p
        export NCCL_PROTO
        same $X2/kernels-nccl-$a-$p.json.gz "$a/$p" nccl --gpus 2 $CR_NCCL_GROUP_ARGS --colls "$(cr_nccl_colls $a)"
    done
done
unset NCCL_ALGO NCCL_PROTO
for r in 0 1; do
    WORLD_SIZE=2 RANK=$r
    export WORLD_SIZE RANK
    same $X2/torchrun-nccl-rank$r.json.gz "torchrun rank $r" $CR_TORCHRUN_NCCL_ARGS
done
unset WORLD_SIZE RANK
echo "check_kernels: traces/nvidia-h200-x2: all $x2n ranges of the 15 traces are the cases crbench lists now"
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
