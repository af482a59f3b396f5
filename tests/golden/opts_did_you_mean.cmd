# An unknown option near one of the command's own (one edit in a short
# name, two from five characters on) is named in the message: each of these
# printed only 'unknown option' (QA audit, session 43). A word far from
# every option keeps the plain message. Exit 2 each.
$CR coll allreduce --prot simple; echo "exit $?"
$CR topo show hgx-h100-8 --jsn; echo "exit $?"
$CR sim allreduce --timline x.json; echo "exit $?"
$CR roofline x.json --tpo h200-1; echo "exit $?"
$CR coll allreduce --algoo=ring; echo "exit $?"
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --rail 8; echo "exit $?"
$CR trace summary x.json --ful-names; echo "exit $?"
$CR coll allreduce --xyzzy; echo "exit $?"
