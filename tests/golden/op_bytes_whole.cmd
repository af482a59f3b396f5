# A byte size is a whole number of bytes with a unit as without one, and an
# all-to-all-v's a whole number of elements, as op coll's all-to-all takes
# it (QA audit, session 42: --bytes 0.5B, --bucket 1.5B and alltoallv's 3 B
# of bf16 were taken, with a verdict in bulk check; 1.3 without a unit was
# refused)
$CR op memcpy --bytes 0.5B
echo "exit $?"
$CR op ddp --bucket 1.5B
echo "exit $?"
$CR op memcpy --bytes 0.1KiB
echo "exit $?"
$CR op memcpy --bytes 1.5KB | grep -m1 bytes
$CR op alltoallv --bytes 3
echo "exit $?"
$CR op alltoallv --bytes 1001 --dtype fp32
echo "exit $?"
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
printf '[{"op":"memcpy","params":{"bytes":"0.5B"},"measured_us":1}]\n' > "$d/m.json"
$CR check --measured-json "$d/m.json" > "$d/out" 2>&1
echo "exit $?"
grep '"error"' "$d/out"
