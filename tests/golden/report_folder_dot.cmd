# report -o . (or ..) is refused before anything is written (QA audit of
# the report): the stage went inside the folder as "..partXXXXXX", the
# whole report was rendered, then moving "." aside failed with "Device or
# resource busy"; replacing the current folder would leave the shell in a
# deleted one. The message says to name the folder itself.
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
mkdir "$T/r" && cd "$T/r" || exit 1
$CR report --topo h200-1 --no-render -o . 2>&1; echo "exit $?"
$CR report --topo h200-1 --no-render -o ./ 2>&1; echo "exit $?"
$CR report --topo h200-1 --no-render -o "$T/r/.." 2>&1 | sed "s|$T|T|g"
ls -a "$T/r" | wc -l
$CR report --topo h200-1 --no-render -o ../r > /dev/null; echo "exit $?"
ls "$T/r" | wc -l
