$CR topo import-nccl tests/fixtures/nccl/no-such-dump.xml
