$CR topo import-nccl tests/fixtures/nccl/bad-unknown-gpu.xml
