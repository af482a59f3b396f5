# A trace's GPU (metadata.devices[].name) against the topology's GPU
# models, as nccl-tests logs' rank lines are: the H200 sweep on an A100
# topology is an error (its 31 "violations" were the A100's bound under an
# H200's time); --allow-gpu-mismatch compares anyway, with a note. A folder
# of an H200 and an A100 trace (one hbm read of 1 GiB each, one kernel of
# 300 us) names two GPU models.
T=$(mktemp -d /tmp/cr-golden-gpu.XXXXXX)
run() {
    "$@" >"$T/out" 2>"$T/err"
    rc=$?
    sed "s|$T|T|g" "$T/err"
    grep '^# FAILED\|^# OK\|^# commroof' "$T/out" | sed "s|$T|T|g"
    echo "rc=$rc"
}
run $CR validate traces/h200-1/kernels-hbm.json --topo dgx-a100-8
run $CR validate traces/h200-1/kernels-hbm.json --topo dgx-a100-8 --allow-gpu-mismatch --summary
run $CR validate traces/h200-1/kernels-hbm.json --topo h200-1 --summary
mkdir "$T/mixed"
for g in a100:A100-SXM4-80GB h200:H200; do
    name=${g#*:} g=${g%%:*}
    printf '{"traceEvents":[
{"ph":"X","cat":"nvtx","name":"cr:hbm op=read bytes=1073741824 iters=1 rd_bytes=1073741824 wr_bytes=0 flops=0","pid":199,"tid":1,"ts":100,"dur":1000,"args":{"device":-1}},
{"ph":"X","cat":"kernel","name":"k","pid":100,"tid":7,"ts":110,"dur":300,"args":{"device":0}},
{"ph":"M","pid":199,"tid":0,"name":"commroof_end","args":{}}],
"metadata":{"format":"commroof-trace","format_version":1,"devices":[{"device":0,"name":"NVIDIA %s"}]}}\n' "$name" > "$T/mixed/$g.json"
done
run $CR validate "$T/mixed" --topo hgx-h200-8
run $CR validate "$T/mixed" --topo hgx-h200-8 --allow-gpu-mismatch
rm -rf "$T"
