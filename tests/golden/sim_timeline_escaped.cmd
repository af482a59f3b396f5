T=$(mktemp) && $CR sim --scenario tests/fixtures/scenarios/quoted-name.xml --topo hgx-h200-8 --timeline "$T" > /dev/null && $CR trace summary "$T" | sed -n "4,5p;10p"; rc=$?; rm -f "$T"; exit $rc
