$CR topo check tests/fixtures/xml/bad-l2-below-hbm.xml
