# A log behind a line prefix the reader does not remove (Jenkins'
# timestamper "[2024-05-01T12:00:00.123Z] ", a bare "12:00:00 ") was
# refused only as holding no result rows, the header plainly there: the
# refusal names the header's line and the prefix (QA audit of pasted
# logs). The prefixes it removes still read (a GitHub Actions time).
T=$(mktemp -d /tmp/cr-golden-prefix.XXXXXX)
F=tests/fixtures/nccl-tests/h100-8-all_reduce_perf.log
sed 's/^/[2024-05-01T12:00:00.123Z] /' $F > "$T/jenkins.log"
sed 's/^/12:00:00  /' $F > "$T/clock.log"
sed 's/^/2024-05-01T12:00:00.1234567Z /' $F > "$T/actions.log"
for f in jenkins clock actions; do
    $CR validate --topo hgx-h100-8 --summary --nccl-tests "$T/$f.log" > "$T/o" 2>&1
    echo "exit $?"
    sed "s|$T|T|g" "$T/o" | head -2
done
rm -rf "$T"
