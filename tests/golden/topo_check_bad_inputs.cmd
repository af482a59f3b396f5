# Every bad input issue 2 lists, through the CLI: each error reads
# file:line: what is wrong, what would be right; each exit status is 1.
for f in malformed unknown-element unknown-attribute no-unit negative-bw zero-bw nan-bw \
    huge-bw overflow-bw disconnected duplicate-id dangling external-entity \
    entity-bomb empty wrong-root truncated; do
    $CR topo check tests/fixtures/xml/bad-$f.xml; echo "exit $?"
done
# A 100 MB attribute, written here rather than committed.
d=$(mktemp -d) && { printf '<topology name="t" description="'; head -c 100000000 /dev/zero | tr '\0' A; printf '"/>\n'; } >"$d/big.xml"
out=$($CR topo check "$d/big.xml" 2>&1); rc=$?; echo "$out" | sed "s|$d/||"; echo "exit $rc"; rm -rf "$d"
