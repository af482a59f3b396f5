$CR topo check tests/fixtures/xml/bad-entity-bomb.xml
