# Ranges whose values the model rejects (nccl bytes=-1, gemm m=0, ce
# bytes=0) are skipped one by one, each named on stderr with its file,
# range and reason; the good range (an hbm read of 1 GiB, one kernel of
# 300 us) is still reported, and the run fails (exit 1) because ranges
# were skipped. Before, the first bad one stopped the run with a message
# that named no file.
T=$(mktemp -d /tmp/cr-golden-bad.XXXXXX)
r() { printf '{"ph":"X","cat":"nvtx","name":"%s","pid":199,"tid":1,"ts":%s,"dur":1000,"args":{"device":-1}},\n{"ph":"X","cat":"kernel","name":"k","pid":100,"tid":7,"ts":%s,"dur":300,"args":{"device":0}},\n' "$1" "$2" "$(($2 + 10))"; }
{
    echo '{"traceEvents":['
    r "cr:nccl coll=allreduce bytes=-1 nranks=1 iters=1" 100
    r "cr:gemm dtype=bf16 m=0 n=8192 k=8192 iters=1 flops=0" 2000
    r "cr:ce dir=d2d host=none bytes=0 iters=1" 4000
    r "cr:hbm op=read bytes=1073741824 iters=1 rd_bytes=1073741824 wr_bytes=0 flops=0" 6000
    echo '{"ph":"M","pid":199,"tid":0,"name":"commroof_end","args":{}}]}'
} > "$T/bad.json"
$CR validate "$T/bad.json" --topo h200-1 >"$T/out" 2>&1
rc=$?
sed "s|$T|T|g" "$T/out" | grep -v '^#  \|^# family\|^# summary\|^#$'
echo "rc=$rc"
rm -rf "$T"
