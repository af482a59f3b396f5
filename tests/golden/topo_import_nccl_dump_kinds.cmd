# NCCL's graph dump (the channels it chose) is not the machine: the
# refusal says which dump to import instead; a GPU without NVLink among
# GPUs with it (a failed link, as a GB300 tray's that ran allreduce at
# 33-52 of 507 GB/s) is imported as the dump says and said in the
# description (QA audit, session 44: both read generically or not at all).
$CR topo import-nccl tests/fixtures/nccl/bad-graph-dump.xml 2>&1
echo "exit $?"
$CR topo import-nccl tests/fixtures/nccl/nvl-missing-gpu.xml 2>&1
echo "exit $?"
