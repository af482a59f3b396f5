# --grain changes only a ring allreduce, allgather or reducescatter (steps
# or pipelined); elsewhere it was accepted and ignored (QA audit of
# 2026-12-08): a usage error now, exit 2, naming what runs. A ring, or
# NCCL's choice (which may be the ring), takes it.
$CR sim alltoall -b 1M --grain steps; echo "exit $?"
$CR sim broadcast -b 1M --grain steps; echo "exit $?"
$CR sim allreduce -b 1M --algo tree --grain pipelined; echo "exit $?"
$CR sim allreduce -b 1M --algo ring --grain steps > /dev/null; echo "exit $?"
$CR sim allgather -b 1M --grain pipelined > /dev/null; echo "exit $?"
