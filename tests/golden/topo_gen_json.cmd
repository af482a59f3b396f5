# topo gen --json (DESIGN.md: every command takes --json; gen refused it,
# QA audit of the CLI): the summary is of the XML loaded back, the file
# written as without --json; without -o the XML is the document's "xml"
# and nothing else is on stdout; a refused parameter prints no JSON.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
$CR topo gen torus --dims 2x2x2 -o t.xml --json; echo "exit $?"
$CR topo check t.xml | head -1
$CR topo gen torus --dims 2x2x2 > plain.xml
$CR topo gen torus --dims 2x2x2 --json > doc.json; echo "exit $?"
grep -c '"xml": "<?xml' doc.json
cmp -s plain.xml t.xml && echo "-o with --json writes what stdout gets without it"
out=$($CR topo gen torus --dims 0x2 --json 2>/dev/null); echo "refused: exit $?, ${#out} bytes on stdout"
# -o /dev/stdout with --json: the XML and the document would mix on one
# stream; refused before anything is written, as import-nccl refuses it
$CR topo gen torus --dims 2x2x2 -o /dev/stdout --json > mixed.out; echo "exit $?, $(wc -c < mixed.out) bytes on stdout"
