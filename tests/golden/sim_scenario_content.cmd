# What a scenario would have ignored is an error with file:line (exit 1):
# a child element or text in <compute> or <collective>, what a rank of an
# <alltoallv> sends itself (the all-to-all moves nothing there), an entry
# over 1PB (before: refused as the derived "1.8e+15 bytes" when 3PB, and
# accepted when 1.2PB); a bare 0 needs no unit, in bytes= as in a row
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
run() {
    printf '<scenario name="s">\n  %s\n</scenario>\n' "$1" > "$d/s.xml"
    $CR sim --scenario "$d/s.xml" --topo hgx-h100-8 > "$d/out" 2>&1
    rc=$?
    grep -m1 "^commroof\|^# [a-z] " "$d/out" | sed "s|$d/||g"
    echo "exit $rc"
}
run '<compute name="a" ranks="0-1" duration="10us"><x/></compute>'
run '<collective name="b" coll="allreduce" ranks="0-1" bytes="1MB">1MB</collective>'
run '<alltoallv name="m" ranks="0-1"><row bytes="5MB 1MB"/><row bytes="1MB 0"/></alltoallv>'
run '<alltoallv name="m" ranks="0-1"><row bytes="0 1.2PB"/><row bytes="1MB 0"/></alltoallv>'
run '<collective name="z" coll="allreduce" ranks="0-1" bytes="0"/>'
# a start of more than a day (before: start="1e12s" ran, its 10 us compute 0 us long)
run '<compute name="a" ranks="0" duration="10us" start="1e12s"/>'
# root= on a collective without a root (before: ignored; sim COLL refuses --root there)
run '<collective name="s" coll="sendrecv" ranks="0-1" bytes="1MB" root="1"/>'
# text in <scenario>, in <alltoallv> and in a <row> (QA audit, session 42:
# <row bytes="0 1MB">0 2MB</row> ran the attribute's sizes unsaid)
run '<alltoallv name="m" ranks="0-1"><row bytes="0 1MB">0 2MB</row><row bytes="1MB 0"/></alltoallv>'
run '<alltoallv name="m" ranks="0-1">sizes<row bytes="0 1MB"/><row bytes="1MB 0"/></alltoallv>'
run 'stray <compute name="a" ranks="0" duration="10us"/>'
