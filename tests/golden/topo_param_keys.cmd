# A <param> is checked where it is read (audit of 2026-12-04): a misspelt
# key is an error naming the nearest key (it used to be ignored: topo check
# said OK and the model ran with the default), and a value outside the
# model's range is an error with its file:line (it used to pass topo check
# and make sim and coll exit 2, a usage error, without a line).
$CR topo check tests/fixtures/xml/bad-param-misspelt.xml; echo "exit $?"
$CR topo check tests/fixtures/xml/bad-param-range.xml; echo "exit $?"
$CR sim allreduce --topo tests/fixtures/xml/bad-param-range.xml -b 1MB; echo "exit $?"
# and its unit and kind: a bandwidth for a time, a fraction with a unit, a
# fraction of a channel, a switch that is neither 0 nor 1 (each loaded
# before, coll.launch_gap = 0.5 B/s then predicting 3.5 s)
T=$(mktemp) || exit 1
for kv in 'coll.launch_gap" value="0.5B/s' 'coll.eff.net" value="0.9s' 'coll.nchannels" value="3.7' 'route.gpu_transit" value="2' 'coll.net.lat" value="2us'; do
    sed "s|coll.nchannels\" value=\"-5|$kv|" tests/fixtures/xml/bad-param-range.xml > "$T"
    $CR topo check "$T" 2>&1 | sed "s|$T|T|"
done
# the keys other modules read (ops.*, coll.ceil.*, fused.*) have a unit and
# a range too (before: ops.gemm.eff = 0 loaded, and op gemm clamped it to
# 0.001 quietly, a baseline 1,190x the bound; 2GB/s for ops.launch loaded)
for kv in 'ops.gemm.eff" value="0' 'ops.hbm.eff" value="1.2' 'ops.launch" value="2GB/s' 'ops.launch" value="2us' 'ops.ldst.sm_bw" value="48.4GB/s' 'coll.ceil.net" value="0' 'fused.overlap.slow" value="0.5' 'ops.pageable.h2d" value="-1'; do
    sed "s|coll.nchannels\" value=\"-5|$kv|" tests/fixtures/xml/bad-param-range.xml > "$T"
    $CR topo check "$T" 2>&1 | sed "s|$T|T|"
done
rm -f "$T"
