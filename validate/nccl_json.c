/* SPDX-License-Identifier: MIT */
/*
 * validate: the JSON file nccl-tests writes with -J FILE.json (since
 * nccl-tests 2.17, src/util.cu: JSON_FILE_VERSION 3 in 2.19.6), read into
 * the rows and the one table the text reader collects (nccl_log_priv.h),
 * so that validate, calibrate and report take it wherever they take a log.
 *
 * What the file holds, as nccl-tests writes it: "args" (the command line,
 * its binary first: all_reduce_perf), "nccl_version" (ncclGetVersion's
 * code, 22809), "config" (nthreads, ngpus, iterations,
 * aggregated_iterations), "devices" (one entry per process: its first
 * rank and the GPU's name) and "results", one item per size: "size",
 * "type", and "out_of_place" / "in_place" objects with "time" (us;
 * "cpu_time" under -C 1, refused), "alg_bw" and "bus_bw" (GB/s, printed
 * "%lf"), or null. The file is one line: places are named by member and item
 * (results[3]), not by line.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sbuf.h"
#include "coll.h"
#include "grow.h"
#include "harness.h"
#include "json_items.h"
#include "nccl_log_priv.h"
#include "validate_priv.h"

/* The span a figure printed "%lf" (six decimals) stands for, as
 * nccl_log.c's nt_printed gives a log's figures. */
static void nj_printed(double v, double *lo, double *hi)
{
    *lo = v - 5e-7 > 0 ? v - 5e-7 : 0;
    *hi = v + 5e-7;
}

typedef struct {
    nt_reader *R;
    const char *arg_coll; /* the collective args[0] names, or NULL */
    char arg0[96];        /* args[0]'s file name (all_reduce_perf) */
    int nccl_version;
    long nthreads, ngpus, iters, agg; /* config; 0 when absent */
    bool has_devices;
    long max_rank;
    /* devices' "group" (NCCL_TESTS_SPLIT's communicators; nccl_log.c
     * reads the rank lines' Group alike): the first entry's (rank 0's),
     * how many entries have it, and whether another group appears */
    long grp0, grp0_procs;
    bool grp_split;
    char gpu[48];
} nj_state;

/* An integer member of object o in [lo, hi] into *v; absent: *v left, CR_OK. */
static cr_status nj_int(const nj_state *S, json_t *o, const char *where, const char *key, long lo,
                        long hi, long *v, cr_diag *d)
{
    json_t *x = json_object_get(o, key);
    if (!x)
        return CR_OK;
    if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi)
        return cr_diag_set(d, CR_EPARSE, "%s: %s.%s: expected a whole number from %ld to %ld",
                           S->R->path, where, key, lo, hi);
    *v = (long)json_integer_value(x);
    return CR_OK;
}

static cr_status nj_member(void *ctx, const char *name, json_t *v, cr_diag *d)
{
    nj_state *S = ctx;
    const char *path = S->R->path;
    if (!strcmp(name, "args")) {
        json_t *a0 = json_is_array(v) ? json_array_get(v, 0) : NULL;
        if (!json_is_array(v) || (json_array_size(v) && !json_is_string(a0)))
            return cr_diag_set(d, CR_EPARSE,
                               "%s: \"args\": expected the command line as an array of strings",
                               path);
        if (a0) {
            /* the binary's name, whatever its path's length */
            cr_str_copy(S->arg0, sizeof S->arg0, cr_vbase_name(json_string_value(a0)));
            S->arg_coll = cr_ntlog_coll_in(S->arg0);
            /* a file holds one test: a test commroof does not model
             * (hypercube_perf, alltoallv_perf) is said, never read as
             * --coll's or the file name's collective */
            if (!S->arg_coll && strstr(S->arg0, "_perf"))
                return cr_diag_set(d, CR_EPARSE,
                                   "%s: \"args\" runs %s, not a collective commroof models "
                                   "(all_reduce, all_gather, reduce_scatter, alltoall, "
                                   "broadcast, reduce, sendrecv, gather, scatter)",
                                   path, S->arg0);
        }
    } else if (!strcmp(name, "nccl_version")) {
        /* the code as the text reader takes "nccl-library=22809" */
        char tok[24] = "";
        int code = 0;
        if (json_is_integer(v))
            snprintf(tok, sizeof tok, "%lld", (long long)json_integer_value(v));
        if (!json_is_integer(v) || cr_nccl_version_parse(tok, &code, NULL) != CR_OK)
            return cr_diag_set(d, CR_EPARSE,
                               "%s: \"nccl_version\": expected NCCL's version code "
                               "(NCCL_VERSION_CODE, 22809 for 2.28.9)",
                               path);
        S->nccl_version = code;
    } else if (!strcmp(name, "config")) {
        if (!json_is_object(v))
            return cr_diag_set(d, CR_EPARSE, "%s: \"config\": expected an object", path);
        cr_status st;
        if ((st = nj_int(S, v, "config", "nthreads", 1, 1024, &S->nthreads, d)) != CR_OK ||
            (st = nj_int(S, v, "config", "ngpus", 1, 1024, &S->ngpus, d)) != CR_OK ||
            (st = nj_int(S, v, "config", "iterations", 0, INT32_MAX, &S->iters, d)) != CR_OK ||
            (st = nj_int(S, v, "config", "aggregated_iterations", 0, INT32_MAX, &S->agg, d)) !=
                CR_OK)
            return st;
    } else if (!strcmp(name, "devices")) {
        if (!json_is_array(v))
            return cr_diag_set(d, CR_EPARSE, "%s: \"devices\": expected an array", path);
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e)
        {
            char where[32];
            snprintf(where, sizeof where, "devices[%zu]", i);
            long rank = -1;
            cr_status st;
            if (!json_is_object(e))
                return cr_diag_set(d, CR_EPARSE, "%s: %s: expected an object", path, where);
            if ((st = nj_int(S, e, where, "rank", 0, (1 << 20) - 1, &rank, d)) != CR_OK)
                return st;
            if (rank < 0)
                return cr_diag_set(d, CR_EPARSE, "%s: %s: no \"rank\"", path, where);
            long grp = 0;
            if ((st = nj_int(S, e, where, "group", 0, INT32_MAX, &grp, d)) != CR_OK)
                return st;
            if (i == 0)
                S->grp0 = grp;
            if (grp == S->grp0)
                S->grp0_procs++;
            else
                S->grp_split = true;
            S->has_devices = true;
            S->max_rank = rank > S->max_rank ? rank : S->max_rank;
            json_t *info = json_object_get(e, "device_info");
            if (i == 0 && json_is_string(info))
                cr_str_copy(S->gpu, sizeof S->gpu, json_string_value(info));
        }
    }
    return CR_OK;
}

/* A figure of a result ("nan", which nccl-tests writes for NaN, or
 * absent: false). */
static bool nj_num(json_t *o, const char *key, double *v)
{
    json_t *x = json_object_get(o, key);
    if (!json_is_number(x))
        return false;
    *v = json_number_value(x);
    return isfinite(*v);
}

/* Result item k into a row of table 0. */
static cr_status nj_row(nj_state *S, json_t *it, int k, cr_diag *d)
{
    nt_reader *R = S->R;
    char at[300];
    cr_ntlog_at(R, k, at, sizeof at);
    if (!json_is_object(it))
        return cr_diag_set(d, CR_EPARSE, "%s: expected a result object", at);
    json_t *size = json_object_get(it, "size"), *type = json_object_get(it, "type");
    if (!json_is_integer(size) || json_integer_value(size) < 0 ||
        (double)json_integer_value(size) > CR_COLL_MAX_BYTES)
        return cr_diag_set(d, CR_EPARSE,
                           "%s: \"size\": expected the message size in bytes, a whole number "
                           "from 0 to %.0f (1 PB)",
                           at, CR_COLL_MAX_BYTES);
    if (!json_is_string(type))
        return cr_diag_set(d, CR_EPARSE, "%s: no \"type\" (the element type, \"float\")", at);
    const char *dt = cr_ntlog_dtype(json_string_value(type));
    if (!dt)
        return cr_diag_set(d, CR_EPARSE,
                           "%s: element type \"%.40s\" is none the model has (nccl-tests' "
                           "float, half, bfloat16, double, int8, uint8, f8e4m3 and f8e5m2 are "
                           "read; int32, uint32, int64 and uint64 have no model type)",
                           at, json_string_value(type));
    /* the out-of-place figures, as a text log's time column; a replayed
     * trace's rows have only in-place ones */
    json_t *res = json_object_get(it, "out_of_place");
    bool in_place = false;
    if (!json_is_object(res)) {
        res = json_object_get(it, "in_place");
        in_place = true;
    }
    if (!json_is_object(res))
        return cr_diag_set(d, CR_EPARSE,
                           "%s: no \"out_of_place\" or \"in_place\" object with the row's times",
                           at);
    const char *part = in_place ? "in_place" : "out_of_place";
    double t_us, alg = 0, bus = 0, b = (double)json_integer_value(size);
    /* -C 1 writes "cpu_time": the host's time to enqueue one operation,
     * taken before the timed loop's wait, beside the GPU time's alg_bw
     * (src/common.cu BenchTime); as the operation's time it would fall
     * below the bound or be refused as a mistyped time */
    if (!nj_num(res, "time", &t_us) && json_object_get(res, "cpu_time"))
        return cr_diag_set(d, CR_EPARSE,
                           "%s: %s.cpu_time (nccl-tests -C 1): the host's time to enqueue one "
                           "operation, not the operation's time; give the file of a run without "
                           "-C 1",
                           at, part);
    if (!nj_num(res, "time", &t_us))
        return cr_diag_set(d, CR_EPARSE, "%s: %s: no \"time\" in us", at, part);
    if (!cr_harness_measured_ok(t_us * 1e-6))
        return cr_diag_set(d, CR_EPARSE, "%s: %s.time %g us: need a time from %g to %g us", at,
                           part, t_us, CR_HARNESS_MIN_MEASURED_S * 1e6,
                           CR_HARNESS_MAX_MEASURED_S * 1e6);
    bool has_alg = nj_num(res, "alg_bw", &alg), has_bus = nj_num(res, "bus_bw", &bus);
    double t_lo, t_hi, a_lo, a_hi, b_lo, b_hi;
    nj_printed(t_us, &t_lo, &t_hi);
    nj_printed(alg, &a_lo, &a_hi);
    nj_printed(bus, &b_lo, &b_hi);
    if (has_alg && !cr_ntlog_algbw_agrees(b, t_lo, t_hi, a_lo, a_hi))
        return cr_diag_set(d, CR_EPARSE,
                           "%s: size %.0f over %s.time %g us is %.6g GB/s, but alg_bw says %g: "
                           "a mistyped size or time",
                           at, b, part, t_us, b / t_us / 1e3, alg);
    nt_row *r = NULL;
    cr_status st = cr_ntlog_add_row(R, k, &r, d);
    if (st != CR_OK)
        return st;
    r->table = 0;
    r->bytes = b;
    r->t_us = t_us;
    r->in_place = in_place;
    cr_str_copy(r->dtype, sizeof r->dtype, dt);
    if (has_alg && has_bus)
        cr_ntlog_set_ratio(r, a_lo, a_hi, b_lo, b_hi);
    return CR_OK;
}

/* The file's one table, once its members are read. */
static cr_status nj_table(nj_state *S, const char *opt_coll, cr_diag *d)
{
    nt_reader *R = S->R;
    nt_table T = {0};
    const char *file_coll = cr_ntlog_coll_in(cr_vbase_name(R->path));
    cr_status pick = cr_ntlog_pick_coll(S->arg_coll, opt_coll, file_coll, &T);
    if (pick == CR_EINVAL)
        return cr_diag_set(d, CR_EPARSE,
                           "%s: the file runs %s (\"args\": %s), --coll says %s; --coll applies "
                           "to every log given: give this file without it, or in a run of its own",
                           R->path, S->arg_coll, S->arg0, opt_coll);
    if (pick != CR_OK)
        return cr_diag_set(d, CR_EPARSE,
                           "%s: cannot tell the collective: \"args\" names no nccl-tests binary "
                           "(<name>_perf) and neither does the file name: give it (--coll "
                           "all_reduce)",
                           R->path);
    long per_proc = (S->nthreads > 0 ? S->nthreads : 1) * (S->ngpus > 0 ? S->ngpus : 1);
    /* an entry per process, its first rank: the last process's ranks
     * follow its entry */
    T.rank_lines = S->has_devices ? (int)(S->max_rank + per_proc) : 0;
    /* split into communicators: the table is rank 0's (nccl-tests prints
     * its process's nProcs and busbw) */
    if (S->has_devices && S->grp_split) {
        snprintf(T.note, sizeof T.note,
                 "devices in several groups (NCCL_TESTS_SPLIT): rank 0's, %ld of %d ranks, is "
                 "the table's",
                 S->grp0_procs * per_proc, T.rank_lines);
        T.rank_lines = (int)(S->grp0_procs * per_proc);
    }
    T.gpus_per_thread = S->ngpus > 0 ? (int)S->ngpus : 1;
    long ops = S->iters * (S->agg > 0 ? S->agg : 1);
    T.loop_ops = ops >= 1 && ops <= 1000000 ? (int)ops : 0;
    T.nccl_version = S->nccl_version > 0 ? S->nccl_version : R->o ? R->o->nccl_version : 0;
    cr_str_copy(T.gpu, sizeof T.gpu, S->gpu);
    if (cr_grow((void **)&R->tabs, &R->cap_tabs, 1, sizeof *R->tabs))
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", R->path);
    R->tabs[0] = T;
    R->n_tabs = 1;
    return CR_OK;
}

cr_status cr_ntlog_read_json(FILE *f, nt_reader *R, const char *opt_coll, cr_diag *d)
{
    nj_state S = {.R = R};
    cr_json_items *it = NULL;
    if (cr_json_items_open(f, R->path, "results", &it) != CR_OK)
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", R->path);
    cr_json_items_on_member(it, nj_member, &S);
    cr_status st = CR_OK;
    json_t *item = NULL;
    for (int k = 0; (st = cr_json_items_next(it, &item, d)) == CR_OK && item; k++) {
        st = nj_row(&S, item, k, d);
        json_decref(item);
        if (st != CR_OK)
            break;
    }
    cr_json_items_free(it);
    if (st != CR_OK)
        return st;
    if (R->n_rows == 0)
        return cr_diag_set(d, CR_EPARSE,
                           "%s: \"results\" holds no result: the run printed no size (an "
                           "nccl-tests JSON file from -J FILE.json)",
                           R->path);
    return nj_table(&S, opt_coll, d);
}
