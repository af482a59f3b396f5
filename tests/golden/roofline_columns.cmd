# roofline's text table keeps one field per column up to the free-text
# last one: a kernel name with blanks ("(anonymous namespace)") is written
# with underscores, so awk and gnuplot read calls and median time where
# they are on every row (5 rows of this trace had them shifted)
$CR roofline traces/h200-1/roofline-demo/torch_roofline.json.gz --topo h200-1 --dtype bf16 |
    awk '/^  / { n++; if ($3 !~ /^[0-9]+$/ || $4 !~ /^[0-9.]+$/) bad++ }
         END { print n " rows, " bad + 0 " with calls or median out of place" }'
