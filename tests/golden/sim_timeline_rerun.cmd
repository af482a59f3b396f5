d=$(mktemp -d) && sed 's/<topology name="hgx-h200-8"/<topology name="my-box"/' topologies/hgx-h200-8.xml > "$d/my topo.xml" && $CR sim allreduce --topo "$d/my topo.xml" --ranks 0-3 -b 1000 -e 4000 --dtype bf16 --algo tree --proto ll --nchannels 2 --timeline "$d/t.json" > /dev/null || exit 1
echo "$(grep -c '^{"ph"' "$d/t.json") events, $(grep -o '"records":[0-9]*' "$d/t.json")"
cmd=$(grep -o '"command":"[^"]*"' "$d/t.json" | sed 's/^"command":"//; s/"$//')
printf '%s\n' "$cmd" | sed "s|$d|DIR|g"
eval "\$CR${cmd#commroof} --timeline \"\$d/again.json\"" > /dev/null && cmp "$d/t.json" "$d/again.json" && echo "the command re-runs it: the same trace"; rc=$?; rm -rf "$d"; exit $rc
