# A crbench case that validate skips (5 kernels for iters=3) is named as
# the first skip reason although its family, gemm, is also a catalog
# operator's name: the reason said "cr: ranges of no crbench family nor
# catalog operator" when roofline parsed the reason's words
$CR roofline tests/fixtures/roofline/cr_case_unsplit.json --topo h200-1 --json | grep -E '"(cr_ranges_skipped|first_skip_reason)"'
