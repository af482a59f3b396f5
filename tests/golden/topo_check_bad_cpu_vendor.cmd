$CR topo check tests/fixtures/xml/bad-cpu-vendor.xml
