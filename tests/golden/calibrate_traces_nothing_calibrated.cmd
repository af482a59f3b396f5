# calibrate --from-traces on cases that give no figure the base takes wrote
# the base as it was behind an empty figure table, exit 0, as if calibrated
# (QA audit, 2026-12-07): a sweep cut short (the first 5 cases of an HBM
# sweep: no stream large enough for a ceiling), and p2p copies on a base of
# one GPU. Still written (a valid topology, as calibrate --nccl-tests does
# when nothing moved), with a note that it holds the base's figures.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
gzip -dc traces/h200-1/run-2026-12-04/kernels-hbm.json.gz | head -c 200000 > "$d/cut.json"
{ $CR calibrate --from-traces "$d/cut.json" --topo h200-1 -o "$d/out.xml"; echo "exit $?"; } 2>&1 | sed "s|$d/|TMP/|g"
{ $CR calibrate --from-traces traces/nvidia-h200-x2/kernels-p2p.json.gz --topo h200-1 -o "$d/p2p.xml" >/dev/null; echo "exit $?"; } 2>&1 | sed "s|$d/|TMP/|g"
# what a real calibration prints: no such note
$CR calibrate --from-traces traces/h200-1/run-2026-12-04/kernels-hbm.json.gz --topo h200-1 -o "$d/hbm.xml" 2>&1 | grep -c "nothing was calibrated"
exit 0
