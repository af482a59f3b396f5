# the program roofline's --dtype and --top without the traces they apply
# to are usage errors, not options dropped without a word (QA audit of the
# documentation examples: the report was written, exit 0, as if they had
# been used)
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
t() { "$@" > "$d/o" 2>&1; rc=$?; sed "s|$d/||g" "$d/o"; echo "exit $rc"; }
t $CR report --top 5 --no-render -o "$d/r"
t $CR report --dtype bf16 --no-render -o "$d/r"
ls "$d"
