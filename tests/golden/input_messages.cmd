# Messages that point at the real mistake (audit of 2026-12-04), each a
# usage error (exit 2): coll's --dtype lists the types coll takes (it used
# to list tf32 and fp4, which it then refuses); an NCCL_PROTO that empties
# every collective names them all (it named broadcast alone, under an
# allreduce); a skew of 1e308 is out of range, not "not a number"; a
# stray 'x' in a rank set is not a backwards range; hexadecimal is no
# measured time (0x10 was taken as 16 us) and no count (0x100 as 256).
$CR coll allreduce --dtype int4; echo "exit $?"
$CR coll allreduce --nccl-proto '^Simple,LL128,LL'; echo "exit $?"
$CR op alltoallv --skew 1e308; echo "exit $?"
$CR coll allreduce --ranks 1-0x3; echo "exit $?"
$CR check gemm_rs --measured-us 0x10; echo "exit $?"
$CR op gemm --m 0x100; echo "exit $?"
# sizes are decimal and unsigned: -0 printed a size of -0 (exit 0)
$CR sim allreduce -b -0; echo "exit $?"
$CR coll allreduce -b 0x10; echo "exit $?"
