# Issue 13 item 3: an output that is a character device is written in place,
# never replaced by a regular file through the temporary-and-rename that
# regular files get. As root the devices are mknod'ed in a temporary folder
# (so that a regression replaces only those, not the machine's /dev/null);
# otherwise the real /dev/null and /dev/full serve (a regression cannot
# write /dev, and fails there too).
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
if mknod "$d/null" c 1 3 2>/dev/null && mknod "$d/full" c 1 7 2>/dev/null; then
    null=$d/null full=$d/full
else
    null=/dev/null full=/dev/full
fi
t() {
    out=$(timeout 10 "$@" 2>&1)
    rc=$?
    printf '%s\n' "$out" | sed -e "s|$null|NULL|g" -e "s|$full|FULL|g"
    echo "exit $rc"
}
e() { t sh -c '"$0" "$@" >/dev/null' "$@"; } # stderr only
dump=tests/fixtures/nccl/hgx-h200-baremetal.xml
e $CR sim allreduce --topo hgx-h200-8 -b 1M --timeline "$null" --top 0
test -c "$null" && echo "timeline: NULL is still a character device"
t $CR topo import-nccl "$dump" -o "$null"
test -c "$null" && echo "import-nccl: NULL is still a character device"
# /dev/full: the write error (ENOSPC) is reported, exit 1, the device stays
e $CR sim allreduce --topo hgx-h200-8 -b 1M --timeline "$full" --top 0
test -c "$full" && echo "timeline: FULL is still a character device"
t $CR topo import-nccl "$dump" -o "$full"
test -c "$full" && echo "import-nccl: FULL is still a character device"
