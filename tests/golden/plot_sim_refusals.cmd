# What coll, sim and report refuse, plot and scenarios refuse alike (QA
# audit, session 42): plot compare took a topology named twice (two
# identical columns) and dropped an empty name unsaid, where report
# --compare refuses both; plot sweep drew tf32 and fp4 charts, types no
# NCCL collective moves (coll and sim exit 2); a scenario's unknown dtype
# listed tf32 and fp4 among the choices, then refused them; sim's advice
# for a direct allreduce named an option sim does not have (--mech).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
$CR plot compare --topo hgx-h200-8,hgx-h200-8 -o "$d/c.png" --no-render
echo "exit $?"
$CR plot compare --topo hgx-h200-8,,mi300x-8 -o "$d/c.png" --no-render
echo "exit $?"
$CR plot sweep allreduce --dtype tf32 -o "$d/s.png" --no-render
echo "exit $?"
$CR plot sweep alltoall --dtype fp4 -o "$d/s.png" --no-render
echo "exit $?"
ls "$d"
printf '<scenario>\n<collective name="a" coll="allreduce" bytes="1MB" dtype="bogus"/>\n</scenario>\n' > "$d/s.xml"
$CR sim --scenario "$d/s.xml" 2>&1 | sed "s|$d/||g"
$CR sim allreduce -b 1M --algo direct
echo "exit $?"
# a timeline written over its own scenario lost the input: refused, the
# file as it was
cp tests/fixtures/scenarios/moe-hot.xml "$d/s.xml"
$CR sim --scenario "$d/s.xml" --topo hgx-h100-8 --timeline "$d/s.xml" 2>&1 | sed "s|$d/||g"
cmp -s tests/fixtures/scenarios/moe-hot.xml "$d/s.xml" && echo "the scenario is intact"
