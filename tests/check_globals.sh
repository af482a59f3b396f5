#!/bin/sh
# SPDX-License-Identifier: MIT
# No mutable global state in the library (CONVENTIONS.md: two topologies,
# or two threads, in one process): every object of libcommroof has empty
# writable sections (.data, .bss, .data.rel.local, thread-local ones);
# .data.rel.ro, which the loader makes read-only after relocation, may hold
# const tables of pointers. A `static const char *names[]` (the pointers
# writable) sat in .data.rel.local of coll_names.o and topo.o (QA audit of
# re-entrancy); a static cache or counter lands in .bss. Usage:
# BUILD=build tests/check_globals.sh [commroof]
BUILD=${BUILD:-build}
OBJDUMP=${OBJDUMP:-objdump}
if ! command -v "$OBJDUMP" >/dev/null 2>&1; then
    echo "check_globals: skipped (no $OBJDUMP)"
    exit 0
fi
objs=$(find "$BUILD/model" "$BUILD/validate" "$BUILD/plots" "$BUILD/traces/reader" \
    -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || { echo "check_globals: no objects under $BUILD"; exit 1; }
# objdump -h: "Idx Name Size ..."; a writable section other than relro
bad=$(for o in $objs; do
    "$OBJDUMP" -h "$o" | awk -v o="$o" '
        $2 ~ /^\.(data|bss|tdata|tbss)/ && $2 !~ /^\.data\.rel\.ro/ && $3 !~ /^0+$/ {
            print o ": " $2 " holds 0x" $3 " bytes" }'
done)
if [ -n "$bad" ]; then
    echo "$bad"
    for o in $(echo "$bad" | cut -d: -f1 | sort -u); do
        "$OBJDUMP" -t "$o" | awk '$4 ~ /^\.(data|bss|tdata|tbss)/ && $4 !~ /rel\.ro/ && $3 == "O" {
            print "  " $NF " (" $4 ")" }'
    done
    echo "check_globals: FAILED (library objects with writable global state: make them const," \
        "or move the state into the caller's object)"
    exit 1
fi
echo "check_globals: OK ($(echo "$objs" | wc -l) objects)"
