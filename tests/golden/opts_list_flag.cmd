# --list is the list subcommand, for op and suite: "op --list" said "give
# an operator", "op --list --json" took --json as --list's value and
# "suite --list" was an unknown option (QA audit of op/suite).
$CR op --list | head -3
$CR op --list --json | head -2
$CR suite --list | head -2
$CR suite pkb --list; echo "exit $?"
