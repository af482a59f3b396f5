# trace summary reads every file before it prints: a file that fails
# leaves stdout empty and exits 1, naming it on stderr (QA audit, session
# 41: 1,256 bytes of the first file's tables were printed before the
# second failed, and /dev/null got the header line)
$CR trace summary traces/h200-1/cuda_demo.json /nonexistent-trace.json > /tmp/cr-golden-tsum.out
echo "exit $? stdout $(wc -c < /tmp/cr-golden-tsum.out) bytes"
$CR trace summary /dev/null > /tmp/cr-golden-tsum.out
echo "exit $? stdout $(wc -c < /tmp/cr-golden-tsum.out) bytes"
rm -f /tmp/cr-golden-tsum.out
