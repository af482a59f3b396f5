# commroof --help names every topo subcommand and every shipped suite: it
# said "list, show, check and import topologies" (no gen) and "(pkb, llm)"
# (no h200x2) (QA audit of the docs, README "commroof topo", suite list).
$CR --help | grep -E '^  (topo|suite) '
$CR suite list | awk 'NR > 2 { print $1 }'
