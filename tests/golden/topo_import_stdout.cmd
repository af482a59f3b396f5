$CR topo import-nccl tests/fixtures/nccl/pcie-l40s-8.xml
