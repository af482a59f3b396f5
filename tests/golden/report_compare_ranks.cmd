# report's options checked against what they name (QA audit, session 41):
# --compare names each topology once (a name twice drew two identical
# columns; an empty one was dropped unsaid); --ranks is held to --topo's
# machine for the sweep and to --trace-topo's only where traces or logs
# are given (the 8-GPU sweep's --ranks 0,1 was refused because the
# one-GPU trace machine has rank 0 alone), each message naming which
$CR report --no-render --compare hgx-h100-8,hgx-h100-8 -o /tmp/cr-golden-rep-never
echo "exit $?"
$CR report --no-render --compare hgx-h100-8,,hgx-h200-8 -o /tmp/cr-golden-rep-never
echo "exit $?"
T=$(mktemp -d /tmp/cr-golden-rep.XXXXXX)
$CR report --no-render --trace-topo h200-1 --ranks 0,1 -o "$T/a" > /dev/null
echo "exit $?"
$CR report --no-render --trace-topo h200-1 --ranks 0,1 --trace traces/h200-1/kernels-hbm.json -o "$T/b" 2>&1 | sed "s|$T|T|g"
$CR report --no-render --ranks 0-8 -o "$T/c" 2>&1 | sed "s|$T|T|g"
# the page's "Written by" command line is quoted for a shell: a folder
# "a$(id)" was printed bare, and pasted back ran id
$CR report --no-render -o "$T/r a\$(id)'x" > /dev/null
grep -o '<code>commroof report[^<]*' "$T/r a\$(id)'x/index.html" | sed "s|$T|T|g"
# a --measured-json of no entry is said as such (the part said "give
# --measured-json", which was given)
echo '[]' > "$T/empty.json"
$CR report --no-render --measured-json "$T/empty.json" -o "$T/m" | grep "skipped Measured" | sed "s|$T|T|g"
rm -rf "$T"
[ -e /tmp/cr-golden-rep-never ] && echo "a refused report wrote its folder"
