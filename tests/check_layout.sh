#!/bin/sh
# SPDX-License-Identifier: MIT
# Rules a change can break without any other test noticing: issue 18's
# size rule, no source file of model/, validate/, cli/ or plots/ over 1,600
# lines (split it along its seams instead; validate/roofline.c had grown to
# 1,629 before this check existed); and every topology parameter key the
# sources use listed where <param> is checked.
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
# Every topology parameter key the sources read or write by name is one a
# <param> may set (model/params.c: its table, or other_keys), or loading a
# topology that sets it would be refused as unknown.
keys=$(grep -rhoE '(cr_topo_(find_)?param|ceil_param|cr_topo_set_param)\([a-zA-Z_>.-]+, "[a-z0-9_.]+"|SET\("[a-z0-9_.]+"' \
    model validate plots cli | grep -oE '"[a-z0-9_.]+"$' | sort -u)
for k in $keys; do
    if ! grep -qF "$k" model/params.c; then
        echo "check_layout: the key $k is read or written but model/params.c does not list it (other_keys or the table): a topology setting it would be refused"
        fails=$((fails + 1))
    fi
done
[ -n "$keys" ] || { echo "check_layout: found no parameter key in the sources (the pattern is stale)"; fails=$((fails + 1)); }
if [ "$fails" -ne 0 ]; then
    echo "check_layout: FAILED ($fails)"
    exit 1
fi
echo "check_layout: OK"
