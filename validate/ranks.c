/* SPDX-License-Identifier: MIT */
/*
 * validate: one process per GPU (torchrun, mpirun), each rank traced into
 * its own file: the rank of a trace file's name, and the merge of the
 * ranks' shares of a case into one measurement (validate.h
 * cr_validate_merge_ranks).
 */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sbuf.h"
#include "validate.h"
#include "validate_priv.h"

int cr_validate_rank_from_name(const char *path)
{
    const char *b = cr_vbase_name(path);
    for (const char *p = strstr(b, "rank"); p; p = strstr(p + 1, "rank")) {
        if (p == b || !(p[-1] == '.' || p[-1] == '-' || p[-1] == '_'))
            continue;
        const char *q = p + 4;
        long v = 0;
        int digits = 0;
        while (isdigit((unsigned char)*q) && digits < 7)
            v = v * 10 + (*q++ - '0'), digits++;
        if (digits > 0 && (*q == '.' || *q == '-' || *q == '_' || *q == '\0'))
            return (int)v;
    }
    return -1;
}

/* Orders two cases by family, then their keys and values in order, the rank
 * key left out: 0 when they are the same case but for their rank. */
static int case_cmp(const cr_vmeas *a, const cr_vmeas *b)
{
    if (a->c.family != b->c.family)
        return a->c.family < b->c.family ? -1 : 1;
    int i = 0, j = 0;
    for (;;) {
        while (i < a->c.n_keys && !strcmp(a->c.kv[i].key, "rank"))
            i++;
        while (j < b->c.n_keys && !strcmp(b->c.kv[j].key, "rank"))
            j++;
        if (i == a->c.n_keys || j == b->c.n_keys)
            return (i < a->c.n_keys) - (j < b->c.n_keys);
        int c = strcmp(a->c.kv[i].key, b->c.kv[j].key);
        if (!c)
            c = strcmp(a->c.kv[i].value, b->c.kv[j].value);
        if (c)
            return c;
        i++;
        j++;
    }
}

/* One process's share of a multi-process case: it has a rank and ran on one
 * device, of a job (world size, or the case's nranks) of several. Returns
 * the job's size, or 0 when m is not such a share. */
static int job_size(const cr_vmeas *m)
{
    if (m->rank < 0)
        return 0;
    int n = m->world_size;
    if (n < 2)
        n = (int)cr_vnum_or(&m->c, "nranks", cr_vnum_or(&m->c, "ranks", 0));
    return n >= 2 && m->devices <= 1 ? n : 0;
}

/* A measurement in the sorts of cr_validate_merge_ranks(). */
typedef struct {
    const cr_vmeas *m;
    size_t i;
    int occ;
} mref;

static int cmp3(long long a, long long b)
{
    return (a > b) - (a < b);
}

/* By case, rank, position: a case's runs on one rank in a row, in order. */
static int cmp_case_rank(const void *pa, const void *pb)
{
    const mref *a = pa, *b = pb;
    int c = case_cmp(a->m, b->m);
    if (!c)
        c = cmp3(a->m->rank, b->m->rank);
    return c ? c : cmp3((long long)a->i, (long long)b->i);
}

/* What must agree for shares to merge (all but the position). */
static int cmp_share_key(const mref *a, const mref *b)
{
    int c = case_cmp(a->m, b->m);
    if (!c)
        c = cmp3(a->occ, b->occ);
    if (!c)
        c = cmp3(a->m->n_iter, b->m->n_iter);
    if (!c)
        c = cmp3(a->m->world_size, b->m->world_size);
    return c ? c : strcmp(a->m->host, b->m->host);
}

static int cmp_share(const void *pa, const void *pb)
{
    const mref *a = pa, *b = pb;
    int c = cmp_share_key(a, b);
    return c ? c : cmp3((long long)a->i, (long long)b->i);
}

cr_status cr_validate_merge_ranks(cr_vmeas_list *l, cr_vmerge_info *info, cr_diag *d)
{
    cr_vmerge_info inf = {0};
    size_t n = l->n;
    int *grp = malloc((n ? n : 1) * sizeof *grp);
    int *occ = malloc((n ? n : 1) * sizeof *occ);
    mref *ref = malloc((n ? n : 1) * sizeof *ref);
    size_t *mem = malloc((n ? n : 1) * sizeof *mem);
    double *t = NULL, *t1 = NULL;
    size_t tn = 0;
    for (size_t i = 0; i < n; i++)
        if (l->v[i].n_iter > 0 && (size_t)l->v[i].n_iter > tn)
            tn = (size_t)l->v[i].n_iter;
    t = malloc((tn ? tn : 1) * sizeof *t);
    t1 = malloc((tn ? tn : 1) * sizeof *t1);
    cr_status rc = CR_OK;
    if (!grp || !occ || !ref || !mem || !t || !t1) {
        rc = cr_diag_set(d, CR_ENOMEM, "merging ranks: out of memory");
        goto out;
    }
    /* occ: how many earlier measurements of the same case the same rank had
     * (the k-th run of a case on one rank pairs with the k-th on another):
     * its place in its (case, rank) run once sorted, not a count over every
     * earlier measurement (that was quadratic: 12.6 s for 20,000 rows). */
    for (size_t i = 0; i < n; i++) {
        ref[i] = (mref){&l->v[i], i, 0};
        grp[i] = -1;
    }
    if (n > 1)
        qsort(ref, n, sizeof *ref, cmp_case_rank);
    for (size_t i = 0; i < n; i++) {
        bool same =
            i > 0 && ref[i].m->rank == ref[i - 1].m->rank && case_cmp(ref[i].m, ref[i - 1].m) == 0;
        occ[ref[i].i] = same ? occ[ref[i - 1].i] + 1 : 0;
    }
    /* The shares that merge: one group per (case, occ, iterations, world
     * size, host), members in list order, the first the group's head. One
     * rank appears at most once in a group (its runs of a case differ in
     * occ). */
    size_t ns = 0;
    for (size_t i = 0; i < n; i++) {
        int job = job_size(&l->v[i]);
        /* a rank outside its job cannot be one of its shares */
        if (job && l->v[i].rank >= job) {
            rc = cr_diag_set(d, CR_EINVAL,
                             "%s: rank %d of a %d-rank job (case \"%.60s\"): its ranks are 0 to "
                             "%d; the trace's metadata.rank (or file name, or rank= key) or its "
                             "world_size is wrong",
                             l->v[i].source, l->v[i].rank, job, l->v[i].label, job - 1);
            goto out;
        }
        if (job && l->v[i].n_iter >= 1)
            ref[ns++] = (mref){&l->v[i], i, occ[i]};
    }
    if (ns > 1)
        qsort(ref, ns, sizeof *ref, cmp_share);
    for (size_t g0 = 0, g1; g0 < ns; g0 = g1) {
        for (g1 = g0 + 1; g1 < ns && cmp_share_key(&ref[g0], &ref[g1]) == 0; g1++)
            ;
        size_t k = g1 - g0;
        if (k < 2)
            continue;
        for (size_t q = 0; q < k; q++) {
            mem[q] = ref[g0 + q].i;
            grp[mem[q]] = (int)mem[0];
        }
        cr_vmeas *m = &l->v[mem[0]];
        size_t it = (size_t)m->n_iter;
        /* The shares of one collective overlap in time: no rank finishes
         * its iterations before the last rank has started them. Shares that
         * do not (a run's rank paired with another run's, a clock without
         * its ts_base_ns) are not one case; merged, the result would be one
         * rank's own span, silently. */
        {
            double w0 = -INFINITY, w1 = INFINITY;
            size_t q0 = 0, q1 = 0;
            bool no_base = false;
            for (size_t q = 0; q < k; q++) {
                const cr_vmeas *o = &l->v[mem[q]];
                double off = (double)(o->ts_base_ns - m->ts_base_ns) * 1e-9;
                double s = l->iter_s[o->iter_off] + off, e = l->iter_s[o->iter_off + it] + off;
                for (size_t g = 1; g < it; g++) {
                    s = fmin(s, l->iter_s[o->iter_off + g] + off);
                    e = fmax(e, l->iter_s[o->iter_off + it + g] + off);
                }
                if (s > w0)
                    w0 = s, q0 = q;
                if (e < w1)
                    w1 = e, q1 = q;
                no_base |= o->ts_base_ns == 0;
            }
            if (w0 > w1) {
                const cr_vmeas *a = &l->v[mem[q1]], *b = &l->v[mem[q0]];
                rc = cr_diag_set(
                    d, CR_EINVAL,
                    "%s (rank %d) and %s (rank %d): case \"%.60s\": rank %d's iterations end "
                    "%.6g s before rank %d's start on the aligned clock, so they are not one "
                    "collective: %s; give the traces of one run",
                    a->source, a->rank, b->source, b->rank, a->label, a->rank, w0 - w1, b->rank,
                    no_base ? "a trace has no metadata.ts_base_ns to align its clock by"
                            : "the traces are of different runs (or their clocks differ)");
                goto out;
            }
        }
        /* Per iteration: the last end less the last start over the ranks,
         * each rank's times moved onto the first one's clock. */
        for (size_t g = 0; g < it; g++) {
            double s0 = -INFINITY, s1 = INFINITY, e = -INFINITY;
            for (size_t q = 0; q < k; q++) {
                const cr_vmeas *o = &l->v[mem[q]];
                double off = (double)(o->ts_base_ns - m->ts_base_ns) * 1e-9;
                double st = l->iter_s[o->iter_off + g] + off;
                double en = l->iter_s[o->iter_off + it + g] + off;
                s0 = fmax(s0, st);
                s1 = fmin(s1, st);
                e = fmax(e, en);
            }
            t[g] = e - s0;
            t1[g] = e - s1;
            /* the merged case's own iteration from now on, on its clock
             * (index g is read no more): the last start and the last end,
             * which roofline's fastest call and total time read */
            l->iter_s[m->iter_off + g] = s0;
            l->iter_s[m->iter_off + it + g] = e;
        }
        int acts = 0, devs = 0, lo_rank = m->rank, hi_rank = m->rank;
        for (size_t q = 0; q < k; q++) {
            const cr_vmeas *o = &l->v[mem[q]];
            acts += o->activities;
            devs += o->devices;
            lo_rank = o->rank < lo_rank ? o->rank : lo_rank;
            hi_rank = o->rank > hi_rank ? o->rank : hi_rank;
        }
        m->measured_s = cr_median(t, it);
        m->first_start_s = cr_median(t1, it);
        m->samples = (int)it;
        m->activities = acts;
        m->devices = devs;
        m->ranks_merged = (int)k;
        int job = job_size(m);
        const cr_vmeas *last = &l->v[mem[k - 1]];
        char src[sizeof m->source];
        snprintf(src, sizeof src, "%.60s+%.60s%s", m->source, last->source, k > 2 ? "+..." : "");
        cr_str_copy(m->source, sizeof m->source, src);
        if ((int)k < job)
            snprintf(m->note, sizeof m->note,
                     "%d of %d ranks merged (%d-%d): the others' traces "
                     "are missing",
                     (int)k, job, lo_rank, hi_rank);
        m->rank = -1;
        inf.merged++;
        inf.ranks_max = (int)k > inf.ranks_max ? (int)k : inf.ranks_max;
    }
    /* A share left alone while another file holds the same rank of the
     * same case and job: one rank given twice (two files both rank 0 of a
     * 2-rank job), not a lone rank whose peers are missing. */
    {
        size_t nl = 0;
        for (size_t i = 0; i < n; i++)
            if (grp[i] < 0 && job_size(&l->v[i]))
                ref[nl++] = (mref){&l->v[i], i, 0};
        if (nl > 1)
            qsort(ref, nl, sizeof *ref, cmp_case_rank);
        for (size_t q = 1; q < nl; q++) {
            const cr_vmeas *a = ref[q - 1].m, *b = ref[q].m;
            if (a->rank == b->rank && case_cmp(a, b) == 0 && a->world_size == b->world_size &&
                !strcmp(a->host, b->host) && strcmp(a->source, b->source)) {
                rc = cr_diag_set(d, CR_EINVAL,
                                 "%s and %s are both rank %d of a %d-rank job (case \"%.60s\"): "
                                 "a rank's trace was given twice, or traces of two runs are "
                                 "mixed; give each rank's trace of one run once",
                                 a->source, b->source, a->rank, job_size(a), a->label);
                goto out;
            }
        }
    }
    /* Drop the merged-in measurements; note the ranks left alone. */
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (grp[i] >= 0 && grp[i] != (int)i)
            continue;
        cr_vmeas *m = &l->v[i];
        int job = job_size(m);
        if (grp[i] < 0 && job) {
            snprintf(m->note, sizeof m->note,
                     "rank %d of a %d-rank job alone: its time includes waiting for the others "
                     "(give every rank's trace)",
                     m->rank, job);
            inf.rank_alone++;
        }
        l->v[w++] = *m;
    }
    l->n = w;
    if (info)
        *info = inf;
out:
    free(grp);
    free(occ);
    free(ref);
    free(mem);
    free(t);
    free(t1);
    return rc;
}
