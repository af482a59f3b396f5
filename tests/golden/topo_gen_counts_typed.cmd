# topo gen's counts are digits only, as --oversub is read (topo_gen_usage):
# strtol took a leading blank or '+' (QA audit: --nodes " 4", --nodes +4,
# --rails, --leaf-radix, --racks all exited 0). A flag given twice is
# refused as every option with a value is (opts_empty_value): --sharp
# --sharp was taken silently; the shared parser (cli/opts.c) now refuses it
# for every command's flags (coll --json --json), save one that opens a list
# of files, which may open it again (calibrate --nccl-tests A --nccl-tests B:
# 2 logs, as validate's repeated --nccl-tests).
t() { "$@" > /dev/null; echo "exit $?"; }
t $CR topo gen fat-tree --nodes " 4" --node hgx-h100-8
t $CR topo gen fat-tree --nodes +4 --node hgx-h100-8
t $CR topo gen fat-tree --nodes "4 " --node hgx-h100-8
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --rails " 8"
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --rails +8
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --leaf-radix +64
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --leaf-radix " 64"
t $CR topo gen nvl --racks " 1"
t $CR topo gen nvl --racks +1
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --rails 8 --leaf-radix 64
t $CR topo gen nvl --racks 1 --sharp --sharp
t $CR topo gen fat-tree --nodes 4 --node hgx-h100-8 --sharp --sharp
t $CR coll allreduce --topo hgx-h100-8 -b 1M -e 1M --json --json
L=tests/fixtures/nccl-tests
$CR calibrate --nccl-tests $L/h100-8-all_reduce_perf.log --nccl-tests $L/h100-8-1proc-all_gather_perf.log --topo hgx-h100-8 -o /dev/null 2>&1 | head -1
