# A real dump (IBM Cloud H100 VSI, tests/fixtures/nccl/real-ibm-h100-vsi.xml):
# its emulated PCIe ports say 2.5 GT/s x1. A 1 GiB host-to-device copy was
# bound at 4294967 us (250 MB/s) before; now by the GPU's Gen5 x16 link.
d=$(mktemp -d) && $CR topo import-nccl tests/fixtures/nccl/real-ibm-h100-vsi.xml -o "$d/v.xml" | sed "s|$d/|TMP/|" &&
    $CR topo check "$d/v.xml" | sed "s|$d/|TMP/|" &&
    $CR op memcpy --topo "$d/v.xml" --kind h2d --bytes 1GiB; rc=$?; rm -rf "$d"; exit $rc
