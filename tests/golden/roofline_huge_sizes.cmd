# Sizes no PyTorch tensor has: (2^53)^2 elements (its numel is an int64_t)
# made a GEMM bound of 1.5e39 us, the call impossible (exit 3); four
# tensors of 2^62 elements cat'ed added up to 2^64, an undefined
# conversion that gave elems=0. Both rows now say why they have no bound
$CR roofline tests/fixtures/roofline/huge_sizes.json --topo h200-1
echo "exit $?"
