# topo gen: bad parameters are usage errors (exit 2) saying what is wrong
# and what is accepted.
t() { "$@" > /dev/null; echo "exit $?"; }
t $CR topo gen fat-tree --nodes 100 --node hgx-h100-8
t $CR topo gen fat-tree --nodes 40000 --node hgx-h100-8
t $CR topo gen fat-tree --nodes 4096 --node hgx-h100-8
t $CR topo gen fat-tree --nodes 20 --node hgx-h100-8 --leaf-radix 8 --tiers 3 --rails 1
t $CR topo gen fat-tree --nodes 20 --node hgx-h100-8 --leaf-radix 4 --tiers 3 --rails 1
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --oversub 2
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --rails 9
t $CR topo gen fat-tree --nodes 4 --node gb200-nvl72
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --nic-bw 400
t $CR topo gen fat-tree --nodes 4
t $CR topo gen torus --dims 4x4x0
t $CR topo gen torus --dims 4x4 --chip B200-NVL72
t $CR topo gen torus --dims 4x4 --chip nosuch
t $CR topo gen ring
t $CR topo gen nvl --racks 2
# a --node that names no topology fails as --topo does (exit 1); a link
# rate the loader would refuse is a usage error naming the option (it was
# an error at generated.xml:15 with the rate rewritten, exit 1)
$CR topo gen fat-tree --nodes 4 --node nosuch > /dev/null 2>&1; echo "exit $?"
$CR topo gen torus --dims 2x2 --link-bw 0.5MB/s; echo "exit $?"
# a fault in the --node file is the file's, exit 1 as topo check gives it
# (a duplicate id exited 2, a usage error, where a dangling link exited 1)
$CR topo gen fat-tree --nodes 2 --node tests/fixtures/xml/bad-duplicate-id.xml > /dev/null; echo "exit $?"
# --oversub takes "X" or "A:B"; not hexadecimal, spaces or exponents
t $CR topo gen fat-tree --nodes 36 --node hgx-h100-8 --leaf-radix 60 --oversub 3:2
t $CR topo gen fat-tree --nodes 96 --node hgx-h100-8 --oversub 0x3
t $CR topo gen fat-tree --nodes 96 --node hgx-h100-8 --oversub " 3"
# an "at most" hint names a count the generator takes (it named 28 and
# 910 racks, which fill no whole leaves), and the count named succeeds
t $CR topo gen nvl --racks 112
$CR topo gen nvl --racks 16 > /dev/null; echo "exit $?"
t $CR topo gen nvl --racks 1536 --tiers 3
$CR topo gen nvl --racks 512 --tiers 3 > /dev/null; echo "exit $?"
# the expanded graph import-nccl writes is no node template: the message
# says how to make it one (it said only "elements outside its node template")
d=$(mktemp -d)
$CR topo import-nccl tests/fixtures/nccl/hgx-h200-vm.xml -o "$d/imp.xml" > /dev/null
$CR topo gen fat-tree --nodes 2 --node "$d/imp.xml" 2>&1 | sed "s|$d|TMP|"
rm -rf "$d"
