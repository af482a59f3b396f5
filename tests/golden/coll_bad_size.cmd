$CR coll allreduce --topo hgx-h100-8 -b 1X; echo "exit $?"
# a fraction of a byte: was floored without a word (-b 1.5 read as 1, 0.5
# as 0); 1.5K is 1536 bytes and reads
$CR coll allreduce --topo hgx-h100-8 -b 1.5; echo "exit $?"
$CR sim allreduce --topo hgx-h100-8 -b 0.5; echo "exit $?"
$CR coll allreduce --topo hgx-h100-8 -b 1.5K -e 1.5K | tail -1; echo "exit $?"
