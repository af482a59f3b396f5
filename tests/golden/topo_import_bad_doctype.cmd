$CR topo import-nccl tests/fixtures/nccl/bad-doctype.xml
