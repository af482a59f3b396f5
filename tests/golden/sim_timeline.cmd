T=$(mktemp) && $CR sim sendrecv --topo hgx-h200-8 --ranks 0,1 -b 1MB --timeline "$T" > /dev/null && grep -c '"ph":"X"' "$T" && grep -o '"cat":"sim_flow"[^}]*}' "$T"; rc=$?; rm -f "$T"; exit $rc
