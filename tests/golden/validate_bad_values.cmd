# Values that decide a case's bound are checked (an audit found them taken
# silently): a misspelt host= of a host copy was taken as pinned, a
# misspelt cache= of an hbm case as cold, and a p2p case's src/dst were
# ignored (the bound always took GPUs 0 and 1). Each bad range is skipped
# with its file, range and what to give; a p2p case names its own GPUs
# (src=1 dst=0 is allowed). The good hbm read (1 GiB, one 300 us kernel)
# is still reported; the run fails (exit 1) because ranges were skipped.
T=$(mktemp -d /tmp/cr-golden-badv.XXXXXX)
r() { printf '{"ph":"X","cat":"nvtx","name":"%s","pid":199,"tid":1,"ts":%s,"dur":1000,"args":{"device":-1}},\n{"ph":"X","cat":"kernel","name":"k","pid":100,"tid":7,"ts":%s,"dur":300,"args":{"device":0}},\n' "$1" "$2" "$(($2 + 10))"; }
{
    echo '{"traceEvents":['
    r "cr:ce dir=h2d host=pinnned bytes=1048576 iters=1" 100
    r "cr:hbm op=read cache=wram bytes=1073741824 iters=1 rd_bytes=1073741824 wr_bytes=0 flops=0" 2000
    r "cr:p2p mech=ce mode=push src=0 dst=0 bytes=1048576 sms=0 iters=1" 4000
    r "cr:hbm op=read bytes=1073741824 iters=1 rd_bytes=1073741824 wr_bytes=0 flops=0" 6000
    echo '{"ph":"M","pid":199,"tid":0,"name":"commroof_end","args":{}}]}'
} > "$T/bad.json"
$CR validate "$T/bad.json" --topo hgx-h200-8 >"$T/out" 2>&1
rc=$?
sed "s|$T|T|g" "$T/out" | grep -v '^#  \|^# family\|^# summary\|^#$'
echo "rc=$rc"
rm -rf "$T"
