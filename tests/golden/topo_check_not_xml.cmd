# Issue 13 item 10: a file that is not empty but is not XML either (here a
# line of YAML after a blank line) is called not XML, at the position
# libxml2 gives (line 2, column 3: the first character that is not blank),
# not "empty"; a blank file stays "empty" (bad-empty.xml, topo_check_bad_inputs).
$CR topo check tests/fixtures/xml/bad-not-xml.xml; echo "exit $?"
$CR sim allreduce --topo tests/fixtures/xml/bad-not-xml.xml -b 1M; echo "exit $?"
$CR suite tests/fixtures/suites/bad_not_xml.xml --topo hgx-h200-8; echo "exit $?"
d=$(mktemp -d) && printf '\n \t\n' >"$d/blank.xml"
$CR topo check "$d/blank.xml" 2>&1 | sed "s|$d/||"; rm -rf "$d"
