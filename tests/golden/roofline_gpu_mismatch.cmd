# roofline and report --trace hold each trace's GPU (the device its
# kernels, copies and memsets ran on, metadata.devices[].name) to the
# topology as validate does (validate_gpu_mismatch): the H200 cache sweep
# on an H100 topology was 60 "times below the bound" and exit 3, said as
# impossible kernels (QA audit, session 41); --allow-gpu-mismatch compares
# anyway with a note. The report writes nothing when it refuses.
T=$(mktemp -d /tmp/cr-golden-rfgpu.XXXXXX)
run() {
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    sed "s|$T|T|g" "$T/err"
    grep '^# FAILED\|^# OK\|^# commroof' "$T/out" | sed "s|$T|T|g"
    echo "rc=$rc"
}
run $CR roofline traces/h200-1/kernels-hbm.json --topo hgx-h100-8
run $CR roofline traces/h200-1/kernels-hbm.json --topo hgx-h100-8 --allow-gpu-mismatch --top 1
run $CR roofline traces/h200-1/kernels-hbm.json --topo h200-1 --top 1
run $CR report --topo hgx-h100-8 --trace traces/h200-1/kernels-hbm.json --no-render -o "$T/rep"
[ -e "$T/rep" ] && echo "report folder written" || echo "no report folder"
rm -rf "$T"
