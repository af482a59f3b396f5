# issue 18 item 3: every option takes --opt=value as well as --opt value
# (cli/opts.c), aliases too (--maxbytes for -e, --stepfactor for -f). The
# same line as coll_allreduce_h100_ring, so the same output.
$CR coll allreduce --topo=hgx-h100-8 -b 1G --maxbytes=8G --stepfactor=2 --algo=ring --proto=simple
