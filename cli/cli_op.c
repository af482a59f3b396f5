/* SPDX-License-Identifier: MIT */
/* Helpers shared by the op, check and suite commands (see cli_op.h). */
#include "json_dump.h"
#include "sbuf.h"
#include "cli_op.h"
#include "json_num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ops_json.h"

int cli_op_param_arg(const char *cmd, const cr_op_def *op, cr_op_params *p, bool *order_given,
                     int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    char name[64];
    const char *val = NULL;
    int used = 1;
    const char *eq = strchr(a, '=');
    if (strncmp(a, "--", 2) == 0) {
        a += 2;
        eq = strchr(a, '=');
        if (eq) {
            val = eq + 1;
        } else {
            if (*i + 1 >= argc) {
                cr_str_copy(name, sizeof name, a);
                if (cr_opp_parse(name) < 0 && strcmp(name, "order") != 0)
                    return 0;
                cli_usage_error(cmd, "--%s needs a value", name);
                return -1;
            }
            val = argv[*i + 1];
            used = 2;
        }
    } else if (eq) {
        val = eq + 1;
    } else {
        return 0;
    }
    size_t len = eq ? (size_t)(eq - a) : strlen(a);
    if (len == 0 || len >= sizeof name)
        return 0;
    memcpy(name, a, len);
    name[len] = '\0';
    /* '-' and '_' are the same in parameter names (--kv-heads, kv_heads) */
    for (char *c = name; *c; c++)
        if (*c == '-')
            *c = '_';
    int k = cr_opp_parse(name);
    if (k < 0 && strcmp(name, "order") != 0)
        return 0;
    /* a second value would silently replace the first, as with options */
    if ((k >= 0 && p->set[k]) || (k < 0 && *order_given)) {
        cli_usage_error(cmd, "parameter %s given twice (the second: \"%s\"): give it once", name,
                        val);
        return -1;
    }
    if (k < 0)
        *order_given = true;
    cr_diag d = {{0}};
    if (cr_op_param_set(op, p, name, val, &d) != CR_OK) {
        cli_usage_error(cmd, "%s", d.msg);
        return -1;
    }
    *i += used;
    return 1;
}

int cli_op_unknown_arg(const char *cmd, const cr_op_def *op, const cli_opt *opts, const char *arg)
{
    /* the command's options and op's parameters ("--m", "--order") as one
     * table; "m=5" and "--m=5" compare by the name before '=' */
    cli_opt all[CLI_MAX_OPTS + CR_OPP__COUNT + 2];
    char names[CR_OPP__COUNT + 1][40];
    size_t n = 0;
    for (const cli_opt *o = opts; (o->name || o->label || o->help) && n < CLI_MAX_OPTS; o++)
        all[n++] = *o;
    for (int k = 0; k <= CR_OPP__COUNT; k++) {
        const char *pn = k < CR_OPP__COUNT
                             ? (cr_op_uses(op, (cr_opp)k) ? cr_opp_name((cr_opp)k) : NULL)
                         : cr_op_has_order(op) ? "order"
                                               : NULL;
        if (!pn)
            continue;
        snprintf(names[k], sizeof names[k], "--%s", pn);
        all[n++] = (cli_opt){.name = names[k], .meta = "V", .help = ""};
    }
    all[n] = (cli_opt){0};
    char given[64];
    snprintf(given, sizeof given, "%s%s", arg[0] == '-' ? "" : "--", arg);
    const char *eq = strchr(given, '=');
    /* a bare word (an operator name twice, a stray value) is no
     * misspelt option: only "-..." and "NAME=V" get a suggestion */
    const char *near = arg[0] == '-' || eq
                           ? cli_opts_nearest(all, given, eq ? (size_t)(eq - given) : strlen(given))
                           : NULL;
    if (near)
        return cli_usage_error(cmd,
                               "unknown argument \"%s\": did you mean %s? (commroof op %s --help "
                               "lists the parameters)",
                               arg, near, cr_op_name(op));
    return cli_usage_error(cmd,
                           "unknown argument \"%s\" (commroof op %s --help lists the parameters)",
                           arg, cr_op_name(op));
}

void cli_op_params_text(const cr_op_def *op, const cr_op_params *p, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < CR_OPP__COUNT && len < size; k++) {
        if (!cr_op_uses(op, (cr_opp)k))
            continue;
        char v[64];
        cr_op_param_format(p, (cr_opp)k, v, sizeof v);
        int w =
            snprintf(buf + len, size - len, "%s%s=%s", len ? " " : "", cr_opp_name((cr_opp)k), v);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    char ord[32];
    if (cr_op_has_order(op) && len < size)
        snprintf(buf + len, size - len, "%sorder=%s", len ? " " : "",
                 cr_op_order_format(p, ord, sizeof ord));
}

/* The element types op takes, asked of the library's own check at the
 * defaults, and those it refuses: "element type: fp64 fp32 ... (refused:
 * tf32 fp4)". op coll's help offered tf32, which it refuses as commroof
 * coll does (QA audit of the docs). Returns false when op takes every
 * type, so the catalog's wording stands. */
static bool dtype_help(const cr_op_def *op, const cr_op_params *defaults, char *buf, size_t size)
{
    char ok[96] = "", no[96] = "";
    for (int t = 0; t < CR_DT__COUNT; t++) {
        cr_op_params q = *defaults;
        q.v[CR_OPP_DTYPE] = t;
        char *to = cr_op_params_check(op, &q, NULL, NULL) == CR_OK ? ok : no;
        size_t n = strlen(to);
        snprintf(to + n, sizeof ok - n, "%s%s", n ? " " : "", cr_dtype_name((cr_dtype)t));
    }
    if (!no[0])
        return false;
    snprintf(buf, size, "element type: %s (refused: %s)", ok, no);
    return true;
}

void cli_op_params_help(FILE *f, const cr_op_def *op)
{
    cr_op_params p;
    cr_op_params_defaults(op, &p);
    for (int k = 0; k < CR_OPP__COUNT; k++) {
        if (!cr_op_uses(op, (cr_opp)k))
            continue;
        char v[64], types[240];
        cr_op_param_format(&p, (cr_opp)k, v, sizeof v);
        const char *help = cr_opp_help((cr_opp)k);
        if (k == CR_OPP_DTYPE && dtype_help(op, &p, types, sizeof types))
            help = types;
        fprintf(f, "  --%-11s %-9s %s\n", cr_opp_name((cr_opp)k), v, help);
    }
    if (cr_op_has_order(op))
        fprintf(f, "  --%-11s %-9s %s\n", "order", "tp,cp,ep,dp,pp",
                "group dimensions inner to outer (ranks are laid out in that order)");
}

/* JSON has no infinity: a schedule that cannot run has null times. */
static json_t *sched_json(const cr_op_sched *s)
{
    if (!isfinite(s->pred_s))
        return json_pack("{s:o, s:i, s:s}", "pred_us", json_null(), "comm_sms", 0, "mech", "none");
    return json_pack("{s:f, s:i, s:s, s:f, s:f, s:f, s:f, s:f, s:f}", "pred_us", s->pred_s * 1e6,
                     "comm_sms", s->comm_sms, "mech", s->mech, "t_launch_us", s->t_launch_s * 1e6,
                     "t_comp_us", s->t_comp_s * 1e6, "t_mem_us", s->t_mem_s * 1e6, "t_comm_us",
                     s->t_comm_s * 1e6, "t_nonoverlap_us", s->t_nonoverlap_s * 1e6, "t_sync_us",
                     s->t_sync_s * 1e6);
}

json_t *cli_op_result_json(const cr_topo *t, const cr_op_def *op, const cr_op_params *p,
                           const cr_op_result *r)
{
    /* numbers as numbers, names as strings: the writer beside the reader
     * that check --measured-json uses (ops_json.h) */
    json_t *params = cr_op_params_to_json(op, p);
    json_t *comm = json_array();
    for (int i = 0; i < r->n_comm; i++) {
        const cr_op_comm *c = &r->comm[i];
        json_array_append_new(
            comm,
            json_pack("{s:s, s:s, s:f, s:i, s:s, s:f, s:f, s:s, s:f, s:s, s:s}", "what", c->what,
                      "coll", c->coll, "bytes", c->bytes, "ranks", c->group_size, "group", c->group,
                      "bound_us", c->bound_s * 1e6, "latency_us", c->bound_lat_s * 1e6, "binding",
                      c->binding, "nccl_us", c->nccl_s * 1e6, "algo", c->algo, "proto", c->proto));
    }
    json_t *o = json_pack(
        "{s:s, s:s, s:s, s:o, s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, "
        "s:s, s:f, s:f, "
        "s:f, s:f, s:i, s:f, s:s, s:s, s:f, s:o}",
        "op", cr_op_name(op), "category", cr_op_category(op), "topo", t->name, "params", params,
        "ranks", r->ranks, "flops", r->flops, "hbm_bytes", r->hbm_bytes, "comm_bytes",
        r->comm_bytes, "traffic_bytes", r->traffic_bytes, "t_compute_us", r->t_compute_s * 1e6,
        "t_hbm_us", r->t_hbm_s * 1e6, "t_comm_us", r->t_comm_s * 1e6, "latency_us", r->lat_s * 1e6,
        "bound_us", r->bound_s * 1e6, "binding", r->binding, "baseline_us", r->baseline_s * 1e6,
        "baseline_compute_us", r->baseline_compute_s * 1e6, "baseline_comm_us",
        r->baseline_comm_s * 1e6, "baseline_launch_us", r->baseline_launch_s * 1e6,
        "baseline_kernels", r->baseline_kernels, "pred_us", r->pred_s * 1e6, "schedule",
        r->schedule, "why", r->why, "headroom", r->headroom, "comm", comm);
    if (o) {
        /* counts whole where they are (JSON_REAL_PRECISION(10) below would
         * round 17,649,631,232 bytes to 1.764963123e10) */
        json_object_set_new(o, "flops", cr_json_count(r->flops));
        json_object_set_new(o, "baseline_kernels", cr_json_count(r->baseline_kernels));
        json_object_set_new(o, "hbm_bytes", cr_json_count(r->hbm_bytes));
        json_object_set_new(o, "comm_bytes", cr_json_count(r->comm_bytes));
        json_object_set_new(o, "traffic_bytes", cr_json_count(r->traffic_bytes));
        for (int i = 0; i < r->n_comm; i++)
            json_object_set_new(json_array_get(comm, (size_t)i), "bytes",
                                cr_json_count(r->comm[i].bytes));
        json_object_set_new(o, "bound_by", r->bound_by[0] ? json_string(r->bound_by) : json_null());
        json_object_set_new(o, "mma_bound_TFLOPs", json_real(r->mma_bound_flops / 1e12));
        json_object_set_new(o, "mma_bound_by",
                            r->mma_bound_by[0] ? json_string(r->mma_bound_by) : json_null());
        json_object_set_new(o, "attainable_us", json_real(r->attainable_s * 1e6));
        json_object_set_new(o, "t_hbm_cold_us", json_real(r->t_hbm_cold_s * 1e6));
        json_object_set_new(o, "bound_cold_us", json_real(r->bound_cold_s * 1e6));
        json_object_set_new(o, "binding_cold", json_string(r->binding_cold));
        /* which bound bound_us is: --cold makes it the cold one */
        json_object_set_new(o, "cold", json_boolean(r->cold));
    }
    if (o && r->has_overlap) {
        json_object_set_new(o, "intra_sm", sched_json(&r->intra));
        json_object_set_new(o, "inter_sm", sched_json(&r->inter));
    }
    return o;
}

int cli_op_print_json(const char *cmd, json_t *root)
{
    if (!root)
        /* jansson refuses non-finite reals as it does a failed allocation;
         * cr_op_eval returns no result with either, so say both */
        return cli_fail(cmd, "cannot build the JSON output: out of memory, or a value that is "
                             "not a finite number");
    char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (!txt)
        return cli_fail(cmd, "out of memory writing JSON");
    int bad = puts(txt) == EOF;
    free(txt);
    if (bad)
        return cli_fail(cmd, "cannot write the output to stdout: %s", strerror(errno));
    return CLI_OK;
}
