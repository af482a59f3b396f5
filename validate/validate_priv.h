/* SPDX-License-Identifier: MIT */
/*
 * validate: what validate.c shares with the other files of validate/
 * (nccl_log.c). Nothing outside validate/ includes this.
 */
#ifndef CR_VALIDATE_PRIV_H
#define CR_VALIDATE_PRIV_H

#include "coll.h"
#include "validate.h"

/* Appends a zeroed measurement (rank and world_size -1) to l and returns
 * it (borrowed: valid until the next push), or NULL when out of memory. */
cr_vmeas *cr_vlist_push(cr_vmeas_list *l);

/* Sets m->label from its case keys ("allreduce n=8 1MiB"). */
void cr_vmeas_make_label(cr_vmeas *m);

/* The collective request validate evaluates for case m (an nccl, p2p or
 * fused share of coll over n ranks moving bytes, by mechanism mech): its
 * dtype, algorithm and protocol keys, out of place as nccl-tests and
 * crbench time it, one process driving every GPU (rank=-1) or nccl-tests'
 * -g G host loop (gpus_per_thread). calibrate --nccl-tests fits against
 * the same request, so a fitted topology predicts what validate shows. */
cr_coll_req cr_vmeas_coll_req(const cr_vmeas *m, cr_coll coll, double bytes, int n, cr_mech mech);

#endif
