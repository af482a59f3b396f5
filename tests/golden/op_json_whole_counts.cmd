# Counts in op --json and suite --json are whole numbers where they are
# (an audit found 17,649,631,232 gradient bytes printed as 1.764963123e10 at
# ten digits). DDP of 8,824,815,616 bf16 parameters on 8 GPUs: the
# allreduce moves 2 x 8824815616 = 17649631232 bytes; traffic 2(p-1)/p =
# 14/8 of it = 30886854656; flops 4 P T (T = 1024 tokens) + 7/8 P adds =
# 36146444763136 + 7721713664 = 36154166476800.
$CR op ddp --params 8824815616 --dp 8 --json | grep -E '"(flops|comm_bytes|traffic_bytes)"'
