# A harness piping its results in gets the whole document or none: input
# that is not the results' JSON shape, from a pipe, prints no JSON (stdout
# stays empty; before: '{ "results": [' and then the error), exit 1, as a
# named file does. Each line: stdout's bytes, then stderr.
for x in 'xx' '' '{"foo":1}' '[{"op":"gemm"'; do
    printf '%s' "$x" | $CR check --measured-json - > /tmp/cr-pipe-out.$$ 2> /tmp/cr-pipe-err.$$
    echo "exit $? stdout $(wc -c < /tmp/cr-pipe-out.$$) bytes: $(cat /tmp/cr-pipe-err.$$)"
done
rm -f /tmp/cr-pipe-out.$$ /tmp/cr-pipe-err.$$
