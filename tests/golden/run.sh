#!/bin/sh
# SPDX-License-Identifier: MIT
# Golden CLI tests. Each tests/golden/NAME.cmd holds one command line (the
# binary is $CR); NAME.out holds the expected stdout+stderr and NAME.rc the
# expected exit status (0 when absent). Regenerate with GOLDEN_UPDATE=1, then
# read the diff before committing: the expected text must be checked by a
# person against a derivation, not pasted.
set -u
CR=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export CR
cd "$(dirname "$0")/../.." || exit 1
fail=0
n=0
for cmd in tests/golden/*.cmd; do
    [ -f "$cmd" ] || continue
    n=$((n + 1))
    name=${cmd%.cmd}
    want_rc=0
    [ -f "$name.rc" ] && want_rc=$(cat "$name.rc")
    got=$(sh "$cmd" 2>&1)
    rc=$?
    if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
        printf '%s\n' "$got" > "$name.out"
        # a case that now exits 0 loses its .rc: a stale one fails the
        # next plain run (suite_name_blanks kept a 1 from its bad fixture)
        if [ "$rc" != 0 ]; then echo "$rc" > "$name.rc"; else rm -f "$name.rc"; fi
        continue
    fi
    if [ "$rc" != "$want_rc" ]; then
        echo "FAIL $name: exit $rc, expected $want_rc"; echo "$got" | head -20; fail=1; continue
    fi
    if ! printf '%s\n' "$got" | diff -u "$name.out" - > /tmp/golden.$$; then
        echo "FAIL $name: output differs"; head -40 /tmp/golden.$$; fail=1
    fi
done
rm -f /tmp/golden.$$
if [ $fail -ne 0 ]; then echo "golden tests: FAILED"; exit 1; fi
echo "golden tests: OK ($n)"
