# A folder of trace folders: its subfolders are not read, and the message
# says so and how to give them (it said only "no trace file ... reads");
# a folder given with its trailing '/' names its files without a doubled
# slash (QA audit, session 41)
T=$(mktemp -d /tmp/cr-golden-sub.XXXXXX)
mkdir -p "$T/top/a" "$T/top/b" "$T/one"
cp traces/h200-1/kernels-hbm.json "$T/top/a/"
cp traces/h200-1/kernels-hbm.json "$T/top/b/"
printf 'not json\n' > "$T/one/bad.json"
$CR roofline "$T/top" --topo h200-1 2>&1 | sed "s|$T|T|g"
$CR validate "$T/top/" --topo h200-1 2>&1 | sed "s|$T|T|g"
$CR roofline "$T/one/" --topo h200-1 2>&1 | sed "s|$T|T|g"
rm -rf "$T"
