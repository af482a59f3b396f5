/* SPDX-License-Identifier: MIT */
/*
 * `commroof sim`: the flow-level simulator (model/flowsim.h) from the command
 * line. The simple form simulates one collective per size and prints the
 * columns of `commroof coll` plus sim_us; --scenario runs an XML scenario of
 * several collectives and compute ops. Both report completion per op and
 * rank, the busiest links, and can write a Chrome trace (--timeline) in the
 * shape of our measured traces (traces/README.md).
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dump.h"
#include "cli.h"
#include "opts.h"
#include "coll.h"
#include "fileio.h"
#include "flowsim.h"
#include "plots/chart.h"
#include "rankset.h"
#include "sbuf.h"
#include "scenario.h"
#include "units.h"
#include "json_num.h"

#define GBPS 1e9
/* Significant digits of JSON numbers: times in us keep their nanoseconds
 * up to an hour of simulated time (10 digits lost them past 1000 s). */
#define SIM_JSON_DIGITS 13

static const char sim_help_head[] =
    "usage: commroof sim COLL [--topo T] [--ranks SPEC] -b BYTES [-e MAX] [-f FACTOR]\n"
    "                    [--dtype D] [--algo A] [--proto P] [--nchannels N] [--root R]\n"
    "                    [--grain auto|steps|pipelined] [--timeline OUT.json] [--top N]\n"
    "                    [--per-rank] [--json]\n"
    "       commroof sim --scenario FILE.xml [--topo T] [--timeline OUT.json] [--top N]\n"
    "                    [--per-rank] [--json]\n"
    "\n"
    "Discrete-event flow-level simulation over the topology graph: flows share links\n"
    "by max-min fairness (re-solved at every arrival and departure), with per-hop\n"
    "latency, HBM and in-switch reduction as shared resources. A collective expands\n"
    "into a dependency graph of flows for the algorithm `commroof coll` predicts\n"
    "(ring steps, trees, NVLS, PAT, direct), using its latencies and protocol\n"
    "efficiency, so on an idle fabric sim_us matches pred_us and under contention\n"
    "it shows the slowdown. The table has the columns of `commroof coll` followed\n"
    "by sim_us, the simulated algbw and busbw, sim/pr and the channels.\n"
    "doc/simulator.md explains the model and lists where the simulation and coll's\n"
    "closed form disagree, and why.\n"
    "\n"
    "options:\n";

static const char sim_help_tail[] =
    "\n"
    "Progress of long runs goes to stderr when it is a terminal. Exit status: 0 ok,\n"
    "1 runtime failure (a scenario file missing or not valid, as file:line: what\n"
    "is wrong; no route; an algorithm a scenario asks for that the topology cannot\n"
    "run), 2 usage error (the command line, a forced --algo or --proto included).\n"
    "\n"
    "examples:\n"
    "  commroof sim allreduce --topo hgx-h200-8 -b 1GB\n"
    "  commroof sim alltoall --topo h100-ib-4n -b 64MB --timeline a2a.json\n"
    "  commroof sim --scenario tests/fixtures/scenarios/tp-dp.xml --topo h100-ib-4n\n";

struct opts {
    const char *coll, *topo, *ranks, *dtype, *algo, *proto, *grain, *timeline, *scenario;
    double b, e, f;
    int channels, top, root;
    bool json, per_rank, have_e, have_f, root_given;
};

/* Whether v is a whole decimal number from lo to hi; then *out is it. */
static bool parse_int(const char *v, long lo, long hi, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (*end || end == v || x < lo || x > hi)
        return false;
    *out = (int)x;
    return true;
}

enum { O_HELP = 1, O_CHANNELS, O_ROOT, O_TOP, O_MIN, O_MAX, O_FACTOR };

static int parse(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    o->f = 2;
    o->top = 10;
    o->b = -1;
    const cli_opt opts[] = {
        {.label = "COLL",
         .help = "allreduce, allgather, reducescatter, alltoall, broadcast, reduce,\n"
                 "gather, scatter, sendrecv"},
        {"--topo", NULL, "T", "shipped topology name or XML file (default hgx-h200-8)",
         .str = &o->topo},
        {"--ranks", NULL, "SPEC", "all (default), 0-7, 0-8191:8, 0,3,5", .str = &o->ranks},
        {"-b", "--minbytes", "BYTES",
         "sizes as nccl-tests: from -b to -e, times -f (default 2);\n"
         "bytes with a unit (1GB, 64MiB) or a number (nccl-tests K/M/G\n"
         "suffixes are powers of 1024)",
         .label = "-b, -e, -f", .id = O_MIN},
        {"-e", "--maxbytes", "MAX", NULL, .id = O_MAX},
        {"-f", "--stepfactor", "FACTOR", NULL, .id = O_FACTOR},
        {"--dtype", NULL, "D", "fp32 (default), bf16, fp16, fp8, int8, fp64", .str = &o->dtype},
        {"--algo", NULL, "A",
         "ring, tree, nvls, nvlstree, pat, direct (default: NCCL's\n"
         "choice; collnet is predicted by coll but not simulated)",
         .str = &o->algo},
        {"--proto", NULL, "P", "ll, ll128, simple (default: NCCL's choice)", .str = &o->proto},
        {"--nchannels", "--channels", "N",
         "force N channels (default: as NCCL would; --channels too)", .id = O_CHANNELS},
        {"--root", NULL, "R",
         "root rank of broadcast, reduce, gather, scatter: its position\n"
         "in --ranks, as nccl-tests' -r (default 0)",
         .id = O_ROOT},
        {"--grain", NULL, "G",
         "ring allreduce, allgather, reducescatter: steps: one flow per rank\n"
         "and step; pipelined: one coupled flow per ring; auto (default): steps\n"
         "while under 50,000 flows",
         .str = &o->grain},
        {"--scenario", NULL, "F",
         "several collectives and compute ops from an XML file\n"
         "(doc/simulator.md, tests/fixtures/scenarios/)",
         .str = &o->scenario},
        {"--timeline", NULL, "F",
         "write a Chrome trace (open in ui.perfetto.dev): pid = rank x 100\n"
         "+ GPU, tid = stream, one span per op and rank, flows of small runs;\n"
         "written whole or not at all (a temporary file renamed)",
         .str = &o->timeline, .output = true},
        {"--top", NULL, "N", "busiest links to list (default 10)", .id = O_TOP},
        {"--per-rank", NULL, NULL, "list every rank's completion time (default: summary)",
         .flag = &o->per_rank},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &o->json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    cli_args args = cli_args_begin("sim", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_ARG) {
            if (o->coll)
                return cli_usage_error("sim",
                                       "unexpected argument \"%s\" (one collective per run; "
                                       "use --scenario for several)",
                                       v);
            o->coll = v;
            continue;
        }
        switch (args.opt->id) {
        case O_HELP:
            fputs(sim_help_head, stdout);
            cli_opts_help(stdout, opts, 16, 0);
            fputs(sim_help_tail, stdout);
            return -1;
        case O_CHANNELS:
            if (!parse_int(v, 1, CR_COLL_MAX_NCHANNELS, &o->channels))
                return cli_usage_error("sim", "%s \"%s\" is not a count in 1-%d", args.name, v,
                                       CR_COLL_MAX_NCHANNELS);
            break;
        case O_ROOT:
            if (!parse_int(v, 0, 1000000, &o->root))
                return cli_usage_error("sim",
                                       "--root \"%s\": give a whole rank number from 0 to 2^30", v);
            o->root_given = true;
            break;
        case O_TOP:
            if (!parse_int(v, 0, 100000, &o->top))
                return cli_usage_error("sim", "--top \"%s\" is not a count from 0 to 100000", v);
            break;
        case O_MIN:
            if (cli_parse_size(v, &o->b))
                return cli_usage_error("sim",
                                       "-b \"%s\" is not a whole number of bytes from 0 to 1PB "
                                       "(e.g. 1GB, 64MiB, 128M)",
                                       v);
            break;
        case O_MAX:
            if (cli_parse_size(v, &o->e))
                return cli_usage_error("sim",
                                       "-e \"%s\" is not a whole number of bytes from 0 to 1PB "
                                       "(e.g. 1GB, 64MiB, 128M)",
                                       v);
            o->have_e = true;
            break;
        case O_FACTOR: {
            char *end;
            o->f = strtod(v, &end);
            if (*end || !(o->f > 1) || !isfinite(o->f))
                return cli_usage_error("sim", "-f \"%s\" is not a factor above 1", v);
            o->have_f = true;
            break;
        }
        default:
            break;
        }
    }
    if (o->scenario && o->coll)
        return cli_usage_error("sim", "give either a collective or --scenario, not both");
    /* every option of the one-collective form: given with --scenario it
     * would be ignored, so it is refused (-e and -f were let through) */
    const struct {
        bool given;
        const char *name;
    } single[] = {{o->b >= 0, "-b"},
                  {o->have_e, "-e"},
                  {o->have_f, "-f"},
                  {o->ranks != NULL, "--ranks"},
                  {o->dtype != NULL, "--dtype"},
                  {o->algo != NULL, "--algo"},
                  {o->proto != NULL, "--proto"},
                  {o->channels > 0, "--nchannels"},
                  {o->root_given, "--root"},
                  {o->grain != NULL, "--grain"}};
    for (size_t i = 0; o->scenario && i < sizeof single / sizeof single[0]; i++)
        if (single[i].given)
            return cli_usage_error("sim",
                                   "--scenario takes sizes, ranks, algorithms and roots from "
                                   "the file; %s belongs to the one-collective form",
                                   single[i].name);
    if (!o->scenario && !o->coll)
        return cli_usage_error("sim", "which collective? (e.g. commroof sim allreduce -b 1GB)");
    if (o->coll && o->b < 0)
        return cli_usage_error("sim", "-b BYTES is required (e.g. -b 1GB)");
    if (!o->have_e)
        o->e = o->b;
    if (o->coll && o->e < o->b)
        return cli_usage_error("sim", "-e must not be below -b");
    if (o->coll && o->b == 0 && o->e > 0)
        return cli_usage_error("sim", "-b 0 with a multiplying step never grows; start at -b 1 "
                                      "or above");
    if (o->coll && cli_count_sizes(o->b, o->e, o->f, 0, CLI_MAX_SIZES) > CLI_MAX_SIZES)
        return cli_usage_error("sim",
                               "-b %.0f -e %.0f -f %g gives more than %d sizes; use a "
                               "larger -f",
                               o->b, o->e, o->f, CLI_MAX_SIZES);
    return 0;
}

/* ---------- reporting shared by both forms ---------- */

typedef struct {
    int res;
    double util; /* bytes / (cap x makespan) */
} busy_t;

static int cmp_busy(const void *a, const void *b)
{
    double x = ((const busy_t *)a)->util, y = ((const busy_t *)b)->util;
    return x < y ? 1 : x > y ? -1 : ((const busy_t *)a)->res - ((const busy_t *)b)->res;
}

/* The top busiest link directions (links only). Returns a malloc'd array of
 * *n entries or NULL. */
static busy_t *busiest(const cr_sim *s, int top, int *n)
{
    *n = 0;
    double T = cr_sim_makespan_s(s);
    int nr = cr_sim_n_res(s), k = 0;
    busy_t *b = malloc(((size_t)nr + 1) * sizeof *b);
    if (!b || T <= 0) {
        free(b);
        return NULL;
    }
    for (int r = 0; r < nr; r++) {
        cr_sim_res_stat st = cr_sim_res_get(s, r);
        if (st.bytes <= 0)
            continue;
        b[k].res = r;
        b[k].util = st.bytes / (st.cap_Bps * T);
        k++;
    }
    qsort(b, (size_t)k, sizeof *b, cmp_busy);
    *n = k < top ? k : top;
    return b;
}

static const char *res_kind_name(cr_sim_res_kind k)
{
    return k == CR_SIM_RES_LINK ? "link" : k == CR_SIM_RES_HBM ? "hbm" : "reduce";
}

/* Returns -1 where memory ran out (nothing printed), else 0. */
static int print_busiest(FILE *out, const cr_sim *s, int top)
{
    int n;
    busy_t *b = busiest(s, top, &n);
    if (!b && cr_sim_makespan_s(s) > 0)
        return -1;
    fprintf(out, "#\n# busiest resources (utilisation = bytes / (capacity x makespan))\n");
    fprintf(out, "# %-44s %6s %10s %10s %7s %7s\n", "resource", "kind", "cap", "bytes", "util",
            "busy");
    fprintf(out, "# %-44s %6s %10s %10s %7s %7s\n", "", "", "GB/s", "GB", "%", "%");
    double T = cr_sim_makespan_s(s);
    char name[160];
    for (int i = 0; i < n; i++) {
        cr_sim_res_stat st = cr_sim_res_get(s, b[i].res);
        fprintf(out, "# %-44s %6s %10.1f %10.4f %7.1f %7.1f\n",
                cr_sim_res_name(s, b[i].res, name, sizeof name), res_kind_name(st.kind),
                st.cap_Bps / GBPS, st.bytes / 1e9, 100 * b[i].util, 100 * st.busy_s / T);
    }
    free(b);
    return 0;
}

static json_t *busiest_json(const cr_sim *s, int top)
{
    int n;
    busy_t *b = busiest(s, top, &n);
    json_t *a = json_array();
    double T = cr_sim_makespan_s(s);
    char name[160];
    for (int i = 0; i < n; i++) {
        cr_sim_res_stat st = cr_sim_res_get(s, b[i].res);
        /* bytes: an integer where whole (a byte count, doc/json.md) */
        json_array_append_new(a, json_pack("{s:s,s:s,s:f,s:o,s:f,s:f}", "resource",
                                           cr_sim_res_name(s, b[i].res, name, sizeof name), "kind",
                                           res_kind_name(st.kind), "cap_GBps", st.cap_Bps / GBPS,
                                           "bytes", cr_json_count(st.bytes), "util_pct",
                                           100 * b[i].util, "busy_pct", 100 * st.busy_s / T));
    }
    free(b);
    return a;
}

/* When rank k of op r finished: a rank without a task of its own in the op
 * (one rank, a zero-byte message, an all-to-all row of zeros) is done when
 * the op is. */
static double rank_end(const cr_sim_op_result *r, int k)
{
    return r->rank_end_s[k] >= 0 ? r->rank_end_s[k] : r->end_s;
}

static void rank_summary(const cr_sim_op_result *r, double *mn, double *mx, int *slow)
{
    *mn = INFINITY;
    *mx = -INFINITY;
    *slow = 0;
    for (int i = 0; i < r->n_ranks; i++) {
        double e = rank_end(r, i) - r->start_s;
        if (e < *mn)
            *mn = e;
        if (e > *mx) {
            *mx = e;
            *slow = i;
        }
    }
}

static void print_ops(FILE *out, const cr_sim *s, bool per_rank)
{
    fprintf(out, "#\n# completion per op (times in us from 0; ranks: first/last to finish)\n");
    fprintf(out, "# %-24s %8s %6s %12s %12s %12s %12s %8s\n", "op", "kind", "ranks", "start", "end",
            "rank_min", "rank_max", "slowest");
    for (int i = 0; i < cr_sim_n_ops(s); i++) {
        cr_sim_op_result r = cr_sim_op_get(s, i);
        double mn, mx;
        int slow;
        rank_summary(&r, &mn, &mx, &slow);
        fprintf(out, "# %-24s %8s %6d %12.3f %12.3f %12.3f %12.3f %8d\n", r.name,
                r.kind == CR_SIM_OP_COLL ? "coll" : "compute", r.n_ranks, r.start_s * 1e6,
                r.end_s * 1e6, (r.start_s + mn) * 1e6, (r.start_s + mx) * 1e6, r.ranks[slow]);
        if (per_rank)
            for (int k = 0; k < r.n_ranks; k++)
                fprintf(out, "#   %-22s rank %6d end %12.3f us\n", r.name, r.ranks[k],
                        rank_end(&r, k) * 1e6);
    }
}

static json_t *ops_json(const cr_sim *s, bool per_rank)
{
    json_t *a = json_array();
    for (int i = 0; i < cr_sim_n_ops(s); i++) {
        cr_sim_op_result r = cr_sim_op_get(s, i);
        double mn, mx;
        int slow;
        rank_summary(&r, &mn, &mx, &slow);
        json_t *o = json_pack("{s:s,s:s,s:i,s:i,s:f,s:f,s:f,s:f,s:i}", "name", r.name, "kind",
                              r.kind == CR_SIM_OP_COLL ? "coll" : "compute", "ranks", r.n_ranks,
                              "stream", r.stream, "start_us", r.start_s * 1e6, "end_us",
                              r.end_s * 1e6, "rank_min_us", (r.start_s + mn) * 1e6, "rank_max_us",
                              (r.start_s + mx) * 1e6, "slowest_rank", r.ranks[slow]);
        if (per_rank) {
            json_t *pr = json_array();
            for (int k = 0; k < r.n_ranks; k++)
                json_array_append_new(pr, json_pack("{s:i,s:f}", "rank", r.ranks[k], "end_us",
                                                    rank_end(&r, k) * 1e6));
            json_object_set_new(o, "per_rank", pr);
        }
        json_array_append_new(a, o);
    }
    return a;
}

/* ---------- the Chrome trace ---------- */

/* Flows are drawn only up to this many tasks, so a timeline stays a file
 * Perfetto opens quickly; op spans per rank are always there. */
#define TIMELINE_MAX_TASKS 200000

/* The GPU's position in its node (the CUDA ordinal of a measured trace),
 * 0-98 as traces/README.md's pid = process x 100 + device allows. */
static int local_of(const cr_topo *t, int r)
{
    int node = t->devs[t->gpus[r]].node, k = 0;
    if (node < 0)
        return r % 99;
    for (int q = r - 1; q >= 0 && t->devs[t->gpus[q]].node == node; q--)
        k++;
    return k % 99;
}

/* Writes s as a JSON string (quoted, escaped): op names come from scenario
 * files and may hold quotes or backslashes. */
static int put_jstr(FILE *f, const char *s)
{
    json_t *j = json_string(s ? s : "");
    char *txt = j ? cr_json_dumps(j, JSON_ENCODE_ANY) : NULL;
    int rc = txt ? 0 : -1; /* out of memory */
    fputs(txt ? txt : "\"\"", f);
    free(txt);
    json_decref(j);
    return rc;
}

/* Writes the events of s, one a line; returns how many, or -1 out of
 * memory. */
static long timeline_events(FILE *f, const cr_sim *s)
{
    const cr_topo *t = cr_sim_topo(s);
    int n = t->n_gpus;
    long events = 0;
    int oom = 0; /* a name that could not be written */
    char *used = calloc((size_t)n, 1);
    if (!used)
        return -1;
    for (int i = 0; i < cr_sim_n_ops(s); i++) {
        cr_sim_op_result r = cr_sim_op_get(s, i);
        for (int k = 0; k < r.n_ranks; k++)
            used[r.ranks[k]] = 1;
    }
    for (int r = 0; r < n; r++) {
        if (!used[r])
            continue;
        const cr_gpu_spec *g = cr_topo_gpu_spec(t, r);
        char name[256];
        snprintf(name, sizeof name, "GPU %d %s (simulated rank %d, %s)", local_of(t, r),
                 g && g->name ? g->name : "?", r, t->devs[t->gpus[r]].id);
        fprintf(f,
                "{\"ph\":\"M\",\"pid\":%ld,\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":",
                (long)r * 100 + local_of(t, r));
        oom |= put_jstr(f, name);
        fputs("}},\n", f);
        events++;
    }
    free(used);
    for (int i = 0; i < cr_sim_n_ops(s); i++) {
        cr_sim_op_result r = cr_sim_op_get(s, i);
        for (int k = 0; k < r.n_ranks; k++) {
            int g = r.ranks[k];
            long pid = (long)g * 100 + local_of(t, g);
            double end = rank_end(&r, k);
            fprintf(f,
                    "{\"ph\":\"M\",\"pid\":%ld,\"tid\":%d,\"name\":\"thread_name\",\"args\":{"
                    "\"name\":\"stream %d\"}},\n",
                    pid, r.stream, r.stream);
            fputs("{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":", f);
            oom |= put_jstr(f, r.name);
            fprintf(f,
                    ",\"pid\":%ld,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"device\":%d,"
                    "\"stream\":%d,\"simulated\":true,\"op\":%d,\"rank\":%d}},\n",
                    pid, r.stream, r.start_s * 1e6, (end - r.start_s) * 1e6, local_of(t, g),
                    r.stream, i, g);
            events += 2;
        }
    }
    long nt = cr_sim_n_tasks(s);
    for (long k = 0; k < nt && nt <= TIMELINE_MAX_TASKS; k++) {
        cr_sim_task_info ti = cr_sim_task_get(s, k);
        if (!ti.is_flow || ti.marker || ti.end_s < 0)
            continue;
        cr_sim_op_result r = cr_sim_op_get(s, ti.op);
        char name[300];
        snprintf(name, sizeof name, "%s %s", r.name, ti.peer >= 0 ? "send" : "flow");
        fputs("{\"ph\":\"X\",\"cat\":\"sim_flow\",\"name\":", f);
        oom |= put_jstr(f, name);
        fprintf(f,
                ",\"pid\":%ld,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,\"args\":{\"device\":%d,"
                "\"stream\":%d,\"bytes\":%.0f,\"peer\":%d,\"ready_us\":%.3f}},\n",
                (long)ti.rank * 100 + local_of(t, ti.rank), r.stream, ti.start_s * 1e6,
                (ti.end_s - ti.start_s) * 1e6, local_of(t, ti.rank), r.stream, ti.bytes, ti.peer,
                ti.ready_s * 1e6);
        events++;
    }
    return oom ? -1 : events;
}

/* Writes the Chrome trace of s to path: built in memory, then written with
 * cr_file_write() (a temporary file beside path renamed over it, so path
 * holds a whole trace or is left as it was; a device or a FIFO, such as
 * /dev/null or /dev/stdout, in place). */
static int write_timeline(const cr_sim *s, const char *path, const char *what)
{
    const cr_topo *t = cr_sim_topo(s);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return cli_fail("sim", "out of memory building the timeline");
    fputs("{\"traceEvents\":[\n", f);
    long events = timeline_events(f, s);
    bool bad = events < 0;
    fprintf(f, "{\"ph\":\"M\",\"pid\":0,\"tid\":0,\"name\":\"commroof_end\",\"args\":{}}\n],\n");
    /* records: the events written (as the tracer's metadata.records,
     * traces/README.md), commroof_end included; the simulator's task
     * count, written before, counted markers and left out the metadata
     * events. command: what re-runs this trace (what_command). */
    json_t *meta =
        json_pack("{s:s,s:i,s:s,s:s,s:s,s:i,s:f,s:I}", "format", "commroof-trace", "format_version",
                  1, "tool", "commroof sim", "topology", t->name, "command", what, "ts_base_ns", 0,
                  "end_ts", cr_sim_makespan_s(s) * 1e6, "records", (json_int_t)(events + 1));
    char *m = meta ? cr_json_dumps(meta, JSON_COMPACT) : NULL;
    json_decref(meta);
    fprintf(f, "\"displayTimeUnit\":\"ns\",\n\"metadata\":%s}\n", m ? m : "{}");
    bad = bad || !m || ferror(f) != 0;
    free(m);
    if (fclose(f) != 0 || bad || !buf) {
        free(buf);
        return cli_fail("sim", "out of memory building the timeline");
    }
    cr_diag d = {{0}};
    cr_status st = cr_file_write(path, buf, len, &d);
    free(buf);
    if (st != CR_OK)
        return cli_fail("sim", "cannot write the timeline: %s", d.msg);
    return CLI_OK;
}

/* ---------- the command a timeline names ---------- */

/* Appends " w" to b, quoted for a POSIX shell where it holds anything but
 * letters, digits and -_./:,=+@% (a --topo path with a blank or a quote),
 * so that the timeline's command runs as it reads. */
static void add_word(cr_sbuf *b, const char *w)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "-_./:,=+@%";
    if (*w && w[strspn(w, safe)] == 0) {
        cr_sbuf_add(b, " %s", w);
        return;
    }
    cr_sbuf_add(b, " '");
    for (const char *p = w; *p; p++)
        cr_sbuf_add(b, *p == '\'' ? "'\\''" : "%c", *p);
    cr_sbuf_add(b, "'");
}

/* " name value" when value is given (not NULL). */
static void add_opt(cr_sbuf *b, const char *name, const char *value)
{
    if (!value)
        return;
    cr_sbuf_add(b, " %s", name);
    add_word(b, value);
}

/* The command line that re-runs what a timeline shows: the options as
 * given (--topo as typed, a file path or a shipped name; the topology's
 * own name can differ from both) and, for a sweep, its last size alone
 * (last_sz, the sweep's value before nccl-tests sizing). In b
 * (cr_sbuf_release). */
static void what_command(cr_sbuf *b, const struct opts *o, const cr_topo *t, double last_sz)
{
    cr_sbuf_add(b, "commroof sim");
    if (o->scenario)
        add_opt(b, "--scenario", o->scenario);
    else
        add_word(b, o->coll);
    add_opt(b, "--topo", o->topo ? o->topo : t->name); /* no --topo: the default, by name */
    if (o->scenario)
        return;
    char num[64];
    add_opt(b, "--ranks", o->ranks);
    snprintf(num, sizeof num, "%.0f", last_sz);
    add_opt(b, "-b", num);
    add_opt(b, "--dtype", o->dtype);
    add_opt(b, "--algo", o->algo);
    add_opt(b, "--proto", o->proto);
    snprintf(num, sizeof num, "%d", o->channels);
    add_opt(b, "--nchannels", o->channels > 0 ? num : NULL);
    snprintf(num, sizeof num, "%d", o->root);
    add_opt(b, "--root", o->root_given ? num : NULL);
    add_opt(b, "--grain", o->grain);
}

/* ---------- the simple form ---------- */

static int parse_enums(const struct opts *o, cr_coll *c, cr_coll_req *rq)
{
    cr_diag d = {{0}};
    if (cr_coll_parse(o->coll, c, &d) != CR_OK)
        return cli_usage_error("sim", "%s", d.msg);
    *rq = cr_coll_req_default(*c, 0);
    int bad_dt = cli_parse_nccl_dtype("sim", o->dtype, &rq->dtype);
    if (bad_dt)
        return bad_dt;
    if (o->algo && cr_algo_parse(o->algo, &rq->algo, &d) != CR_OK)
        return cli_usage_error("sim", "%s", d.msg);
    if (o->proto && cr_proto_parse(o->proto, &rq->proto, &d) != CR_OK)
        return cli_usage_error("sim", "%s", d.msg);
    int bad = cli_check_coll_opts("sim", *c, rq->dtype, o->root_given);
    if (bad)
        return bad;
    rq->nchannels = o->channels;
    rq->root = o->root;
    /* out of place, as coll and nccl-tests time it by default */
    rq->in_place = false;
    return 0;
}

static int grain_of(const char *grain, cr_sim_grain *g)
{
    *g = CR_SIM_GRAIN_AUTO;
    if (!grain || !strcmp(grain, "auto"))
        return 0;
    if (!strcmp(grain, "steps"))
        *g = CR_SIM_GRAIN_STEPS;
    else if (!strcmp(grain, "pipelined"))
        *g = CR_SIM_GRAIN_PIPELINED;
    else
        return cli_usage_error("sim", "--grain \"%s\": expected auto, steps or pipelined", grain);
    return 0;
}

/* Progress of a long run on stderr (only when it is a terminal): the
 * simulator calls this every 65,536 events. */
static bool progress_shown; /* a progress line is on the terminal */

static void progress(void *ctx, long finished, long n_tasks, double now_s)
{
    progress_shown = true;
    fprintf(stderr, "\rcommroof sim: %s: %ld of %ld tasks done, simulated %.3f us   ",
            (const char *)ctx, finished, n_tasks, now_s * 1e6);
    fflush(stderr);
}

/* Ends a progress line, if one was started. */
static void progress_done(void)
{
    if (progress_shown)
        fprintf(stderr, "\r%-100s\r", "");
    progress_shown = false;
}

/* Simulates one size; on success *out is the simulator (cr_sim_free).
 * memo: the sweep's routes (cr_sim_route_memo), which do not depend on
 * the size. */
static int sim_one(const cr_topo *t, const cr_rankset *rs, cr_coll c, double S, int root,
                   const cr_coll_pred *p, cr_sim_grain grain, cr_sim_route_memo *memo, cr_sim **out,
                   int *op)
{
    cr_diag d = {{0}};
    cr_sim_coll_spec sp = cr_sim_coll_spec_from_pred(c, S, p);
    sp.grain = grain;
    sp.root = root;
    cr_sim *s = NULL;
    char what[64];
    snprintf(what, sizeof what, "%s %.0f B", cr_coll_name(c), S);
    *out = NULL;
    if (cr_sim_new(t, &s, &d) != CR_OK)
        return cli_fail("sim", "%s", d.msg);
    cr_sim_set_route_memo(s, memo);
    if (cli_progress_enabled())
        cr_sim_set_progress(s, progress, what);
    cr_status st = cr_sim_coll_add(s, &sp, rs->ranks, rs->n, op, &d);
    if (st == CR_OK)
        st = cr_sim_run(s, &d);
    progress_done();
    cr_sim_set_progress(s, NULL, NULL);
    if (st != CR_OK) {
        cr_sim_free(s);
        return cli_fail("sim", "%s", d.msg);
    }
    *out = s;
    return CLI_OK;
}

static void print_header(FILE *out, const cr_topo *t, cr_coll c, const cr_rankset *rs,
                         const char *rtxt, const cr_coll_req *rq, bool att)
{
    fprintf(out, "# commroof sim %s  topology %s  ranks %s (%d)  dtype %s%s\n", cr_coll_name(c),
            t->name, rtxt, rs->n, cr_dtype_name(rq->dtype), cli_forced_note(rq->algo, rq->proto));
    fprintf(out,
            "# bound, pred: as commroof coll (doc/bounds.md); sim: flow-level simulation of pred's "
            "algorithm on the topology graph (doc/simulator.md)\n");
    const char *p2p = cli_p2p_proto_note(c, rq->proto, CR_MECH_NONE);
    if (p2p)
        fprintf(out, "# pred: %s\n", p2p);
    fprintf(out, "#\n");
    fprintf(out, "# %12s %12s %8s %10s %-14s ", "size", "count", "type", "bound_us", "binding");
    if (att)
        fprintf(out, "%10s ", "attain_us");
    fprintf(out, "%10s %-8s %-6s %9s %9s %9s %9s %11s %9s %9s %7s %3s\n", "pred_us", "algo",
            "proto", "bnd_algbw", "bnd_busbw", "algbw", "busbw", "sim_us", "sim_algbw", "sim_busbw",
            "sim/pr", "ch");
    fprintf(out, "# %12s %12s %8s %10s %-14s ", "(B)", "(elements)", "", "(us)", "");
    if (att)
        fprintf(out, "%10s ", "(us)");
    fprintf(out, "%10s %-8s %-6s %9s %9s %9s %9s %11s %9s %9s %7s %3s\n", "(us)", "", "", "(GB/s)",
            "(GB/s)", "(GB/s)", "(GB/s)", "(us)", "(GB/s)", "(GB/s)", "", "");
}

static int run_simple(const struct opts *o, FILE *out)
{
    cr_coll c;
    cr_coll_req rq;
    cr_sim_grain grain;
    int rc = parse_enums(o, &c, &rq);
    if (rc || (rc = grain_of(o->grain, &grain)))
        return rc;
    /* a grain the expansion would not take was accepted and ignored (QA
     * audit of 2026-12-08: --grain steps on a tree or an all-to-all) */
    if (grain != CR_SIM_GRAIN_AUTO && !cr_sim_grain_applies(c, rq.algo))
        return cli_usage_error("sim",
                               "--grain %s: %s%s%s runs the same at any grain; --grain applies "
                               "to ring allreduce, allgather and reducescatter (leave it out)",
                               o->grain, rq.algo != CR_ALGO_AUTO ? cr_algo_name(rq.algo) : "",
                               rq.algo != CR_ALGO_AUTO ? " " : "", cr_coll_name(c));
    cr_topo *t = cli_open_topo("sim", o->topo);
    if (!t)
        return CLI_FAIL;
    cr_diag d = {{0}};
    cr_rankset *rs = NULL;
    cr_coll_ctx *ctx = NULL;
    json_t *root = NULL, *rows = NULL;
    cr_sim *last = NULL;
    cr_sim_route_memo *memo = NULL;
    double last_S = o->b, last_sz = o->b;
    rc = CLI_OK;
    if (cr_sim_route_memo_new(&memo) != CR_OK) {
        rc = cli_fail("sim", "out of memory");
        goto out;
    }
    if (cr_rankset_parse(o->ranks ? o->ranks : "all", t->n_gpus, &rs, &d) != CR_OK) {
        rc = cli_usage_error("sim", "--ranks: %s", d.msg[0] ? d.msg : "out of memory");
        goto out;
    }
    if (rs->n < 2) {
        /* nothing crosses a link: coll's figure for one rank is its local copy */
        rc = cli_usage_error("sim",
                             "--ranks %s: one rank moves nothing between GPUs; the flow "
                             "simulator needs two or more (commroof coll predicts the "
                             "local copy)",
                             o->ranks ? o->ranks : "all");
        goto out;
    }
    if (rq.root >= rs->n) {
        rc = cli_usage_error("sim",
                             "--root %d is not a rank of the communicator: ranks count the GPUs "
                             "of --ranks in order, 0-%d here (as nccl-tests' -r)",
                             rq.root, rs->n - 1);
        goto out;
    }
    cr_status cst = cr_coll_ctx_new(t, rs, &ctx, &d);
    if (cst != CR_OK) {
        /* CR_EINVAL: the rank set cannot be served (ranks without a path
         * over the set's own GPUs): the command line's fault */
        rc = cst == CR_EINVAL ? cli_usage_error("sim", "%s", d.msg) : cli_fail("sim", "%s", d.msg);
        goto out;
    }
    cr_coll_ceilings ceil;
    if (cr_coll_ceilings_for(t, rs->ranks[0], &ceil, &d) != CR_OK) {
        rc = cli_fail("sim", "%s", d.msg);
        goto out;
    }
    char rtxt[128];
    cr_rankset_format(rs, t->n_gpus, rtxt, sizeof rtxt);
    double esize = cr_dtype_bytes(rq.dtype); /* >= 1: fp4 is refused */
    double bbf = cr_coll_busbw_factor(c, rs->n);
    /* A forced algorithm or protocol that cannot run here is a usage error,
     * found before anything is printed, at every size of the sweep (as
     * coll: whether a choice runs can depend on the size, RCCL's MSCCL
     * all-pairs allreduce on 8 MI300X covering only up to 16 MiB). */
    for (double sz = o->b; rq.algo != CR_ALGO_AUTO || rq.proto != CR_PROTO_AUTO;
         sz = cli_next_size(sz, o->f, 0)) {
        cr_coll_req probe = rq;
        probe.bytes = cr_coll_nccl_bytes(c, sz, esize, rs->n);
        cr_coll_result pr;
        if (cr_coll_eval(ctx, &probe, &pr, &d) != CR_OK) {
            rc = cli_usage_error("sim", "%s", d.msg);
            goto out;
        }
        if (!pr.pred.supported) {
            char at[96] = "";
            if (sz > o->b) /* the sizes before it run: say where the sweep must stop */
                snprintf(at, sizeof at,
                         " at %.0f B (the sweep's sizes below it run: end it there with -e)",
                         probe.bytes);
            rc = cli_usage_error("sim",
                                 "--algo %s --proto %s cannot run %s of %s on %s, ranks %s%s: %s",
                                 cr_algo_name(rq.algo), cr_proto_name(rq.proto), cr_coll_name(c),
                                 cr_dtype_name(rq.dtype), t->name, rtxt, at, pr.pred.why);
            goto out;
        }
        /* coll prices CollNet (SHARP across nodes) as one aggregation; the
         * simulator has no schedule of its messages: refused here too,
         * before the table starts (doc/simulator.md) */
        if (pr.pred.algo == CR_ALGO_COLLNET) {
            rc =
                cli_usage_error("sim", "algorithm collnet is not simulated; use --algo ring, tree, "
                                       "nvls, nvlstree, pat or direct (coll prices collnet)");
            goto out;
        }
        if (cli_next_size(sz, o->f, 0) > o->e * (1 + 1e-12))
            break;
    }
    if (o->json) {
        root = json_pack("{s:s,s:s,s:s,s:s,s:i,s:s,s:f}", "command", "sim", "coll", cr_coll_name(c),
                         "topology", t->name, "ranks", rtxt, "nranks", rs->n, "dtype",
                         cr_dtype_name(rq.dtype), "busbw_factor", bbf);
        const char *p2p = cli_p2p_proto_note(c, rq.proto, CR_MECH_NONE);
        if (p2p)
            json_object_set_new(root, "note", json_string(p2p));
        rows = json_array();
    } else {
        print_header(out, t, c, rs, rtxt, &rq, ceil.measured);
    }
    for (double sz = o->b;;) {
        /* sized as coll and nccl-tests size their buffers */
        double S = cr_coll_nccl_bytes(c, sz, esize, rs->n);
        rq.bytes = S;
        cr_coll_result res;
        d.msg[0] = 0;
        if (cr_coll_eval(ctx, &rq, &res, &d) != CR_OK) {
            rc = cli_fail("sim", "%s", d.msg);
            goto out;
        }
        const cr_coll_pred *p = &res.pred;
        if (!p->supported) {
            rc = cli_fail("sim", "%s %s/%s cannot run here: %s", cr_coll_name(c),
                          cr_algo_name(p->algo), cr_proto_name(p->proto), p->why);
            goto out;
        }
        cr_sim *s = NULL;
        int op;
        /* only the last size's simulator is shown after the table: the one
         * before goes now, so that two are never held at once */
        cr_sim_free(last);
        last = NULL;
        if ((rc = sim_one(t, rs, c, S, rq.root, p, grain, memo, &s, &op)) != CLI_OK)
            goto out;
        cr_sim_op_result r = cr_sim_op_get(s, op);
        double T = r.end_s - r.start_s;
        double algbw = T > 0 ? S / T : 0;
        /* the count column as coll and nccl-tests print it (per rank for
         * allgather, reducescatter, alltoall, gather and scatter) */
        double count = cr_coll_nccl_count(c, S, esize, rs->n),
               ratio = p->pred_s > 0 ? T / p->pred_s : 0;
        if (o->json) {
            cr_sim_stats st = cr_sim_stats_get(s);
            json_t *e = json_object();
            json_object_set_new(e, "size_bytes", cr_json_count(S));
            json_object_set_new(e, "count", cr_json_count(count));
            json_object_set_new(e, "bound_us", json_real(res.bound.bound_s * 1e6));
            json_object_set_new(e, "binding", json_string(res.bound.binding));
            json_object_set_new(e, "binding_where", json_string(res.bound.binding_where));
            json_object_set_new(e, "attainable_us", json_real(res.bound.attainable_s * 1e6));
            json_object_set_new(e, "bound_algbw_GBps", json_real(res.bound.algbw_Bps / GBPS));
            json_object_set_new(e, "bound_busbw_GBps", json_real(res.bound.busbw_Bps / GBPS));
            json_object_set_new(e, "pred_us", json_real(p->pred_s * 1e6));
            json_object_set_new(e, "algbw_GBps", json_real(p->algbw_Bps / GBPS));
            json_object_set_new(e, "busbw_GBps", json_real(p->busbw_Bps / GBPS));
            json_object_set_new(e, "algo", json_string(cr_algo_name(p->algo)));
            json_object_set_new(e, "proto", json_string(cr_proto_name(p->proto)));
            json_object_set_new(e, "nchannels", json_integer(p->nchannels));
            json_object_set_new(e, "sim_us", json_real(T * 1e6));
            json_object_set_new(e, "sim_algbw_GBps", json_real(algbw / GBPS));
            json_object_set_new(e, "sim_busbw_GBps", json_real(algbw * bbf / GBPS));
            /* null at 0 B, where both are 0 (0 / 0) */
            json_object_set_new(e, "sim_over_pred", p->pred_s > 0 ? json_real(ratio) : json_null());
            json_object_set_new(e, "flows", json_integer(st.n_flows));
            json_object_set_new(e, "events", json_integer(st.n_events));
            json_array_append_new(rows, e);
        } else {
            fprintf(out, "  %12.0f %12.0f %8s %10.2f %-14s ", S, count,
                    cli_nccl_type_name(rq.dtype), res.bound.bound_s * 1e6, res.bound.binding);
            if (ceil.measured)
                fprintf(out, "%10.2f ", res.bound.attainable_s * 1e6);
            char ratio_s[16];
            if (p->pred_s > 0)
                snprintf(ratio_s, sizeof ratio_s, "%7.3f", ratio);
            else
                snprintf(ratio_s, sizeof ratio_s, "%7s", "-");
            fprintf(out, "%10.2f %-8s %-6s %9.2f %9.2f %9.2f %9.2f %11.3f %9.2f %9.2f %s %3d\n",
                    p->pred_s * 1e6, cr_algo_name(p->algo), cr_proto_name(p->proto),
                    res.bound.algbw_Bps / GBPS, res.bound.busbw_Bps / GBPS, p->algbw_Bps / GBPS,
                    p->busbw_Bps / GBPS, T * 1e6, algbw / GBPS, algbw * bbf / GBPS, ratio_s,
                    p->nchannels);
        }
        last = s;
        last_S = S;
        last_sz = sz;
        double next = cli_next_size(sz, o->f, 0);
        if (next > o->e * (1 + 1e-12))
            break;
        sz = next;
    }
    if (o->json) {
        json_object_set_new(root, "sizes", rows);
        rows = NULL;
        json_object_set_new(root, "ops", ops_json(last, o->per_rank));
        json_object_set_new(root, "busiest", busiest_json(last, o->top));
    } else {
        fprintf(out, "#\n# details of the last size (%.0f B):\n", last_S);
        print_ops(out, last, o->per_rank);
        if (print_busiest(out, last, o->top)) {
            rc = cli_fail("sim", "out of memory");
            goto out;
        }
    }
    if (o->timeline) {
        cr_sbuf what = {0};
        what_command(&what, o, t, last_sz);
        rc = what.oom ? cli_fail("sim", "out of memory building the timeline")
                      : write_timeline(last, o->timeline, what.p);
        cr_sbuf_release(&what);
        if (rc != CLI_OK)
            goto out;
    }
    if (o->json) {
        char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(SIM_JSON_DIGITS));
        if (!txt) {
            rc = cli_fail("sim", "out of memory writing JSON");
            goto out;
        }
        fprintf(out, "%s\n", txt);
        free(txt);
    }
out:
    json_decref(root);
    json_decref(rows);
    cr_sim_free(last);
    cr_sim_route_memo_free(memo);
    cr_coll_ctx_free(ctx);
    cr_rankset_free(rs);
    cr_topo_free(t);
    return rc;
}

/* ---------- scenarios ---------- */

static int run_scenario(const struct opts *o, FILE *out)
{
    cr_topo *t = cli_open_topo("sim", o->topo);
    if (!t)
        return CLI_FAIL;
    cr_diag d = {{0}};
    cr_sim *s = NULL;
    int rc = CLI_OK;
    cr_status st = cr_scenario_load_file(o->scenario, t, &s, &d);
    if (st != CR_OK) {
        /* a missing or invalid scenario file exits 1, as a bad topology or
         * suite file does; the message names file:line */
        rc = cli_fail("sim", "%s", d.msg);
        goto out;
    }
    if (cli_progress_enabled())
        cr_sim_set_progress(s, progress, (void *)(uintptr_t)o->scenario);
    st = cr_sim_run(s, &d);
    progress_done();
    if (st != CR_OK) {
        rc = cli_fail("sim", "%s", d.msg);
        goto out;
    }
    if (o->json) {
        cr_sim_stats ss = cr_sim_stats_get(s);
        json_t *root =
            json_pack("{s:s,s:s,s:s,s:f,s:I,s:I}", "command", "sim", "scenario", o->scenario,
                      "topology", t->name, "makespan_us", cr_sim_makespan_s(s) * 1e6, "flows",
                      (json_int_t)ss.n_flows, "events", (json_int_t)ss.n_events);
        json_object_set_new(root, "ops", ops_json(s, o->per_rank));
        json_object_set_new(root, "busiest", busiest_json(s, o->top));
        char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(SIM_JSON_DIGITS));
        json_decref(root);
        if (!txt) {
            rc = cli_fail("sim", "out of memory writing JSON");
            goto out;
        }
        fprintf(out, "%s\n", txt);
        free(txt);
    } else {
        cr_sim_stats ss = cr_sim_stats_get(s);
        fprintf(out,
                "# commroof sim --scenario %s on %s: makespan %.3f us, %ld flows, %ld events\n",
                o->scenario, t->name, cr_sim_makespan_s(s) * 1e6, ss.n_flows, ss.n_events);
        print_ops(out, s, o->per_rank);
        if (print_busiest(out, s, o->top)) {
            rc = cli_fail("sim", "out of memory");
            goto out;
        }
    }
    if (o->timeline) {
        cr_sbuf what = {0};
        what_command(&what, o, t, 0);
        rc = what.oom ? cli_fail("sim", "out of memory building the timeline")
                      : write_timeline(s, o->timeline, what.p);
        cr_sbuf_release(&what);
    }
out:
    cr_sim_free(s);
    cr_topo_free(t);
    return rc;
}

int cli_cmd_sim(int argc, char **argv)
{
    struct opts o;
    int rc = parse(argc, argv, &o);
    if (rc < 0)
        return CLI_OK;
    if (rc)
        return rc;
    /* stdout gets the whole table or nothing: a failure part way (a size
     * past the simulator's budget, a timeline that cannot be written) left
     * the header and the rows before it on stdout, exit 1 */
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        return cli_fail("sim", "out of memory");
    rc = o.scenario ? run_scenario(&o, out) : run_simple(&o, out);
    bool bad = ferror(out) != 0;
    /* glibc's fclose of a memstream says 0 but leaves buf NULL where its
     * last realloc fails (QA audit of allocation failures: fwrite(NULL)) */
    if (fclose(out) != 0 || bad || !buf) {
        free(buf);
        return rc ? rc : cli_fail("sim", "out of memory building the output");
    }
    if (rc == CLI_OK)
        fwrite(buf, 1, len, stdout);
    free(buf);
    return rc;
}
