# calibrate --from-traces writes the measured ceilings into the base
# topology's GPU model: traces of another GPU (the H200 HBM sweep on an
# A100 base) are refused, nothing written (validate had this check; an
# audit found calibrate without it).
T=$(mktemp -d /tmp/cr-golden-calgpu.XXXXXX)
$CR calibrate --from-traces traces/h200-1/kernels-hbm.json --topo dgx-a100-8 -o "$T/out.xml"
echo "exit $?"
ls "$T"
rm -rf "$T"
