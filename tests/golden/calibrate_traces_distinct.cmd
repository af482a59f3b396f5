# calibrate --from-traces with -o naming one of its traces (before: the
# trace was replaced by the topology XML, exit 0), or an existing file in
# a folder it reads: usage errors, exit 2, the traces left as they were
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
T=traces/h200-1/kernels-launch.json
mkdir "$d/run" && cp "$T" "$d/run/t.json"
{ $CR calibrate --topo h200-1 --from-traces "$d/run/t.json" -o "$d/run/t.json"; echo "exit $?"; } 2>&1 | sed "s|$d/||g"
{ $CR calibrate --topo h200-1 --from-traces "$d/run" -o "$d/run/t.json"; echo "exit $?"; } 2>&1 | sed "s|$d/||g"
cmp -s "$T" "$d/run/t.json" && echo "the trace is untouched"
# a trace cut in half (its closing bracket lost) is read with the note
# validate gives it
head -c $(($(wc -c < "$T") / 2)) "$T" > "$d/half.json"
$CR calibrate --topo h200-1 --from-traces "$d/half.json" -o "$d/half.xml" 2>&1 >/dev/null | sed "s|$d/||g"
# p2p copies on a one-GPU base: shown, not written, and said (before: the
# table of p2p figures, and a topology without them, silently)
$CR calibrate --from-traces traces/nvidia-h200-x2/kernels-p2p.json.gz --topo h200-1 -o "$d/p2p.xml" 2>&1 >/dev/null | sed "s|$d/||g"
grep -c "mech\." "$d/p2p.xml" || :
