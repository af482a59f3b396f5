# a custom kernel's mechanism and SM count must exist on the GPU: TMA's
# bulk copies need sm_90 (an A100 and an MI300X have none), and no kernel
# gets more SMs than the GPU has (an H200 has 132); each is a usage error
$CR coll allreduce -b 1M -e 1M --mech tma --topo dgx-a100-8
echo "exit $?"
$CR coll allreduce -b 1M -e 1M --mech tma --topo mi300x-8
echo "exit $?"
$CR coll allreduce -b 1G -e 1G --mech tma --sms 1000
echo "exit $?"
$CR coll allreduce -b 1G -e 1G --mech tma --sms 132 >/dev/null
