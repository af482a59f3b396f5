/* SPDX-License-Identifier: MIT */
/*
 * roofline: what roofline.c shares with roofline_aten.c, its table of
 * PyTorch operators. Nothing outside validate/ includes this.
 */
#ifndef CR_ROOFLINE_PRIV_H
#define CR_ROOFLINE_PRIV_H

#include <stdbool.h>

#include "roofline.h"
#include "traces/reader/trace_reader.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* What a call's GPU activities show besides their time: whether it
 * launched kernels, and its copies (the first one's direction and host
 * memory, the bytes of all of them). */
typedef struct {
    bool kernel, copy;
    double copy_bytes;
    cr_copy_kind copy_kind;
    bool copy_pinned;
} cr_rf_owned;

/* The catalog case of one aten operator: the catalog operator and its
 * "name=value" parameters, and a note (why there is no case, or what the
 * case leaves out). */
typedef struct {
    const char *op;
    int n;
    char k[8][16];
    char v[8][32];
    char note[160];
    bool copy_kernel; /* a copy kernel: the element type read is in no name */
} cr_rf_case;

/* The catalog case of the aten call pn whose activities are own: true and
 * *m filled, or false with m->note saying why it has none (an operator
 * the table lacks, sizes it cannot read). */
bool cr_rf_map_aten(const cr_rf_name *pn, const cr_rf_owned *own, cr_rf_case *m);

#pragma GCC visibility pop

#endif
