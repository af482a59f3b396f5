# topo gen takes the network's speed from the port-bw the node file gives
# its NICs: dgx-a100-8's HDR ConnectX-6, 200Gb/s, where the default was
# 400Gb/s (NDR) whatever the node; a --nic-bw faster than the port is a
# usage error (exit 2), a slower one is the user's network.
$CR topo gen fat-tree --nodes 2 --node dgx-a100-8 | grep -o 'nic-bw="[^"]*"\|NIC speed[^;]*'
$CR topo gen fat-tree --nodes 2 --node dgx-a100-8 --nic-bw 400Gbps > /dev/null; echo "exit $?"
$CR topo gen fat-tree --nodes 2 --node dgx-a100-8 --nic-bw 100Gbps | grep -o 'nic-bw="[^"]*"\|NIC speed[^;]*'
