$CR topo check tests/fixtures/xml/bad-disconnected.xml
