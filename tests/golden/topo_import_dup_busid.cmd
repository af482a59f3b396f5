# one host, two devices at one bus address: refused with both lines (audit
# of 2026-12-04: imported silently)
$CR topo import-nccl tests/fixtures/nccl/bad-dup-busid.xml
