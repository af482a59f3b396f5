$CR topo check tests/fixtures/xml/bad-no-unit.xml --json
