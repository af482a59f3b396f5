# A ring across nodes on fewer channels than the node has NICs: coll's rate
# is those channels' NICs (algo_net_cap_Bps) at the protocol's per-channel
# cap, and the simulator runs the ring's flows through the same NICs, so
# they agree. LL128 on one channel stated its rate against all eight NICs
# of the node (bw_eff 0.09 of 400 GB/s) and the simulator ran the one NIC
# at that fraction: sim/pr 7.53 at 64 MiB, 3.62 on two channels, 1.78 on
# four (QA audit, session 42). Printed: channels, protocol, sim/pr.
for ch in 1 2 4; do
    for pr in ll ll128 simple; do
        $CR sim allreduce --topo h100-ib-4n --algo ring --proto $pr --nchannels $ch -b 64M |
            awk -v ch=$ch -v pr=$pr '$1 == 67108864 { print ch, pr, $(NF-1) }'
    done
done
$CR coll allreduce --topo h100-ib-4n --algo ring --proto ll128 --nchannels 1 -b 64M --json |
    grep -m2 -E '"(wire_GBps|bw_eff)"'
