# An nccl-tests JSON file (-J FILE.json) reads as the text log of the same
# run: tests/fixtures/nccl-tests/dgxc-h100-8-all_reduce.json holds
# validate/corpus/h100-8/nvidia-dgxc-nccl-readme-all_reduce_perf.log's
# rows (text_to_json.py). Its rows' columns are the log's (compare
# validate's output on the log: same bound, prediction, error per size);
# only the header line says where they came from: "results[0]", the
# collective from "args" (log), the rank count from "devices".
$CR validate --nccl-tests tests/fixtures/nccl-tests/dgxc-h100-8-all_reduce.json --topo hgx-h100-8 2>&1 | grep -E '^# nccl-tests|allreduce_n=8_(8B|64MiB|16GiB) |^ +(all|nccl) +[0-9]'
$CR validate --nccl-tests validate/corpus/h100-8/nvidia-dgxc-nccl-readme-all_reduce_perf.log --topo hgx-h100-8 2>&1 | grep -E '^# nccl-tests|allreduce_n=8_(8B|64MiB|16GiB) |^ +(all|nccl) +[0-9]'
