# Every command's --help lists --help, -h among its options, as it lists
# every other option its parser takes (QA audit of the CLI: plot, report,
# validate, validate --corpus, roofline and calibrate accepted --help and
# -h without listing them). One line per command: its name and how many
# "--help, -h" lines its help has (calibrate: one per form, 2).
for c in topo coll sim op suite check plot report trace validate roofline calibrate; do
    echo "$c $($CR $c --help | grep -c '^  --help, -h')"
done
echo "validate --corpus $($CR validate --corpus DIR --help | grep -c '^  --help, -h')"
