#!/bin/sh
# SPDX-License-Identifier: MIT
# No mutable global state in the library (CONVENTIONS.md: two topologies,
# or two threads, in one process): no object of libcommroof defines a
# variable in a writable section (.data, .bss, .data.rel.local, thread-local
# ones); .data.rel.ro, which the loader makes read-only after relocation,
# may hold const tables of pointers. A `static const char *names[]` (the
# pointers writable) sat in .data.rel.local of coll_names.o and topo.o (QA
# audit of re-entrancy), and three more in bound.c, units.c and validate.c
# that only the -O1 sanitizer build keeps there (the optimiser folds them
# away otherwise): the check reads symbols, not section sizes, so it holds
# in both builds; a sanitizer's own data (unnamed, or __odr_asan.*) is not
# ours. A static cache or counter lands in .bss. Usage:
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
# objdump -t: "ADDRESS FLAGS SECTION SIZE NAME", FLAGS "l     O" for a
# local object (fields 2 and 3 to awk)
bad=$(for o in $objs; do
    "$OBJDUMP" -t "$o" | awk -v o="$o" '
        $3 == "O" && $4 ~ /^\.(data|bss|tdata|tbss)/ && $4 !~ /^\.data\.rel\.ro/ &&
        $NF !~ /^__(odr_)?asan/ && $NF !~ /^__ubsan/ {
            print o ": " $NF " (" $4 ")" }'
done)
if [ -n "$bad" ]; then
    echo "$bad"
    echo "check_globals: FAILED (library objects with writable global state: make them const," \
        "or move the state into the caller's object)"
    exit 1
fi
echo "check_globals: OK ($(echo "$objs" | wc -l) objects)"
