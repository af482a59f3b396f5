# op list takes --json (or --list) and --help alone: an argument scan read
# it, so "op list --bogus", "op list extra" and "op list --json --json" ran
# with exit 0, and "op list --help" printed the list (QA audit of the docs:
# README, "An option given twice is a usage error, flags included").
$CR op list --bogus; echo "exit $?"
$CR op list extra; echo "exit $?"
$CR op list --json --json; echo "exit $?"
$CR op --list list --json | head -2
$CR op list --help | head -1
