$CR topo import-nccl tests/fixtures/nccl/bad-slow-nic.xml
