# The nvl fabric's counts in racks, the count the user gives (QA audit of
# 2026-12-06: --tiers 3 asked for "a multiple of 16 nodes, at least 32"
# where nodes are trays); the multiple named builds (with --spines rail: the
# default, shared, also needs the cores to reach every rail's pods, 36 of
# 16-port cores at 32 racks, and says so).
for a in "--racks 4 --leaf-radix 16 --tiers 3 --spines rail" "--racks 32 --leaf-radix 16 --tiers 3 --spines rail" "--racks 4 --leaf-radix 8 --tiers 3 --spines rail" "--racks 40 --leaf-radix 16" "--racks 32 --leaf-radix 16 --tiers 3"; do out=$($CR topo gen nvl $a -o /dev/null 2>&1); rc=$?; printf '%s\n' "$out" | head -1; echo "$a: exit $rc"; done
