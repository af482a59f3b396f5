#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds every libFuzzer target tests/fuzz/fuzz_*.c with clang (ASan + UBSan
# + libFuzzer) into build-fuzz/ and, with "run", fuzzes each for FUZZ_SECONDS
# (default 60):
#
#   tests/fuzz/build.sh                  build every target
#   tests/fuzz/build.sh run              build, then fuzz every target
#   tests/fuzz/build.sh [run] units ...  only the targets named (fuzz_units.c)
#   FUZZ_PARALLEL=1 tests/fuzz/build.sh run   every target at once
#
# Every target links an instrumented libcommroof: all library sources, as the
# Makefile lists them (model/ traces/reader/ validate/ plots/), plus the
# shipped topologies and suites embedded as the Makefile does it. A target's
# header comment adds what else it needs, one line each:
#
#   * fuzz-sources: FILE.c ...   more sources compiled into it
#   * fuzz-cflags: FLAGS         more compiler flags
#   * fuzz-needs: PATH           skip it (saying so) where PATH does not exist
#   * fuzz-max-len: N            -max_len when fuzzing (default 65536)
#   * fuzz-seeds: DIR ...        seed folders besides tests/fuzz/corpus/NAME/
#
# Crashes land in build-fuzz/. The unit tests replay tests/fuzz/corpus/
# through the same entry points on every make test. CC (default clang) must
# support -fsanitize=fuzzer; FUZZ_BUILD sets the folder; FUZZ_JOBS (default
# 2) the parallel compiles.
set -eu
cd "$(dirname "$0")/../.."
OUT=${FUZZ_BUILD:-build-fuzz}
CC=${CC:-clang}
JOBS=${FUZZ_JOBS:-2}
PKGS="libxml-2.0 jansson zlib"
pkg-config --exists $PKGS || { echo "build.sh: pkg-config cannot find $PKGS (run make deps)" >&2; exit 1; }
command -v "$CC" >/dev/null 2>&1 || { echo "build.sh: no compiler \"$CC\" (install clang, or set CC)" >&2; exit 1; }
mkdir -p "$OUT/libobj"
# UBSan findings abort (-fno-sanitize-recover) as they do in make SAN=1, so a
# run over the corpus fails on them instead of printing and going on.
FLAGS="-std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all -I. -Imodel $(pkg-config --cflags $PKGS)"
LIBS="$(pkg-config --libs $PKGS) -lm"

# A header field of target $1: the text after " * fuzz-$2:" (empty if none).
field() { sed -n "s/^ \* fuzz-$2: *//p" "$1" | head -n 1; }

# The instrumented library, rebuilt only where a source is newer.
$CC -std=c11 -O1 -o "$OUT/embed" tools/embed.c
"$OUT/embed" topo topologies/*.xml -- suite $(ls suites/*.xml 2>/dev/null) >"$OUT/embedded.c.tmp"
if cmp -s "$OUT/embedded.c.tmp" "$OUT/embedded.c"; then rm -f "$OUT/embedded.c.tmp"; else mv "$OUT/embedded.c.tmp" "$OUT/embedded.c"; fi
LIBSRC="$(ls model/*.c traces/reader/*.c validate/*.c plots/*.c 2>/dev/null) $OUT/embedded.c"
for f in $LIBSRC; do
    o="$OUT/libobj/$(echo "$f" | tr / _ | sed 's/\.c$/.o/')"
    if [ ! -f "$o" ] || [ "$f" -nt "$o" ] || [ -n "$(find model traces/reader validate plots -name '*.h' -newer "$o" 2>/dev/null | head -n 1)" ]; then
        echo "$CC $FLAGS -fsanitize=fuzzer-no-link -c -o $o $f"
    fi
done | xargs -P "$JOBS" -I{} sh -c '{}'
rm -f "$OUT/libcommroof-fuzz.a"
ar rcs "$OUT/libcommroof-fuzz.a" "$OUT"/libobj/*.o

targets=""
if [ $# -gt 0 ] && [ "$1" = run ]; then run=1; shift; else run=0; fi
if [ $# -gt 0 ]; then
    for n in "$@"; do targets="$targets tests/fuzz/fuzz_${n#fuzz_}.c"; done
else
    targets=$(ls tests/fuzz/fuzz_*.c)
fi
built=""
for src in $targets; do
    [ -f "$src" ] || { echo "build.sh: no target $src" >&2; exit 2; }
    name=$(basename "$src" .c)
    need=$(field "$src" needs)
    if [ -n "$need" ] && [ ! -e "$need" ]; then
        echo "skipped $name: needs $need"
        continue
    fi
    # word splitting of the header's lists is intended
    # shellcheck disable=SC2046
    $CC $FLAGS $(field "$src" cflags) -fsanitize=fuzzer -o "$OUT/$name" "$src" \
        $(field "$src" sources) "$OUT/libcommroof-fuzz.a" $LIBS
    echo "built $OUT/$name"
    built="$built $src"
done

[ "$run" = 1 ] || exit 0
secs=${FUZZ_SECONDS:-60}
# FUZZ_PARALLEL=1: every target at once (a machine with a core for each),
# each one's output in $OUT/NAME.log, its last status line printed at the end
par=${FUZZ_PARALLEL:-0} pids=""
for src in $built; do
    name=$(basename "$src" .c)
    short=${name#fuzz_}
    corpus="$OUT/corpus/$short"
    mkdir -p "$corpus"
    for d in "tests/fuzz/corpus/$short" $(field "$src" seeds); do
        [ -d "$d" ] && find "$d" -maxdepth 1 -type f -exec cp {} "$corpus/" \;
    done
    len=$(field "$src" max-len)
    echo "== fuzzing $name for ${secs}s"
    if [ "$par" = 1 ]; then
        "$OUT/$name" -max_total_time="$secs" -max_len="${len:-65536}" -timeout=10 -rss_limit_mb=4096 \
            -artifact_prefix="$OUT/$name-" "$corpus" >"$OUT/$name.log" 2>&1 &
        pids="$pids $!"
    else
        "$OUT/$name" -max_total_time="$secs" -max_len="${len:-65536}" -timeout=10 -rss_limit_mb=4096 \
            -artifact_prefix="$OUT/$name-" "$corpus"
    fi
done
if [ "$par" = 1 ]; then
    fail=0
    for p in $pids; do
        wait "$p" || fail=1
    done
    for src in $built; do
        name=$(basename "$src" .c)
        # libFuzzer's last progress line ("#N DONE ... exec/s ...") or its crash report
        printf '%-22s %s\n' "$name" "$(grep -E '^#[0-9]+[[:space:]]+DONE|ERROR: |SUMMARY: ' "$OUT/$name.log" | tail -n 1)"
    done
    [ "$fail" = 0 ] || { echo "build.sh: a target failed (its log: $OUT/NAME.log)" >&2; exit 1; }
fi
