# index.html's title and heading name the suite by its own name, as the
# suite's tables and skip reasons do: with --suite FILE they said the
# file's path ("suite tests/fixtures/suites/good.xml" for the suite named
# "mine"; QA audit of the HTML report, session 47). A shipped suite keeps
# its name.
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR report --suite tests/fixtures/suites/good.xml --no-render -o "$d/r" > /dev/null 2>&1
echo "exit $?"
grep -o '<title>[^<]*</title>\|<h1>[^<]*</h1>' "$d/r/index.html"
$CR report --topo h200-1 --no-render -o "$d/s" > /dev/null 2>&1
grep -o '<h1>[^<]*</h1>' "$d/s/index.html"
