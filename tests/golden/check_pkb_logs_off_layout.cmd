# Rank files off ParallelKernelBench's layout (a backend folder one level
# too deep, a problem folder named Problem_3_x or problem_) are an error
# naming the folder: they were left out with exit 0, an impossible time
# among them never checked (QA audit, session 41)
T=$(mktemp -d /tmp/cr-golden-pkboff.XXXXXX)
mkdir -p "$T/a/problem_1_allreduce/cuda" "$T/a/problem_4_x/cuda/nested" \
         "$T/b/problem_1_allreduce/cuda" "$T/b/Problem_3_x/cuda"
for f in "$T/a/problem_1_allreduce/cuda" "$T/a/problem_4_x/cuda/nested" \
         "$T/b/problem_1_allreduce/cuda" "$T/b/Problem_3_x/cuda"; do
    echo '{"wall_time_ms": 0.0001}' > "$f/rank_0_perf.json"
done
for x in a b; do
    $CR check --pkb-logs "$T/$x" > /dev/null 2> "$T/err"
    echo "exit $?"
    sed "s|$T|T|g" "$T/err"
done
rm -rf "$T"
