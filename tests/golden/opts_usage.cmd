# issue 18 item 3: the option parser's own usage errors (exit 2), the same
# in every command: a value given to a flag (--flag=value), a short option
# spelt with '=' (only long ones take it: -b=1M gives -b the value "=1M", as
# getopt does, which is no size), a value missing at the end.
t() { "$@" 2>&1 >/dev/null; echo "exit $?"; }
F=tests/fixtures/traces/minimal.json
t $CR coll allreduce --json=1
t $CR sim allreduce -b 1MB --per-rank=yes
t $CR validate --summary=1 $F
t $CR op gemm --cold=1
t $CR check gemm --measured-us 5 --cold=no
t $CR topo list --json=true
t $CR trace summary $F --full-names=0
t $CR coll allreduce -b=1M
t $CR sim allreduce --topo
t $CR coll allreduce -e
