# Attribute values are printed one to a line (table headers, '#' lines,
# chart titles): a control character put in by a character reference is
# refused in every XML input, with file:line, attribute and element, before
# anything is printed (before: a suite named "h200&#10;# x" printed a
# header line "# x on hgx-h200-8" of its own). Exit 1 each.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
sed 's/<suite name="h200x2"/<suite name="h200\&#10;# x"/' suites/h200x2.xml > "$d/suite.xml"
{ $CR suite "$d/suite.xml" --topo hgx-h200-8; echo "exit $?"; } 2>&1 | sed "s|$d/||g"
sed 's/<collective name="dp"/<collective name="d\&#13;p"/' tests/fixtures/scenarios/tp-dp.xml > "$d/scen.xml"
{ $CR sim --scenario "$d/scen.xml" --topo h100-ib-4n; echo "exit $?"; } 2>&1 | sed "s|$d/||g"
$CR topo check tests/fixtures/xml/bad-control-char.xml 2>&1; echo "exit $?"
