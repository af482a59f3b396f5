# issue 13 items 8 and 10: figures that make the model non-finite are
# refused where they are read: in a topology (file:line, value, range;
# exit 1) and on the command line (-b above 1PB, also after a suffix; a
# usage error, exit 2). Before, 1e-300FLOP/s loaded, coll --json with
# -b 1e308 left out bound_us and pred_us and exited 0, and sim -b 1e308T
# exited 1.
for f in tiny-flops tiny-bw; do
    $CR topo check tests/fixtures/xml/bad-$f.xml; echo "exit $?"
done
$CR coll allreduce -b 1e308 --json; echo "exit $?"
$CR sim allreduce -b 1e308T; echo "exit $?"
$CR coll allreduce -b 1PB -e 1PB | tail -1; echo "exit $?"
