# A cr: range roofline skips (no crbench family, no catalog operator) gets
# a first_skip_reason even when a catalog operator's range came first (it
# was null; the reader's first reason was the catalog range's, which the
# table reads itself)
$CR roofline tests/fixtures/roofline/cr_skipped_beside_catalog.json --topo h200-1 --json | grep -E '"(cr_ranges_skipped|first_skip_reason)"'
