#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 18's size rule, which a change can break without any other test
# noticing: no source file of model/, validate/, cli/ or plots/ over 1,600
# lines (split it along its seams instead; validate/roofline.c had grown to
# 1,629 before this check existed).
set -u
cd "$(dirname "$0")/.." || exit 1
LIMIT=1600
fails=0
for f in model/*.c model/*.h validate/*.c validate/*.h cli/*.c cli/*.h plots/*.c plots/*.h; do
    n=$(wc -l <"$f")
    if [ "$n" -gt "$LIMIT" ]; then
        echo "check_layout: $f has $n lines, over the $LIMIT a source file of model/, validate/, cli/ or plots/ may have: split it where it has seams"
        fails=$((fails + 1))
    fi
done
if [ "$fails" -ne 0 ]; then
    echo "check_layout: FAILED ($fails)"
    exit 1
fi
echo "check_layout: OK"
