$CR topo check tests/fixtures/xml/bad-malformed.xml
