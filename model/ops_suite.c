/* SPDX-License-Identifier: MIT */
/* Evaluation of a whole suite into rows (see cr_op_eval_suite in ops.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "ops.h"
#include "ops_priv.h"
#include "suite.h"

cr_status cr_op_eval_suite(const cr_topo *t, const struct cr_suite *s, cr_op_row **rows, int *n,
                           cr_diag *d)
{
    *rows = NULL;
    *n = 0;
    cr_op_row *out = calloc((size_t)(s->n_problems > 0 ? s->n_problems : 1), sizeof *out);
    if (!out)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    /* the problems' groups are opened once: pkb's 36 collectives all run on
     * ranks 0-7, whose context took 0.1 s each on a 65,536-GPU cluster */
    ops_group_cache cache = {0};
    for (int i = 0; i < s->n_problems; i++) {
        const cr_suite_problem *pr = &s->problems[i];
        cr_op_row *row = &out[i];
        row->name = pr->name;
        row->category = pr->category;
        row->op = cr_op_name(pr->op);
        cr_op_result r;
        cr_diag sub = {{0}};
        row->status = ops_eval_cached(t, pr->op, &pr->params, &r, &cache, &sub);
        if (row->status == CR_ENOMEM) {
            /* not the problem's fault: a skipped row would hide it under
             * exit 0 (QA audit of allocation failures) */
            ops_group_cache_free(&cache);
            free(out);
            return cr_diag_set(d, CR_ENOMEM, "problem \"%s\": %s", pr->name,
                               sub.msg[0] ? sub.msg : "out of memory");
        }
        if (row->status != CR_OK) {
            snprintf(row->error, sizeof row->error, "%.250s", sub.msg);
            continue;
        }
        row->flops = r.flops;
        row->hbm_bytes = r.hbm_bytes;
        row->comm_bytes = r.comm_bytes;
        row->bound_us = r.bound_s * 1e6;
        row->bound_cold_us = r.bound_cold_s * 1e6;
        row->baseline_us = r.baseline_s * 1e6;
        row->pred_us = r.pred_s * 1e6;
        row->headroom = r.headroom;
        row->ranks = r.ranks;
        cr_str_copy(row->binding, sizeof row->binding, r.binding);
        cr_str_copy(row->schedule, sizeof row->schedule, r.schedule);
    }
    ops_group_cache_free(&cache);
    *rows = out;
    *n = s->n_problems;
    return CR_OK;
}
