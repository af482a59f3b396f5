# Issue 18: check, plot and report read --measured-json through one reader
# (model/harness.h): an entry with a misspelt known key ("parms" for
# "params", which would fall back to the operator's defaults) is refused by
# each with the same message; plot and report name the file before it, and
# fail (before, they took the entry with default parameters).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
f=tests/fixtures/check/bulk_misspelt.json
t() {
    out=$("$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed "s|$d/|TMP/|g"
    echo "exit $rc"
}
t $CR check --measured-json $f --topo hgx-h200-8
t $CR plot gap --topo hgx-h200-8 --measured-json $f -o "$d/gap.svg" --no-render
t $CR report --topo hgx-h200-8 --measured-json $f -o "$d/r" --no-render
