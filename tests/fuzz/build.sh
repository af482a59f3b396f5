#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds the libFuzzer targets with clang (ASan + UBSan + libFuzzer) into
# build-fuzz/ and, with "run", fuzzes each for FUZZ_SECONDS (default 60):
#
#   tests/fuzz/build.sh            build only
#   tests/fuzz/build.sh run        build, then fuzz every target
#
# Seeds: tests/fuzz/corpus/<target>/ plus, for topology XML, the fixtures
# and the shipped topologies. Crashes land in build-fuzz/. The unit tests
# replay tests/fuzz/corpus/ through the same entry points on every make test.
set -eu
cd "$(dirname "$0")/../.."
OUT=${FUZZ_BUILD:-build-fuzz}
CC=${CC:-clang}
mkdir -p "$OUT/obj"
FLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined,fuzzer-no-link -I. -Imodel $(pkg-config --cflags libxml-2.0)"
SRC="model/units.c model/status.c model/dtype.c model/topo.c model/topo_xml.c"
# The shipped topology table, generated the way the Makefile does it.
$CC -std=c11 -O1 -o "$OUT/embed" tools/embed.c
"$OUT/embed" topo topologies/*.xml -- suite $(ls suites/*.xml 2>/dev/null) > "$OUT/embedded.c"
objs=""
for f in $SRC "$OUT/embedded.c"; do
    o="$OUT/obj/$(basename "$f" .c).o"
    $CC $FLAGS -c -o "$o" "$f"
    objs="$objs $o"
done
for t in topo_xml units; do
    $CC $FLAGS -fsanitize=fuzzer -o "$OUT/fuzz_$t" "tests/fuzz/fuzz_$t.c" $objs \
        $(pkg-config --libs libxml-2.0) -lm
    echo "built $OUT/fuzz_$t"
done
if [ "${1:-}" = run ]; then
    secs=${FUZZ_SECONDS:-60}
    mkdir -p "$OUT/corpus/topo_xml" "$OUT/corpus/units"
    cp tests/fuzz/corpus/topo_xml/* tests/fixtures/xml/*.xml topologies/*.xml "$OUT/corpus/topo_xml/" 2>/dev/null || true
    cp tests/fuzz/corpus/units/* "$OUT/corpus/units/"
    "$OUT/fuzz_topo_xml" -max_total_time="$secs" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="$OUT/" "$OUT/corpus/topo_xml"
    "$OUT/fuzz_units" -max_total_time="$secs" -max_len=64 -artifact_prefix="$OUT/" "$OUT/corpus/units"
fi
