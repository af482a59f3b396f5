# issue 18 item 3: each command's --help, whose option lines cli/opts.c
# prints from the table the command parses with. The expected text is the
# hand-written help of every command before the tables (commit 3acc865),
# so a table row cannot drift from the documented text unnoticed.
for c in coll sim op suite check plot report trace validate roofline calibrate; do
    echo "=== $c"
    $CR $c --help || echo "exit $?"
done
echo "=== validate --corpus"
$CR validate --corpus DIR --help || echo "exit $?"
