# topo gen's messages quote a value as the user typed it (QA audit): a
# bandwidth in bps was quoted in the b/s spelling handed to the units parser
# ("100gb/s", "0Gb/s"), --oversub with %g (1000000 as 1e+06), --nic-bw with
# %.4g in Gbps (62.5GB/s as 500Gbps). 1000000 is more than the 63 a 64-port
# leaf takes (63 down, 1 up); 62.5GB/s = 500Gb/s is faster than dgx-a100-8's
# 200Gb/s HDR ports.
$CR topo gen torus --dims 4x4 --link-bw 100gbps; echo "exit $?"
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --nic-bw 0Gbps; echo "exit $?"
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --oversub 1000000; echo "exit $?"
$CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --oversub 2000000:2; echo "exit $?"
$CR topo gen fat-tree --nodes 2 --node dgx-a100-8 --nic-bw 62.5GB/s; echo "exit $?"
