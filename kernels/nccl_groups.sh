# SPDX-License-Identifier: MIT
# Sourced (sh/bash), not run: the arguments of the multi-GPU NCCL captures,
# in one place for the scripts that run them (kernels/multigpu_sweep.sh,
# kernels/torchrun_sweep.sh) and tests/check_kernels.sh, which checks that
# the committed traces (traces/nvidia-h200-x2/kernels-nccl-ALGO-PROTO.json.gz,
# torchrun-nccl-rank<R>.json.gz) hold exactly the cases they name.
#
# Forced NCCL_ALGO x NCCL_PROTO; Ring runs the collectives NCCL implements
# with rings, Tree allreduce (NCCL's only tree collective), auto adds the
# point-to-point ones (alltoall, sendrecv), which no NCCL_ALGO changes.
CR_NCCL_ALGOS="Ring Tree auto"
CR_NCCL_PROTOS="Simple LL128 LL"
# crbench nccl arguments of every group but --colls: 8 B - 8 GiB by x4
CR_NCCL_GROUP_ARGS="--min-bytes 8 --max-bytes 8G --target-ms 10"

# cr_nccl_colls ALGO: the --colls list of that group
cr_nccl_colls() {
    case $1 in
    Ring) echo allreduce,allgather,reducescatter,broadcast,reduce ;;
    Tree) echo allreduce ;;
    *) echo allreduce,allgather,reducescatter,alltoall,broadcast,reduce,sendrecv ;;
    esac
}

# cr_nccl_budget_s ALGO: the seconds one group may take in the device call
cr_nccl_budget_s() {
    case $1 in
    Ring) echo 18 ;;
    Tree) echo 10 ;;
    *) echo 20 ;;
    esac
}

# crbench arguments of the one-process-per-GPU sweep (kernels/torchrun_sweep.sh;
# traces/nvidia-h200-x2/torchrun-nccl-rank<R>.json.gz): 1 KiB - 1 GiB, auto
CR_TORCHRUN_NCCL_ARGS="nccl --colls allreduce,allgather,reducescatter,alltoall,sendrecv --max-bytes 1073741824"
