/* SPDX-License-Identifier: MIT */
/*
 * `commroof coll COLL --topo T [--ranks SPEC] [-b MIN] [-e MAX] [-f FACTOR]
 * [--dtype D] [--algo A] [--proto P] [--mech M] [--json]`: for each message
 * size, the bound (with its binding resource) and the prediction of NCCL's
 * choice (or the forced algorithm/protocol, or a custom kernel's mechanism),
 * with algbw and busbw as nccl-tests reports them.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dump.h"
#include "cli.h"
#include "opts.h"
#include "coll.h"
#include "rankset.h"
#include "topo_xml.h"
#include "units.h"
#include "json_num.h"

#define GBPS 1e9

static const char coll_help_head[] =
    "usage: commroof coll COLL [--topo T] [--ranks SPEC] [-b MIN] [-e MAX] [-f FACTOR | -i STEP]\n"
    "                     [--dtype D] [--algo A] [--proto P] [--mech M] [--sms N]\n"
    "                     [--root R] [--nchannels N] [--ranks-per-process N] [--loop N]\n"
    "                     [--nccl-version V] [--nccl-algo LIST] [--nccl-proto LIST]\n"
    "                     [--nccl-tests-version V] [--no-in-network] [--in-place]\n"
    "                     [--terms] [--json]\n"
    "\n"
    "For each message size: the bound (the least time any implementation could take\n"
    "on the topology, with the resource that sets it), the prediction for the\n"
    "algorithm and protocol NCCL would choose (or the ones forced), and algbw/busbw\n"
    "as nccl-tests reports them. doc/bounds.md derives every bound.\n"
    "\n";

static const char coll_help_tail[] =
    "\n"
    "Sizes follow nccl-tests: allgather and gather count the whole gathered array,\n"
    "reducescatter and scatter the whole input, alltoall one rank's send buffer;\n"
    "sizes round down to whole elements and, for those five, to a per-rank part of\n"
    "a multiple of 16 bytes, whose element count is the count column (as nccl-tests\n"
    "2.13.12 and later; --nccl-tests-version for an older one's sizes).\n"
    "GB/s = 1e9 bytes per second; busbw = algbw x the nccl-tests factor.\n"
    "Exit status: 0 ok; 2 usage, including a forced algorithm, protocol or mechanism\n"
    "that cannot run on the topology and ranks (the reason is printed); 1 runtime.\n"
    "\n"
    "examples:\n"
    "  commroof coll allreduce --topo hgx-h100-8 -b 1M -e 8G -f 4\n"
    "  commroof coll allgather --topo h100-ib-128n --ranks 0-1023:8 -b 1G -e 1G\n"
    "  commroof coll allreduce --topo hgx-h200-8 --mech multimem -b 64M -e 64M --json\n";

struct opts {
    const char *coll_s, *topo, *ranks, *dtype_s, *algo_s, *proto_s, *mech_s;
    const char *nccl_algo, *nccl_proto; /* the run's NCCL_ALGO / NCCL_PROTO */
    double min_b, max_b, factor, step;
    int root, nchannels, sms, rpp, nccl_version;
    int nt_version; /* --nccl-tests-version: whose size rounding; 0 the newest */
    const char *nt_version_s;
    int loop_ops; /* --loop: nccl-tests' timed loop of that many operations; 0 none */
    bool in_network, in_place, terms, json, root_given;
};

static int parse_int(const char *s, int lo, int hi, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

enum {
    O_HELP = 1,
    O_NO_IN_NETWORK,
    O_MIN,
    O_MAX,
    O_FACTOR,
    O_STEP,
    O_ROOT,
    O_NCHANNELS,
    O_RPP,
    O_LOOP,
    O_SMS,
    O_NCCL_VERSION,
    O_NCCL_ALGO,
    O_NCCL_PROTO,
    O_NT_VERSION,
};

static int parse_args(int argc, char **argv, struct opts *o)
{
    memset(o, 0, sizeof *o);
    o->min_b = 8;
    o->max_b = 8.0 * 1024 * 1024 * 1024;
    o->factor = 2;
    o->in_network = true;
    bool got_e = false, got_f = false;
    const cli_opt opts[] = {
        {.label = "COLL",
         .help = "allreduce, allgather, reducescatter, alltoall, broadcast, reduce,\n"
                 "gather, scatter, sendrecv"},
        {"--topo", NULL, "T", "shipped name (commroof topo list) or file; default " CR_TOPO_DEFAULT,
         .str = &o->topo},
        {"--ranks", NULL, "SPEC", "all (default), 0-7, 0-8191:8 (one GPU per 8-GPU node), 0,3,5",
         .str = &o->ranks},
        {"-b", "--minbytes", "MIN",
         "sizes as nccl-tests takes them: bytes, with K/M/G (powers of\n"
         "1024) or units (1GB, 4KiB); defaults 8 and 8G",
         .label = "-b MIN, -e MAX", .id = O_MIN},
        {"-e", "--maxbytes", "MAX", NULL, .id = O_MAX},
        {"-f", "--stepfactor", "FACTOR", "multiply the size by FACTOR each row (default 2)",
         .id = O_FACTOR},
        {"-i", "--stepbytes", "STEP", "add STEP bytes each row instead", .id = O_STEP},
        {"--dtype", "-d", "D", "fp32 (default), bf16, fp16, fp8, int8 (also fp64)",
         .str = &o->dtype_s},
        {"--algo", NULL, "A", "ring, tree, nvls, nvlstree, pat, direct, collnet, auto (default)",
         .str = &o->algo_s},
        {"--proto", NULL, "P",
         "ll, ll128, simple, auto (default); NCCL's point-to-point\n"
         "(alltoall, gather, scatter, sendrecv) picks its own, said in the header",
         .str = &o->proto_s},
        {"--mech", NULL, "M", "a custom kernel on ce (copy engine), tma, ldst or multimem",
         .str = &o->mech_s},
        {"--sms", NULL, "N", "SMs a custom kernel gives to communication (default: saturating)",
         .id = O_SMS},
        {"--root", NULL, "R",
         "root rank (broadcast, reduce, gather, scatter): its position in\n"
         "--ranks, as nccl-tests' -r; default 0",
         .id = O_ROOT},
        {"--nchannels", NULL, "N",
         "NCCL channels (default: as NCCL picks), as NCCL_MAX_NCHANNELS:\n"
         "the choice of algorithm and protocol still prices the channels\n"
         "of NCCL's graph, as NCCL's tuning.cc does",
         .id = O_NCHANNELS},
        {"--ranks-per-process", NULL, "N",
         "GPUs one host thread drives: 1 (default) = one process per\n"
         "GPU, as torchrun, mpirun and PyTorch run; the rank count = one\n"
         "process for all (nccl-tests -g N); each extra GPU adds the host\n"
         "launch gap (param coll.launch_gap) to the NCCL prediction",
         .id = O_RPP},
        {"--loop", NULL, "N",
         "predict what nccl-tests prints: its host-timed loop of N\n"
         "back-to-back operations over N (-n N x -m; nccl-tests' default\n"
         "20), as validate and calibrate --nccl-tests predict logs: the\n"
         "host's enqueue cost (coll.host_op per GPU a thread drives,\n"
         "--ranks-per-process) overlaps the GPUs' time instead of adding\n"
         "the launch gap, and a chain's fill spreads over the loop",
         .id = O_LOOP},
        {"--nccl-version", NULL, "V",
         "the NCCL release whose choices to follow (2.23.4; default the\n"
         "model's, 2.28.9): LL128 across nodes over NVLink-C2C from 2.27",
         .id = O_NCCL_VERSION},
        {"--nccl-algo", NULL, "LIST",
         "NCCL's choice among what NCCL_ALGO=LIST leaves (Ring, ^NVLS,\n"
         "allreduce:tree;allgather:ring)",
         .str = &o->nccl_algo, .id = O_NCCL_ALGO},
        {"--nccl-proto", NULL, "LIST", "the same for NCCL_PROTO (Simple, ^LL128)",
         .str = &o->nccl_proto, .id = O_NCCL_PROTO},
        {"--nccl-tests-version", NULL, "V",
         "the nccl-tests release whose sizes to run (default: 2.13.12 or\n"
         "later, a rank's part a multiple of 16 bytes). Before 2.13.12\n"
         "alltoall, gather and scatter split to whole elements, allgather\n"
         "and reducescatter to 4 elements (1 before 2.13.4): a log whose\n"
         "count column shows such parts (8 ranks, 32 B, count 1) is one",
         .str = &o->nt_version_s, .id = O_NT_VERSION},
        {"--no-in-network", NULL, NULL,
         "as if the switches could not reduce or multicast: the bound\n"
         "without it, and NCCL's choice without NVLS, NVLS tree and\n"
         "CollNet (--mech multimem refused)",
         .id = O_NO_IN_NETWORK},
        {"--in-place", NULL, NULL,
         "receive buffer = send buffer (default out of place, as nccl-tests'\n"
         "first column; matters for one rank: out of place NCCL copies)",
         .flag = &o->in_place},
        {"--terms", NULL, NULL, "also print every term of the bound for each size",
         .flag = &o->terms},
        {"--json", NULL, NULL, "one JSON document on stdout", .flag = &o->json},
        {"--help", "-h", NULL, "this text", .label = "--help, -h", .id = O_HELP},
        {0}};
    cli_args args = cli_args_begin("coll", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r == CLI_ARGS_ARG) {
            if (o->coll_s)
                return cli_usage_error("coll", "unexpected argument \"%s\" (one collective only)",
                                       v);
            o->coll_s = v;
            continue;
        }
        switch (args.opt->id) {
        case O_HELP:
            fputs(coll_help_head, stdout);
            cli_opts_help(stdout, opts, 18, 0);
            fputs(coll_help_tail, stdout);
            return -1;
        case O_NO_IN_NETWORK:
            o->in_network = false;
            break;
        case O_MIN:
            if (cli_parse_size(v, &o->min_b))
                return cli_usage_error("coll",
                                       "-b \"%s\" is not a whole number of bytes from 0 to 1PB "
                                       "(e.g. 8, 128K, 1G, 4KiB)",
                                       v);
            break;
        case O_MAX:
            if (cli_parse_size(v, &o->max_b))
                return cli_usage_error("coll",
                                       "-e \"%s\" is not a whole number of bytes from 0 to 1PB "
                                       "(e.g. 8, 128K, 1G, 4KiB)",
                                       v);
            got_e = true;
            break;
        case O_FACTOR: {
            char *end = NULL;
            o->factor = strtod(v, &end);
            if (end == v || *end || !(o->factor > 1) || !isfinite(o->factor))
                return cli_usage_error("coll", "-f \"%s\" is not a factor > 1 (e.g. 2)", v);
            got_f = true;
            break;
        }
        case O_STEP:
            if (cli_parse_size(v, &o->step) || !(o->step > 0))
                return cli_usage_error("coll", "-i \"%s\" is not a step > 0 in bytes", v);
            break;
        case O_ROOT:
            if (parse_int(v, 0, 1 << 30, &o->root))
                return cli_usage_error("coll",
                                       "--root \"%s\": give a whole rank number from 0 to 2^30", v);
            o->root_given = true;
            break;
        case O_NCCL_VERSION: {
            cr_diag d = {{0}};
            if (cr_nccl_version_parse(v, &o->nccl_version, &d) != CR_OK)
                return cli_usage_error("coll", "--nccl-version: %s", d.msg);
            break;
        }
        case O_NCCL_ALGO:
        case O_NCCL_PROTO: {
            int bad = cli_check_nccl_select("coll", v, args.opt->id == O_NCCL_PROTO);
            if (bad)
                return bad;
            break;
        }
        case O_NT_VERSION: {
            /* nccl-tests' own releases: 1.0.0 on, not NCCL's (2.8 on) */
            int ma, mi, pa, at = 0;
            if (sscanf(v, "%d.%d.%d%n", &ma, &mi, &pa, &at) != 3 || v[at] || ma < 1 || ma > 9 ||
                mi < 0 || mi > 99 || pa < 0 || pa > 99)
                return cli_usage_error("coll",
                                       "--nccl-tests-version \"%s\" is not an nccl-tests release: "
                                       "give major.minor.patch, as 2.13.11",
                                       v);
            o->nt_version = ma * 10000 + mi * 100 + pa;
            break;
        }
        case O_NCHANNELS:
            if (parse_int(v, 1, CR_COLL_MAX_NCHANNELS, &o->nchannels))
                return cli_usage_error("coll", "--nchannels \"%s\" is not a count in 1-%d", v,
                                       CR_COLL_MAX_NCHANNELS);
            break;
        case O_RPP:
            if (cli_parse_ranks_per_process("coll", v, &o->rpp) != CLI_OK)
                return CLI_USAGE;
            break;
        case O_LOOP:
            if (parse_int(v, 1, 1000000, &o->loop_ops))
                return cli_usage_error("coll",
                                       "--loop \"%s\" is not a count of operations in 1-1000000 "
                                       "(nccl-tests' -n, 20 by default)",
                                       v);
            break;
        case O_SMS:
            if (parse_int(v, 1, 4096, &o->sms))
                return cli_usage_error("coll", "--sms \"%s\" is not an SM count in 1-4096", v);
            break;
        default:
            break;
        }
    }
    if (!o->coll_s)
        return cli_usage_error("coll", "which collective? e.g. commroof coll allreduce --topo "
                                       "hgx-h100-8");
    if (!got_e && o->min_b > o->max_b)
        o->max_b = o->min_b;
    if (o->min_b > o->max_b)
        return cli_usage_error("coll", "-b %.0f is larger than -e %.0f", o->min_b, o->max_b);
    if (o->step > 0 && got_f)
        return cli_usage_error("coll", "give -f or -i, not both");
    if (o->min_b == 0 && o->max_b > 0 && !(o->step > 0))
        return cli_usage_error("coll", "-b 0 with a multiplying step never grows; start at -b 1 "
                                       "or use -i STEP");
    return 0;
}

/* algbw and busbw of `bytes` in `time_s`: where something moves in no time
 * (a bound of 0 where L2 holds the buffers, an in-place one-rank call) the
 * rate has no finite value: "inf" in the table, null in JSON. A busbw
 * factor of 0 (one rank) keeps busbw 0. */
static bool bw_unbounded(double bytes, double time_s)
{
    return bytes > 0 && !(time_s > 0);
}

static void bw_text(char *buf, size_t len, double Bps, double bytes, double time_s, double factor)
{
    if (bw_unbounded(bytes, time_s) && factor > 0)
        snprintf(buf, len, "%9s", "inf");
    else
        snprintf(buf, len, "%9.2f", bw_unbounded(bytes, time_s) ? 0.0 : Bps / GBPS);
}

static json_t *bw_json(double Bps, double bytes, double time_s, double factor)
{
    if (bw_unbounded(bytes, time_s))
        return factor > 0 ? json_null() : json_real(0);
    return json_real(Bps / GBPS);
}

/* The request for one size: the options' fields over base's. */
static cr_coll_req make_req(const struct opts *o, const cr_coll_req *base, double bytes)
{
    cr_coll_req rq = cr_coll_req_default(base->coll, bytes);
    rq.dtype = base->dtype;
    rq.algo = base->algo;
    rq.proto = base->proto;
    rq.mech = base->mech;
    rq.nccl_algos = base->nccl_algos;
    rq.nccl_protos = base->nccl_protos;
    rq.root = o->root;
    rq.nchannels = o->nchannels;
    rq.nccl_version = o->nccl_version;
    rq.sms = o->sms;
    rq.in_network = o->in_network;
    rq.in_place = o->in_place;
    rq.ranks_per_process = o->rpp;
    /* nccl-tests' printed time (validate.c builds a log row's request the
     * same way) */
    rq.host_loop = o->loop_ops > 0;
    rq.loop_ops = o->loop_ops;
    return rq;
}

static json_t *terms_json(const cr_coll_bound *b)
{
    json_t *arr = json_array();
    for (int j = 0; j < b->n_terms; j++) {
        const cr_coll_term *t = &b->terms[j];
        json_t *e = json_object();
        json_object_set_new(e, "name", json_string(t->name));
        json_object_set_new(e, "where", json_string(t->where));
        json_object_set_new(e, "bytes", cr_json_count(t->bytes));
        json_object_set_new(e, "cap_GBps", json_real(t->cap_Bps / GBPS));
        if (t->main_class[0] && t->main_frac < 1) {
            json_object_set_new(e, "cap_main_class", json_string(t->main_class));
            json_object_set_new(e, "cap_main_GBps", json_real(t->cap_Bps * t->main_frac / GBPS));
        }
        json_object_set_new(e, "lat_us", json_real(t->lat_s * 1e6));
        json_object_set_new(e, "time_us", json_real(t->time_s * 1e6));
        json_array_append_new(arr, e);
    }
    /* the latency term, as the text's last line (a bound bound by it had
     * no term of its value in JSON) */
    json_t *e = json_object();
    json_object_set_new(e, "name", json_string("latency"));
    json_object_set_new(e, "time_us", json_real(b->lat_s * 1e6));
    json_array_append_new(arr, e);
    return arr;
}

int cli_cmd_coll(int argc, char **argv)
{
    struct opts o;
    int pr = parse_args(argc, argv, &o);
    if (pr != 0)
        return pr < 0 ? CLI_OK : pr;

    cr_diag d = {{0}};
    cr_coll coll;
    cr_dtype dt = CR_DT_FP32;
    cr_algo algo = CR_ALGO_AUTO;
    cr_proto proto = CR_PROTO_AUTO;
    cr_mech mech = CR_MECH_NONE;
    if (cr_coll_parse(o.coll_s, &coll, &d) != CR_OK)
        return cli_usage_error("coll", "%s", d.msg);
    int bad_dt = cli_parse_nccl_dtype("coll", o.dtype_s, &dt);
    if (bad_dt)
        return bad_dt;
    if (o.algo_s && cr_algo_parse(o.algo_s, &algo, &d) != CR_OK)
        return cli_usage_error("coll", "%s", d.msg);
    if (o.proto_s && cr_proto_parse(o.proto_s, &proto, &d) != CR_OK)
        return cli_usage_error("coll", "%s", d.msg);
    if (o.mech_s && cr_mech_parse(o.mech_s, &mech, &d) != CR_OK)
        return cli_usage_error("coll", "%s", d.msg);
    if (mech != CR_MECH_NONE && (algo != CR_ALGO_AUTO || proto != CR_PROTO_AUTO))
        return cli_usage_error("coll", "--mech models a custom kernel; it does not take --algo "
                                       "or --proto");
    int bad = cli_check_coll_opts("coll", coll, dt, o.root_given);
    if (bad)
        return bad;
    /* a forced algorithm or protocol leaves NCCL no choice to follow */
    if ((o.nccl_algo && algo != CR_ALGO_AUTO) || (o.nccl_proto && proto != CR_PROTO_AUTO))
        return cli_usage_error("coll",
                               "--%s forces the %s, --nccl-%s gives NCCL's choice among "
                               "what it leaves: give one of the two",
                               o.nccl_algo && algo != CR_ALGO_AUTO ? "algo" : "proto",
                               o.nccl_algo && algo != CR_ALGO_AUTO ? "algorithm" : "protocol",
                               o.nccl_algo && algo != CR_ALGO_AUTO ? "algo" : "proto");
    /* options that would be ignored are refused, so none is silently lost */
    if (o.sms > 0 && mech == CR_MECH_NONE)
        return cli_usage_error("coll", "--sms sets a custom kernel's SM count; give --mech too "
                                       "(NCCL's channels: --nchannels)");
    if (o.nchannels > 0 && mech != CR_MECH_NONE)
        return cli_usage_error("coll", "--nchannels sets NCCL's channels; a custom kernel (--mech) "
                                       "takes --sms");

    int n_sizes = cli_count_sizes(o.min_b, o.max_b, o.factor, o.step, CLI_MAX_SIZES);
    if (n_sizes > CLI_MAX_SIZES) {
        if (o.step > 0)
            return cli_usage_error("coll",
                                   "-b %.0f -e %.0f -i %.0f gives more than %d sizes; use "
                                   "a larger -i",
                                   o.min_b, o.max_b, o.step, CLI_MAX_SIZES);
        return cli_usage_error("coll",
                               "-b %.0f -e %.0f -f %g gives more than %d sizes; use a "
                               "larger -f",
                               o.min_b, o.max_b, o.factor, CLI_MAX_SIZES);
    }

    cr_topo *t = cli_open_topo("coll", o.topo);
    if (!t)
        return CLI_FAIL;
    int rc = CLI_OK;
    cr_rankset *rs = NULL;
    cr_coll_ctx *ctx = NULL;
    json_t *root = NULL, *rows = NULL;
    cr_coll_result *results = NULL; /* one per size of the sweep */
    if (cr_rankset_parse(o.ranks ? o.ranks : "all", t->n_gpus, &rs, &d) != CR_OK) {
        rc = cli_usage_error("coll", "--ranks: %s", d.msg);
        goto out;
    }
    if (o.root >= rs->n && cr_coll_rooted(coll)) {
        rc = cli_usage_error("coll",
                             "--root %d is not a rank of the communicator: ranks count the GPUs "
                             "of --ranks in order, 0-%d here (as nccl-tests' -r)",
                             o.root, rs->n - 1);
        goto out;
    }
    if (o.rpp > 0 && o.rpp <= rs->n && rs->n % o.rpp != 0) {
        /* nccl-tests runs the same -g N in every process */
        rc = cli_usage_error("coll",
                             "--ranks-per-process %d does not divide the %d rank(s) of the set: "
                             "every process drives the same number of GPUs",
                             o.rpp, rs->n);
        goto out;
    }
    if (o.rpp > rs->n) {
        rc = cli_usage_error("coll",
                             "--ranks-per-process %d exceeds the %d rank(s) of the set (%d = one "
                             "process drives them all)",
                             o.rpp, rs->n, rs->n);
        goto out;
    }
    cr_status cst = cr_coll_ctx_new(t, rs, &ctx, &d);
    if (cst != CR_OK) {
        /* CR_EINVAL: the rank set cannot be served (ranks without a path
         * over the set's own GPUs): the command line's fault */
        rc =
            cst == CR_EINVAL ? cli_usage_error("coll", "%s", d.msg) : cli_fail("coll", "%s", d.msg);
        goto out;
    }
    int n = rs->n;
    double esize = cr_dtype_bytes(dt); /* >= 1: fp4 is refused above */
    char rtext[128];
    cr_rankset_format(rs, t->n_gpus, rtext, sizeof rtext);
    /* the attainable column appears where the topology carries measured
     * ceilings (it equals the bound elsewhere; JSON always has it) */
    cr_coll_ceilings ceil;
    if (cr_coll_ceilings_for(t, rs->ranks[0], &ceil, &d) != CR_OK) {
        rc = cli_fail("coll", "%s", d.msg);
        goto out;
    }
    bool att = ceil.measured;
    cr_coll_req base = cr_coll_req_default(coll, 0);
    base.dtype = dt;
    base.algo = algo;
    base.proto = proto;
    base.mech = mech;
    /* the run's NCCL_ALGO / NCCL_PROTO for this collective (checked above) */
    if ((o.nccl_algo && cr_nccl_select_parse(o.nccl_algo, false, coll, &base.nccl_algos, &d)) ||
        (o.nccl_proto && cr_nccl_select_parse(o.nccl_proto, true, coll, &base.nccl_protos, &d))) {
        rc = cli_usage_error("coll", "%s", d.msg);
        goto out;
    }
    /* Every size is evaluated once, before anything is printed: a forced
     * algorithm, protocol or mechanism that cannot run at one of them is a
     * usage error, and whether a choice runs can depend on the size (RCCL's
     * MSCCL all-pairs allreduce, the direct algorithm on 8 MI300X, covers
     * only up to 16 MiB). */
    bool forced = algo != CR_ALGO_AUTO || proto != CR_PROTO_AUTO || mech != CR_MECH_NONE;
    if (!(results = malloc((size_t)n_sizes * sizeof *results))) {
        rc = cli_fail("coll", "out of memory");
        goto out;
    }
    double sz = o.min_b;
    for (int k = 0; k < n_sizes; sz = cli_next_size(sz, o.factor, o.step), k++) {
        cr_coll_req rq =
            make_req(&o, &base, cr_coll_nccl_tests_bytes(coll, sz, esize, n, o.nt_version));
        if (cr_coll_eval(ctx, &rq, &results[k], &d) != CR_OK) {
            rc = forced ? cli_usage_error("coll", "%s", d.msg) : cli_fail("coll", "%s", d.msg);
            goto out;
        }
        if (!forced || results[k].pred.supported)
            continue;
        char what[64], at[96] = "";
        if (mech != CR_MECH_NONE)
            snprintf(what, sizeof what, "--mech %s", cr_mech_name(mech));
        else
            snprintf(what, sizeof what, "--algo %s --proto %s", cr_algo_name(algo),
                     cr_proto_name(proto));
        if (k > 0) /* the sizes before it run: say where the sweep must stop */
            snprintf(at, sizeof at,
                     " at %.0f B (the sweep's sizes below it run: end it there with -e)", rq.bytes);
        rc = cli_usage_error("coll", "%s cannot run %s of %s on %s, ranks %s%s: %s", what,
                             cr_coll_name(coll), cr_dtype_name(dt), t->name, rtext, at,
                             results[k].pred.why);
        goto out;
    }

    if (o.json) {
        root = json_object();
        rows = json_array();
        json_object_set_new(root, "command", json_string("coll"));
        json_object_set_new(root, "coll", json_string(cr_coll_name(coll)));
        json_object_set_new(root, "topology", json_string(t->name));
        json_object_set_new(root, "ranks", json_string(rtext));
        json_object_set_new(root, "nranks", json_integer(n));
        json_object_set_new(root, "dtype", json_string(cr_dtype_name(dt)));
        json_object_set_new(root, "busbw_factor", json_real(cr_coll_busbw_factor(coll, n)));
        json_object_set_new(root, "in_network", json_boolean(o.in_network));
        json_object_set_new(root, "in_place", json_boolean(o.in_place));
        json_object_set_new(root, "ranks_per_process", json_integer(o.rpp > 0 ? o.rpp : 1));
        if (o.loop_ops > 0)
            json_object_set_new(root, "loop_ops", json_integer(o.loop_ops));
        if (o.nt_version_s)
            json_object_set_new(root, "nccl_tests_version", json_string(o.nt_version_s));
        json_object_set_new(root, "measured_ceilings", json_boolean(att));
        if (o.nccl_algo)
            json_object_set_new(root, "nccl_algo", json_string(o.nccl_algo));
        if (o.nccl_proto)
            json_object_set_new(root, "nccl_proto", json_string(o.nccl_proto));
        if (cli_p2p_proto_note(coll, proto, mech))
            json_object_set_new(root, "note", json_string(cli_p2p_proto_note(coll, proto, mech)));
    } else {
        printf("# commroof coll %s  topology %s  ranks %s (%d)  dtype %s%s%s%s%s\n",
               cr_coll_name(coll), t->name, rtext, n, cr_dtype_name(dt),
               mech != CR_MECH_NONE ? "  mech " : "",
               mech != CR_MECH_NONE ? cr_mech_name(mech) : "",
               o.in_network ? "" : "  (no in-switch reduction: bound and prediction)",
               cli_forced_note(algo, proto));
        printf("# bound: least possible time on this topology (doc/bounds.md); pred: %s\n",
               mech != CR_MECH_NONE                             ? "custom kernel on that mechanism"
               : algo != CR_ALGO_AUTO || proto != CR_PROTO_AUTO ? "the forced algorithm/protocol"
               : cr_coll_ctx_nccl_choice(ctx)
                   ? "the algorithm/protocol NCCL would run"
                   : "the fastest modelled algorithm/protocol (no NCCL or RCCL on this vendor)");
        if (cli_p2p_proto_note(coll, proto, mech))
            printf("# pred: %s\n", cli_p2p_proto_note(coll, proto, mech));
        if (base.nccl_algos || base.nccl_protos)
            printf("# pred: NCCL's choice under%s%s%s%s\n", o.nccl_algo ? " NCCL_ALGO=" : "",
                   o.nccl_algo ? o.nccl_algo : "", o.nccl_proto ? " NCCL_PROTO=" : "",
                   o.nccl_proto ? o.nccl_proto : "");
        if (o.loop_ops > 0)
            printf("# pred: nccl-tests' printed time, a host-timed loop of %d operations over "
                   "%d; one host thread enqueues %d GPU%s kernels per operation (param "
                   "coll.host_op each)\n",
                   o.loop_ops, o.loop_ops, o.rpp > 1 ? o.rpp : 1, o.rpp > 1 ? "s'" : "'s");
        else if (o.rpp > 1)
            printf("# pred: one host thread launches the kernels of %d GPUs in turn (each extra "
                   "GPU adds the launch gap, param coll.launch_gap)\n",
                   o.rpp);
        if (o.nt_version_s)
            printf("# sizes: as nccl-tests %s splits them (a rank's part: %s)\n", o.nt_version_s,
                   o.nt_version >= CR_NCCL_TESTS_ALIGN16 ? "a multiple of 16 bytes"
                   : o.nt_version >= CR_NCCL_TESTS_ALIGN4
                       ? "whole elements, allgather's and reducescatter's 4"
                       : "whole elements");
        if (att)
            printf("# attain: the bound from the topology's measured ceilings (scale-up %.3f, "
                   "PCIe %.3f, network %.3f of the datasheet rate; HBM %.2f GB/s)\n",
                   ceil.scaleup_frac, ceil.pcie_frac, ceil.net_frac, ceil.hbm_Bps / GBPS);
        printf("#\n");
        printf("# %12s %12s %8s %10s %-14s ", "size", "count", "type", "bound_us", "binding");
        if (att)
            printf("%10s ", "attain_us");
        printf("%10s %-8s %-6s %9s %9s %9s %9s\n", "pred_us", "algo", "proto", "bnd_algbw",
               "bnd_busbw", "algbw", "busbw");
        printf("# %12s %12s %8s %10s %-14s ", "(B)", "(elements)", "", "(us)", "");
        if (att)
            printf("%10s ", "(us)");
        printf("%10s %-8s %-6s %9s %9s %9s %9s\n", "(us)", "", "", "(GB/s)", "(GB/s)", "(GB/s)",
               "(GB/s)");
    }
    int nrows = 0;
    bool any_unsupported = false;
    double bfac = cr_coll_busbw_factor(coll, n);
    for (sz = o.min_b; nrows < n_sizes; sz = cli_next_size(sz, o.factor, o.step), nrows++) {
        double bytes = cr_coll_nccl_tests_bytes(coll, sz, esize, n, o.nt_version);
        double count = cr_coll_nccl_count(coll, bytes, esize, n);
        const cr_coll_result *res = &results[nrows];
        const cr_coll_pred *p = &res->pred;
        any_unsupported |= !p->supported;
        if (o.json) {
            json_t *e = json_object();
            json_object_set_new(e, "size_bytes", cr_json_count(bytes));
            json_object_set_new(e, "count", cr_json_count(count));
            json_object_set_new(e, "bound_us", json_real(res->bound.bound_s * 1e6));
            json_object_set_new(e, "binding", json_string(res->bound.binding));
            json_object_set_new(e, "binding_where", json_string(res->bound.binding_where));
            json_object_set_new(e, "attainable_us", json_real(res->bound.attainable_s * 1e6));
            json_object_set_new(e, "attainable_binding",
                                json_string(res->bound.attainable_binding));
            json_object_set_new(e, "in_network", json_boolean(res->bound.in_network));
            json_object_set_new(e, "bound_algbw_GBps",
                                bw_json(res->bound.algbw_Bps, bytes, res->bound.bound_s, 1));
            json_object_set_new(e, "bound_busbw_GBps",
                                bw_json(res->bound.busbw_Bps, bytes, res->bound.bound_s, bfac));
            json_object_set_new(e, "supported", json_boolean(p->supported));
            if (p->supported) {
                json_object_set_new(e, "pred_us", json_real(p->pred_s * 1e6));
                json_object_set_new(e, "algbw_GBps", bw_json(p->algbw_Bps, bytes, p->pred_s, 1));
                json_object_set_new(e, "busbw_GBps", bw_json(p->busbw_Bps, bytes, p->pred_s, bfac));
                json_object_set_new(e, "nccl_est_us", json_real(p->nccl_est_s * 1e6));
                json_object_set_new(e, "nchannels", json_integer(p->nchannels));
                json_object_set_new(e, "launch_us", json_real(p->launch_s * 1e6));
                json_object_set_new(e, "step_lat_us", json_real(p->step_lat_s * 1e6));
                json_object_set_new(e, "n_steps", json_integer(p->n_steps));
                json_object_set_new(e, "wire_bytes", cr_json_count(p->wire_bytes));
                json_object_set_new(e, "wire_GBps", json_real(p->wire_Bps / GBPS));
                json_object_set_new(e, "bw_eff", json_real(p->bw_eff));
            } else {
                json_object_set_new(e, "pred_us", json_null());
                json_object_set_new(e, "why", json_string(p->why));
            }
            json_object_set_new(e, "algo", json_string(cr_algo_name(p->algo)));
            json_object_set_new(e, "proto", json_string(cr_proto_name(p->proto)));
            json_object_set_new(e, "mech", json_string(cr_mech_name(p->mech)));
            json_object_set_new(e, "terms", terms_json(&res->bound));
            json_array_append_new(rows, e);
        } else {
            const char *binding = res->bound.binding;
            printf("  %12.0f %12.0f %8s %10.2f %-14s ", bytes, count, cli_nccl_type_name(dt),
                   res->bound.bound_s * 1e6, binding);
            if (att)
                printf("%10.2f ", res->bound.attainable_s * 1e6);
            char ba[16], bb[16], pa[16] = "      n/a", pb[16] = "      n/a";
            bw_text(ba, sizeof ba, res->bound.algbw_Bps, bytes, res->bound.bound_s, 1);
            bw_text(bb, sizeof bb, res->bound.busbw_Bps, bytes, res->bound.bound_s, bfac);
            if (p->supported) {
                bw_text(pa, sizeof pa, p->algbw_Bps, bytes, p->pred_s, 1);
                bw_text(pb, sizeof pb, p->busbw_Bps, bytes, p->pred_s, bfac);
                printf("%10.2f ", p->pred_s * 1e6);
            } else {
                printf("%10s ", "n/a");
            }
            printf("%-8s %-6s %s %s %s %s\n", cr_algo_name(p->algo), cr_proto_name(p->proto), ba,
                   bb, pa, pb);
            if (o.terms) {
                for (int j = 0; j < res->bound.n_terms; j++) {
                    const cr_coll_term *tm = &res->bound.terms[j];
                    printf("#   term %-14s %-20s %14.0f B / %9.2f GB/s + %7.3f us = %10.2f us\n",
                           tm->name, tm->where, tm->bytes, tm->cap_Bps / GBPS, tm->lat_s * 1e6,
                           tm->time_s * 1e6);
                    /* a capacity that mixes link classes says so (doc/bounds.md
                     * 1.7: a GPU's PCIe port counts beside its NVLink) */
                    if (tm->main_class[0] && tm->main_frac < 1)
                        printf("#        %-14s %-20s capacity = %s %.2f + other links %.2f "
                               "GB/s\n",
                               "", "", tm->main_class, tm->cap_Bps * tm->main_frac / GBPS,
                               tm->cap_Bps * (1 - tm->main_frac) / GBPS);
                }
                printf("#   term %-14s %-20s %49s = %10.2f us\n", "latency", "", "",
                       res->bound.lat_s * 1e6);
            }
            if (!p->supported && nrows == 0)
                fprintf(stderr, "commroof coll: %s/%s%s%s: %s\n", cr_algo_name(p->algo),
                        cr_proto_name(p->proto), mech != CR_MECH_NONE ? " " : "",
                        mech != CR_MECH_NONE ? cr_mech_name(mech) : "", p->why);
        }
    }
    if (o.json) {
        json_object_set_new(root, "rows", rows);
        rows = NULL;
        char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
        if (!txt) {
            rc = cli_fail("coll", "out of memory writing JSON");
            goto out;
        }
        puts(txt);
        free(txt);
    }
    /* a forced algorithm or mechanism that cannot run is a failed request,
     * even though the bound was printed */
    if (any_unsupported && rc == CLI_OK)
        rc = CLI_FAIL;
out:
    free(results);
    json_decref(rows);
    json_decref(root);
    cr_coll_ctx_free(ctx);
    cr_rankset_free(rs);
    cr_topo_free(t);
    return rc;
}
