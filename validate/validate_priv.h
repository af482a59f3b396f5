/* SPDX-License-Identifier: MIT */
/*
 * validate: what validate.c shares with the other files of validate/
 * (nccl_log.c). Nothing outside validate/ includes this.
 */
#ifndef CR_VALIDATE_PRIV_H
#define CR_VALIDATE_PRIV_H

#include "validate.h"

/* Appends a zeroed measurement (rank and world_size -1) to l and returns
 * it (borrowed: valid until the next push), or NULL when out of memory. */
cr_vmeas *cr_vlist_push(cr_vmeas_list *l);

/* Sets m->label from its case keys ("allreduce n=8 1MiB"). */
void cr_vmeas_make_label(cr_vmeas *m);

#endif
