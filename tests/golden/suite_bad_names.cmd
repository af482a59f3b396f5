# Names a table cannot print as one plain line are refused (QA audit of
# 2026-12-06): blanks only, and a bidirectional override (also DEL and the
# C1 controls, tests/unit/test_xml_safe.c)
$CR suite tests/fixtures/suites/bad_blank_name.xml
echo "exit $?"
$CR suite tests/fixtures/suites/bad_bidi_name.xml
echo "exit $?"
