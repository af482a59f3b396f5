# roofline: what the traces or the topology hold is the input's fault (exit
# 1, no usage hint); the command line's --ranks is a usage error (exit 2);
# an event lasting beyond a million seconds is refused as a negative one is
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '{"traceEvents":[\n{"ph":"X","name":"k","cat":"kernel","ts":0,"dur":1e308,"pid":0,"tid":0,"args":{"device":0}}\n]}\n' > "$d/long.json"
$CR roofline "$d/long.json" --topo h200-1 2>&1 | sed "s|$d/||g"
$CR roofline "$d/long.json" --topo h200-1 > /dev/null 2>&1
echo "exit $?"
$CR roofline traces/h200-1/roofline-demo/torch_roofline.json.gz --topo "$d/missing.xml" 2>&1 | sed "s|$d/||g"
$CR roofline traces/h200-1/roofline-demo/torch_roofline.json.gz --topo "$d/missing.xml" > /dev/null 2>&1
echo "exit $?"
$CR roofline traces/h200-1/roofline-demo/torch_roofline.json.gz --topo h200-1 --ranks 0-7 2>&1
