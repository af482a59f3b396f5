# A misspelt chart kind is named as what is wrong, before anything else on
# the line is judged (QA audit of the CLI: "plot swep allreduce -o x.svg"
# said 'unexpected argument "allreduce"', the sweep's collective, and
# without -o "say where the chart goes": neither names the misspelt word).
$CR plot swep allreduce -o x.svg; echo "exit $?"
$CR plot swep allreduce; echo "exit $?"
# a known kind's extra word is still refused as such
$CR plot sweep allreduce extra -o x.svg; echo "exit $?"
