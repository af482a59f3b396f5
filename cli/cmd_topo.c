/* SPDX-License-Identifier: MIT */
/*
 * `commroof topo list | show NAME|FILE | check FILE | import-nccl DUMP [-o OUT]`:
 * the shipped topologies, one topology's summary figures (model/topo_metrics.h
 * defines them), the loader's verdict on a file, and the import of NCCL's
 * topology dump (model/nccl_import.h). Human output is nccl-tests style:
 * '#' header lines, a units row, fixed-width columns; tables of one command
 * are separated by two blank lines so gnuplot's `index` picks one.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_dump.h"
#include "sbuf.h"
#include "cli.h"
#include "opts.h"
#include "nccl_import.h"
#include "fileio.h"
#include "topo_gen.h"
#include "topo_metrics.h"
#include "topo_xml.h"
#include "units.h"

#define GBPS 1e9 /* output unit: GB/s, 1e9 bytes per second */

static const char topo_help_head[] =
    "usage: commroof topo list [--json]\n"
    "       commroof topo show NAME|FILE [--json]\n"
    "       commroof topo check FILE [--json]\n"
    "       commroof topo import-nccl DUMP.xml [-o OUT.xml] [--json]\n"
    "       commroof topo gen fat-tree --nodes N --node TOPOLOGY [--rails R] [--nic-bw BW]\n"
    "                     [--leaf-radix K] [--oversub X] [--tiers 2|3]\n"
    "                     [--spines rail|shared] [--sharp] [-o OUT.xml] [--json]\n"
    "       commroof topo gen nvl --racks N [--node RACK] [fat-tree's network options]\n"
    "       commroof topo gen torus --dims AxBxC [--chip MODEL] [--link-bw BW] [-o OUT.xml]\n"
    "                     [--json]\n"
    "\n"
    "  list          the shipped topologies: name, GPUs, GPU model, nodes, description\n"
    "  show          one topology: GPU models, devices, per-GPU injection bandwidth per\n"
    "                fabric, bisection bandwidth, switch capabilities and the GPU-to-GPU\n"
    "                bottleneck bandwidth (full matrix up to 16 GPUs, classes of pairs\n"
    "                above)\n"
    "  check         load a topology file, run the invariant checker, print OK or the\n"
    "                error (file:line: what is wrong); exit 1 when it fails\n"
    "  import-nccl   turn NCCL's topology dump (run any NCCL job with\n"
    "                NCCL_TOPO_DUMP_FILE=DUMP.xml) into a commroof topology; writes\n"
    "                OUT.xml (atomically) or the XML to stdout\n"
    "  gen           write a cluster topology (OUT.xml atomically, or stdout; --json:\n"
    "                what was made, with the XML itself when there is no -o):\n"
    "    fat-tree    --nodes copies of the single-node topology --node, NIC nicR of\n"
    "                every node on rail R of a rail-optimised fat tree (--rails 1: a\n"
    "                plain one); --rails (default: every NIC of the node), --nic-bw\n"
    "                (default: the port-bw the node file gives its NICs, 200Gbps for\n"
    "                dgx-a100-8, else 400Gbps, NDR; at most that port-bw),\n"
    "                --leaf-radix (64 ports), --oversub (down:up ports of a leaf, 1),\n"
    "                --tiers (2: leaf and spine; 3: pods and a core layer),\n"
    "                --spines (rail, the default: each rail its own spines and cores;\n"
    "                shared: a leaf per rail, spines (cores) joining every rail's),\n"
    "                --sharp (the switches reduce and multicast in the network,\n"
    "                InfiniBand SHARP, as h100-ib-*'s Quantum-2; without it they do\n"
    "                neither, and the bound counts no in-network reduction)\n"
    "    nvl         --racks copies of an NVLink rack (--node, default gb200-nvl72; ids\n"
    "                rK.nI.gpuJ, rK.nvswJ), the NICs of all its nodes on a fat tree as\n"
    "                above, --spines shared by default: NVL72 clusters are built so\n"
    "                (NVIDIA DGX SuperPOD GB200 reference architecture), and a GB200\n"
    "                tray's NICs hang off their GPUs, so on rails of their own two GPUs\n"
    "                of different local index in different racks have no path\n"
    "    torus       TPU-style slice: --dims chips on a torus with wrap-around, --chip a\n"
    "                GPU model of a shipped topology (TPU-v5p), --link-bw per link and\n"
    "                direction (default: the chip's shipped torus)\n"
    "\n"
    "options:\n";

static const char topo_help_tail[] =
    "\n"
    "Bandwidths are per direction, in GB/s (1e9 bytes per second). Definitions of\n"
    "injection and bisection bandwidth: README.md and model/topo_metrics.h.\n"
    "\n"
    "examples:\n"
    "  commroof topo list\n"
    "  commroof topo show hgx-h200-8\n"
    "  commroof topo check my-cluster.xml\n"
    "  commroof topo gen fat-tree --nodes 128 --node hgx-h100-8 --rails 8 -o c.xml\n"
    "  commroof topo gen nvl --racks 16 -o nvl16.xml\n"
    "  commroof topo gen torus --dims 8x8x8 -o tpu512.xml\n"
    "  NCCL_TOPO_DUMP_FILE=dump.xml torchrun ...; commroof topo import-nccl dump.xml -o mine.xml\n";

struct opts {
    const char *sub;
    const char *arg;
    const char *out;
    bool json;
};

static int print_json(json_t *root)
{
    char *txt = cr_json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    if (!txt)
        return cli_fail("topo", "out of memory writing JSON");
    puts(txt);
    free(txt);
    return CLI_OK;
}

/* "H200-SXM" or "H200-SXM+B200" for the GPU models in use. */
static void gpu_models(const cr_topo *t, char *buf, size_t size)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int s = 0; s < t->n_gpu_specs; s++) {
        bool used = false;
        for (int r = 0; r < t->n_gpus && !used; r++)
            used = t->devs[t->gpus[r]].spec == s;
        if (!used || off >= size)
            continue;
        int n = snprintf(buf + off, size - off, "%s%s", off ? "+" : "",
                         t->gpu_specs[s].name ? t->gpu_specs[s].name : "?");
        if (n > 0)
            off += (size_t)n;
    }
}

/* Nodes that hold GPUs (GPUs outside any template count as one node). */
static int gpu_nodes(const cr_topo *t)
{
    int lo = 0, hi = -1;
    for (int r = 0; r < t->n_gpus; r++) {
        int nd = t->devs[t->gpus[r]].node;
        lo = r == 0 || nd < lo ? nd : lo;
        hi = r == 0 || nd > hi ? nd : hi;
    }
    if (hi < lo)
        return 0;
    char *seen = calloc((size_t)(hi - lo + 1), 1);
    if (!seen)
        return 0;
    int n = 0;
    for (int r = 0; r < t->n_gpus; r++) {
        int k = t->devs[t->gpus[r]].node - lo;
        n += !seen[k];
        seen[k] = 1;
    }
    free(seen);
    return n;
}

/* --- list --- */

static int cmd_list(const struct opts *o)
{
    json_t *arr = o->json ? json_array() : NULL;
    if (!o->json) {
        printf("# commroof shipped topologies (commroof topo show NAME for details)\n");
        printf("# %-16s %6s %-16s %6s  %s\n", "name", "gpus", "gpu_model", "nodes", "description");
    }
    int rc = CLI_OK;
    for (int i = 0; cr_topo_shipped_name(i); i++) {
        const char *name = cr_topo_shipped_name(i);
        cr_topo *t = cli_open_topo("topo", name);
        if (!t) {
            rc = CLI_FAIL;
            continue;
        }
        char models[256];
        gpu_models(t, models, sizeof models);
        int nodes = gpu_nodes(t);
        if (o->json) {
            json_t *e = json_object();
            json_object_set_new(e, "name", json_string(name));
            json_object_set_new(e, "gpus", json_integer(t->n_gpus));
            json_object_set_new(e, "gpu_model", json_string(models));
            json_object_set_new(e, "nodes", json_integer(nodes));
            json_object_set_new(e, "description",
                                json_string(t->description ? t->description : ""));
            json_array_append_new(arr, e);
        } else {
            printf("  %-16s %6d %-16s %6d  %s\n", name, t->n_gpus, models, nodes,
                   t->description ? t->description : "");
        }
        cr_topo_free(t);
    }
    if (o->json) {
        json_t *root = json_object();
        json_object_set_new(root, "topologies", arr);
        int jr = print_json(root);
        return rc ? rc : jr;
    }
    return rc;
}

/* --- show --- */

static const char *yes_no(bool b)
{
    return b ? "yes" : "no";
}

static void kinds_text(unsigned kinds, char *buf, size_t size)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int k = 0; k < CR_LINK__COUNT && off < size; k++)
        if (kinds & (1u << k)) {
            int n = snprintf(buf + off, size - off, "%s%s", off ? "," : "",
                             cr_link_kind_name((cr_link_kind)k));
            if (n > 0)
                off += (size_t)n;
        }
    if (!buf[0])
        cr_str_copy(buf, size, "-");
}

/* A figure in a table cell: "-" where the file gives none (0), so that an
 * unknown L2 size or a dtype the part lacks does not read as zero. */
static const char *cell(double v, int width, char *buf, size_t size)
{
    if (v == 0.0)
        snprintf(buf, size, "%*s", width, "-");
    else
        snprintf(buf, size, "%*.1f", width, v);
    return buf;
}

/* The same for a whole number (an architecture, a generation): "-" for 0. */
static const char *icell(int v, int width, char *buf, size_t size)
{
    if (v > 0)
        snprintf(buf, size, "%*d", width, v);
    else
        snprintf(buf, size, "%*s", width, "-");
    return buf;
}

struct shown {
    double inj_min[CR_LINK__COUNT], inj_max[CR_LINK__COUNT];
    cr_bisection bis;
    cr_switch_summary *sw;
    int n_sw;
    cr_pair_summary pairs;
    int dev_count[CR_DEV__COUNT];
    double (*per_gpu)[CR_LINK__COUNT]; /* each GPU's injection, n <= 16 only */
};

static void show_release(struct shown *s)
{
    free(s->sw);
    free(s->per_gpu);
    cr_pair_summary_release(&s->pairs);
}

static int compute(const char *what, cr_topo *t, struct shown *s)
{
    cr_status st;
    memset(s, 0, sizeof *s);
    for (int v = 0; v < t->n_devs; v++)
        s->dev_count[t->devs[v].kind]++;
    if ((st = cr_metrics_injection_range(t, s->inj_min, s->inj_max)) ||
        (st = cr_metrics_bisection(t, &s->bis)) ||
        (st = cr_metrics_switches(t, &s->sw, &s->n_sw)) || (st = cr_metrics_pairs(t, &s->pairs)))
        return cli_fail("topo", "%s: %s", what, cr_strerror(st));
    if (t->n_gpus <= CR_METRICS_FULL_MATRIX_MAX) {
        s->per_gpu = calloc((size_t)t->n_gpus + 1, sizeof *s->per_gpu);
        if (!s->per_gpu)
            return cli_fail("topo", "out of memory");
        for (int r = 0; r < t->n_gpus; r++)
            if ((st = cr_metrics_injection(t, r, s->per_gpu[r])))
                return cli_fail("topo", "%s: %s", what, cr_strerror(st));
    }
    return CLI_OK;
}

static json_t *gbps(double bw_Bps)
{
    return json_real(bw_Bps / GBPS);
}

/* A figure the description may leave out (0 there): null in JSON, as the
 * text prints "-" (it read 0: an arch, an L2 size, a switch generation
 * that nobody gave, or a reduction limited by the ports alone). */
static json_t *known_int(int v)
{
    return v > 0 ? json_integer(v) : json_null();
}

static json_t *known_real(double v)
{
    return v > 0 ? json_real(v) : json_null();
}

static int show_json(const cr_topo *t, const struct shown *s)
{
    json_t *root = json_object();
    json_object_set_new(root, "name", json_string(t->name ? t->name : ""));
    json_object_set_new(root, "description", json_string(t->description ? t->description : ""));
    json_object_set_new(root, "source", json_string(t->source ? t->source : ""));
    json_object_set_new(root, "gpus", json_integer(t->n_gpus));
    json_object_set_new(root, "nodes", json_integer(s->bis.n_nodes));
    json_t *devs = json_object();
    for (int k = 0; k < CR_DEV__COUNT; k++)
        json_object_set_new(devs, cr_dev_kind_name((cr_dev_kind)k), json_integer(s->dev_count[k]));
    json_object_set_new(root, "devices", devs);
    json_object_set_new(root, "link_bundles", json_integer(t->n_links));
    json_t *models = json_array();
    for (int i = 0; i < t->n_gpu_specs; i++) {
        const cr_gpu_spec *g = &t->gpu_specs[i];
        int count = 0;
        for (int r = 0; r < t->n_gpus; r++)
            count += t->devs[t->gpus[r]].spec == i;
        json_t *m = json_object();
        json_object_set_new(m, "name", json_string(g->name ? g->name : ""));
        json_object_set_new(m, "count", json_integer(count));
        json_object_set_new(m, "arch", known_int(g->arch));
        json_object_set_new(m, "sms", json_integer(g->sms));
        json_object_set_new(m, "hbm_GB", json_real(g->hbm_bytes / 1e9));
        json_object_set_new(m, "hbm_GBps", gbps(g->hbm_Bps));
        json_object_set_new(m, "l2_MiB", known_real(g->l2_bytes / 1048576.0));
        json_t *fl = json_object();
        for (int k = 0; k < CR_DT__COUNT; k++)
            if (g->peak_flops[k] > 0)
                json_object_set_new(fl, cr_dtype_name((cr_dtype)k),
                                    json_real(g->peak_flops[k] / 1e12));
        json_object_set_new(m, "peak_TFLOPs", fl);
        json_object_set_new(m, "source", json_string(g->source ? g->source : ""));
        json_array_append_new(models, m);
    }
    json_object_set_new(root, "gpu_models", models);
    json_t *inj = json_object();
    for (int k = 0; k < CR_LINK__COUNT; k++) {
        if (s->inj_max[k] <= 0)
            continue;
        json_t *e = json_object();
        json_object_set_new(e, "min_GBps", gbps(s->inj_min[k]));
        json_object_set_new(e, "max_GBps", gbps(s->inj_max[k]));
        json_object_set_new(inj, cr_link_kind_name((cr_link_kind)k), e);
    }
    json_object_set_new(root, "injection_per_gpu", inj);
    if (s->per_gpu) {
        json_t *list = json_array();
        for (int r = 0; r < t->n_gpus; r++) {
            const cr_dev *dv = &t->devs[t->gpus[r]];
            const char *model = t->gpu_specs[dv->spec].name;
            json_t *e = json_object();
            json_object_set_new(e, "rank", json_integer(r));
            json_object_set_new(e, "id", json_string(dv->id));
            json_object_set_new(e, "model", json_string(model ? model : ""));
            json_object_set_new(e, "node", json_integer(dv->node));
            json_t *bw = json_object();
            for (int k = 0; k < CR_LINK__COUNT; k++)
                if (s->inj_max[k] > 0)
                    json_object_set_new(bw, cr_link_kind_name((cr_link_kind)k),
                                        gbps(s->per_gpu[r][k]));
            json_object_set_new(e, "injection_GBps", bw);
            json_array_append_new(list, e);
        }
        json_object_set_new(root, "gpu_list", list);
    }
    json_t *bis = json_object();
    json_object_set_new(bis, "split", json_string(s->bis.node_aligned ? "nodes" : "ranks"));
    json_object_set_new(bis, "gpus_a", json_integer(s->bis.n_a));
    json_object_set_new(bis, "gpus_b", json_integer(s->bis.n_b));
    json_object_set_new(bis, "a_to_b_GBps", gbps(s->bis.ab_Bps));
    json_object_set_new(bis, "b_to_a_GBps", gbps(s->bis.ba_Bps));
    json_object_set_new(bis, "bisection_GBps", gbps(s->bis.bw_Bps));
    json_object_set_new(root, "bisection", bis);
    json_t *sws = json_array();
    for (int i = 0; i < s->n_sw; i++) {
        const cr_switch_summary *w = &s->sw[i];
        char kinds[128];
        kinds_text(w->kinds, kinds, sizeof kinds);
        json_t *e = json_object();
        json_object_set_new(e, "model", json_string(w->name));
        json_object_set_new(e, "count", json_integer(w->count));
        json_object_set_new(e, "generation", known_int(w->generation));
        json_object_set_new(e, "multicast", json_boolean(w->multicast));
        json_object_set_new(e, "reduction", json_boolean(w->reduction));
        json_object_set_new(e, "reduce_GBps", known_real(w->reduce_Bps / GBPS));
        json_object_set_new(e, "max_ports", json_integer(w->max_ports));
        json_object_set_new(e, "max_switch_GBps", gbps(w->max_switch_Bps));
        json_object_set_new(e, "link_kinds", json_string(kinds));
        json_array_append_new(sws, e);
    }
    json_object_set_new(root, "switches", sws);
    json_t *pairs = json_object();
    const cr_pair_class *cls[2] = {&s->pairs.same_node, &s->pairs.other_node};
    const char *names[2] = {"same_node", "other_node"};
    for (int i = 0; i < 2; i++) {
        json_t *e = json_object();
        json_object_set_new(e, "pairs", json_integer(cls[i]->pairs));
        json_object_set_new(e, "evaluated", json_integer(cls[i]->evaluated));
        json_object_set_new(e, "min_GBps", cls[i]->evaluated ? gbps(cls[i]->min_Bps) : json_null());
        json_object_set_new(e, "max_GBps", cls[i]->evaluated ? gbps(cls[i]->max_Bps) : json_null());
        /* null where no scale-up link joins such a pair (the text's "-") */
        json_object_set_new(e, "scaleup_min_GBps",
                            cls[i]->evaluated && cls[i]->scaleup_min_Bps > 0
                                ? gbps(cls[i]->scaleup_min_Bps)
                                : json_null());
        json_object_set_new(e, "scaleup_max_GBps",
                            cls[i]->evaluated && cls[i]->scaleup_max_Bps > 0
                                ? gbps(cls[i]->scaleup_max_Bps)
                                : json_null());
        json_object_set_new(pairs, names[i], e);
    }
    json_object_set_new(pairs, "sampled", json_boolean(s->pairs.sampled));
    if (s->pairs.matrix) {
        json_t *m = json_array();
        for (int a = 0; a < s->pairs.n; a++) {
            json_t *row = json_array();
            for (int b = 0; b < s->pairs.n; b++)
                json_array_append_new(
                    row, gbps(s->pairs.matrix[(size_t)a * (size_t)s->pairs.n + (size_t)b]));
            json_array_append_new(m, row);
        }
        json_object_set_new(pairs, "matrix_GBps", m);
    }
    json_object_set_new(root, "bottleneck", pairs);
    return print_json(root);
}

static void show_text(const cr_topo *t, const struct shown *s)
{
    printf("# commroof topo show %s\n", t->name ? t->name : "");
    if (t->description && *t->description)
        printf("# %s\n", t->description);
    if (t->source && *t->source)
        printf("# source: %s\n", t->source);
    printf("# %d GPUs in %d node%s; devices: %d gpu, %d switch, %d cpu, %d pcisw, %d nic; %d "
           "link bundles\n",
           t->n_gpus, s->bis.n_nodes, s->bis.n_nodes == 1 ? "" : "s", s->dev_count[CR_DEV_GPU],
           s->dev_count[CR_DEV_SWITCH], s->dev_count[CR_DEV_CPU], s->dev_count[CR_DEV_PCISW],
           s->dev_count[CR_DEV_NIC], t->n_links);
    printf("# bandwidths are per direction\n\n");

    printf("# GPU models (dense peak)\n");
    /* fp4 too: Blackwell's headline figure (the JSON has every type) */
    printf("# %-14s %5s %4s %5s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "model", "count", "arch",
           "sms", "hbm", "hbm_bw", "l2", "fp64", "fp32", "tf32", "bf16", "fp8", "fp4");
    printf("# %-14s %5s %4s %5s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n", "", "", "", "", "GB",
           "GB/s", "MiB", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s", "TFLOP/s");
    for (int i = 0; i < t->n_gpu_specs; i++) {
        const cr_gpu_spec *g = &t->gpu_specs[i];
        int count = 0;
        for (int r = 0; r < t->n_gpus; r++)
            count += t->devs[t->gpus[r]].spec == i;
        char arch[16], c[7][16];
        icell(g->arch, 4, arch, sizeof arch);
        printf("  %-14s %5d %s %5d %8.1f %8.1f %s %s %s %s %s %s %s\n", g->name ? g->name : "?",
               count, arch, g->sms, g->hbm_bytes / 1e9, g->hbm_Bps / GBPS,
               cell(g->l2_bytes / 1048576.0, 8, c[0], sizeof c[0]),
               cell(g->peak_flops[CR_DT_FP64] / 1e12, 8, c[1], sizeof c[1]),
               cell(g->peak_flops[CR_DT_FP32] / 1e12, 8, c[2], sizeof c[2]),
               cell(g->peak_flops[CR_DT_TF32] / 1e12, 8, c[3], sizeof c[3]),
               cell(g->peak_flops[CR_DT_BF16] / 1e12, 8, c[4], sizeof c[4]),
               cell(g->peak_flops[CR_DT_FP8] / 1e12, 8, c[5], sizeof c[5]),
               cell(g->peak_flops[CR_DT_FP4] / 1e12, 8, c[6], sizeof c[6]));
    }

    printf("\n\n# Injection bandwidth per GPU and fabric (network fabrics: the GPU's share of its "
           "node's NIC ports)\n");
    printf("# %-10s %10s %10s\n", "fabric", "min", "max");
    printf("# %-10s %10s %10s\n", "", "GB/s", "GB/s");
    for (int k = 0; k < CR_LINK__COUNT; k++)
        if (s->inj_max[k] > 0)
            printf("  %-10s %10.1f %10.1f\n", cr_link_kind_name((cr_link_kind)k),
                   s->inj_min[k] / GBPS, s->inj_max[k] / GBPS);

    if (s->per_gpu) {
        printf("\n\n# Injection bandwidth of each GPU per fabric\n");
        printf("# %4s %-16s %-14s %4s", "rank", "id", "model", "node");
        for (int k = 0; k < CR_LINK__COUNT; k++)
            if (s->inj_max[k] > 0)
                printf(" %10s", cr_link_kind_name((cr_link_kind)k));
        printf("\n# %4s %-16s %-14s %4s", "", "", "", "");
        for (int k = 0; k < CR_LINK__COUNT; k++)
            if (s->inj_max[k] > 0)
                printf(" %10s", "GB/s");
        printf("\n");
        for (int r = 0; r < t->n_gpus; r++) {
            const cr_dev *dv = &t->devs[t->gpus[r]];
            const char *model = t->gpu_specs[dv->spec].name;
            printf("  %4d %-16s %-14s %4d", r, dv->id, model ? model : "?", dv->node);
            for (int k = 0; k < CR_LINK__COUNT; k++)
                if (s->inj_max[k] > 0)
                    printf(" %10.1f", s->per_gpu[r][k] / GBPS);
            printf("\n");
        }
    }

    printf("\n\n# Bisection bandwidth: max-flow between halves A and B (%s)\n",
           s->bis.node_aligned ? "node-aligned: first half of the nodes against the rest"
                               : "GPU ranks 0..n/2-1 against the rest");
    printf("# %-6s %6s %6s %10s %10s %10s\n", "split", "gpus_a", "gpus_b", "a_to_b", "b_to_a",
           "bisection");
    printf("# %-6s %6s %6s %10s %10s %10s\n", "", "", "", "GB/s", "GB/s", "GB/s");
    if (t->n_gpus < 2)
        printf("# (one GPU: nothing to split)\n");
    else
        printf("  %-6s %6d %6d %10.1f %10.1f %10.1f\n", s->bis.node_aligned ? "nodes" : "ranks",
               s->bis.n_a, s->bis.n_b, s->bis.ab_Bps / GBPS, s->bis.ba_Bps / GBPS,
               s->bis.bw_Bps / GBPS);

    printf("\n\n# Switches\n");
    printf("# %-16s %6s %4s %9s %9s %10s %6s %10s  %s\n", "model", "count", "gen", "multicast",
           "reduction", "reduce_bw", "ports", "switch_bw", "links");
    printf("# %-16s %6s %4s %9s %9s %10s %6s %10s\n", "", "", "", "", "", "GB/s", "max", "GB/s");
    printf("# reduce_bw: in-switch reduction throughput per chip; ports: limited by the chip's "
           "ports (the file gives no figure of its own); -: none or unknown\n");
    printf("# ports, switch_bw: the most links (and their bandwidth out) on one chip in this "
           "topology, not the chip's port count\n");
    if (s->n_sw == 0)
        printf("# (none)\n");
    for (int i = 0; i < s->n_sw; i++) {
        const cr_switch_summary *w = &s->sw[i];
        char kinds[128];
        kinds_text(w->kinds, kinds, sizeof kinds);
        /* reduce_bw: "-" without in-switch reduction, "ports" where the
         * file gives no throughput of its own (the ports limit it). */
        char gen[16], red[16];
        icell(w->generation, 4, gen, sizeof gen);
        if (!w->reduction)
            snprintf(red, sizeof red, "%10s", "-");
        else if (w->reduce_Bps > 0)
            snprintf(red, sizeof red, "%10.1f", w->reduce_Bps / GBPS);
        else
            snprintf(red, sizeof red, "%10s", "ports");
        printf("  %-16s %6d %s %9s %9s %s %6d %10.1f  %s\n", w->name, w->count, gen,
               yes_no(w->multicast), yes_no(w->reduction), red, w->max_ports,
               w->max_switch_Bps / GBPS, kinds);
    }

    printf("\n\n# GPU-to-GPU bottleneck bandwidth (max-flow over all paths) by class of pair%s\n",
           s->pairs.sampled ? "; sampled" : "");
    printf("# every link kind a byte may cross counts (NVLink and PCIe together where both join "
           "the pair, doc/bounds.md 1.7); other GPUs forward only where no path avoids them\n");
    printf("# scaleup_min/max: the same over NVLink, XGMI and ICI links alone (what a peer copy "
           "over them reaches; - where none joins the pair)\n");
    printf("# %-10s %12s %12s %10s %10s %11s %11s\n", "class", "pairs", "evaluated", "min", "max",
           "scaleup_min", "scaleup_max");
    printf("# %-10s %12s %12s %10s %10s %11s %11s\n", "", "", "", "GB/s", "GB/s", "GB/s", "GB/s");
    if (t->n_gpus < 2)
        printf("# (one GPU: no pairs)\n");
    const cr_pair_class *cls[2] = {&s->pairs.same_node, &s->pairs.other_node};
    const char *names[2] = {"same_node", "other_node"};
    for (int i = 0; i < 2; i++) {
        if (cls[i]->pairs == 0)
            continue;
        char c[2][16];
        printf("  %-10s %12lld %12lld %10.1f %10.1f %s %s\n", names[i], cls[i]->pairs,
               cls[i]->evaluated, cls[i]->min_Bps / GBPS, cls[i]->max_Bps / GBPS,
               cell(cls[i]->scaleup_min_Bps / GBPS, 11, c[0], sizeof c[0]),
               cell(cls[i]->scaleup_max_Bps / GBPS, 11, c[1], sizeof c[1]));
    }
    if (s->pairs.matrix && s->pairs.n >= 2) {
        int n = s->pairs.n;
        printf("\n\n# Bottleneck bandwidth matrix, GB/s: row = source GPU rank, column = "
               "destination\n");
        printf("# %4s", "src");
        for (int b = 0; b < n; b++)
            printf(" %7d", b);
        printf("\n");
        for (int a = 0; a < n; a++) {
            printf("  %4d", a);
            for (int b = 0; b < n; b++)
                if (a == b)
                    printf(" %7s", "-");
                else
                    printf(" %7.1f", s->pairs.matrix[(size_t)a * (size_t)n + (size_t)b] / GBPS);
            printf("\n");
        }
    }
}

static int cmd_show(const struct opts *o)
{
    cr_topo *t = cli_open_topo("topo", o->arg);
    if (!t)
        return CLI_FAIL;
    struct shown s;
    int rc = compute(o->arg, t, &s);
    if (rc == CLI_OK) {
        if (o->json)
            rc = show_json(t, &s);
        else
            show_text(t, &s);
    }
    show_release(&s);
    cr_topo_free(t);
    return rc;
}

/* --- check --- */

static int cmd_check(const struct opts *o)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    cr_status st = cr_topo_open(o->arg, &t, &d);
    if (st == CR_OK)
        cli_note_topo_routing("topo", t, o->arg);
    if (o->json) {
        json_t *root = json_object();
        json_object_set_new(root, "file", json_string(o->arg));
        json_object_set_new(root, "ok", json_boolean(st == CR_OK));
        if (st == CR_OK) {
            json_object_set_new(root, "name", json_string(t->name ? t->name : ""));
            json_object_set_new(root, "gpus", json_integer(t->n_gpus));
            json_object_set_new(root, "devices", json_integer(t->n_devs));
            json_object_set_new(root, "link_bundles", json_integer(t->n_links));
        } else {
            json_object_set_new(root, "error", json_string(d.msg));
        }
        cr_topo_free(t);
        int rc = print_json(root);
        return st == CR_OK ? rc : CLI_FAIL;
    }
    if (st != CR_OK)
        return cli_fail("topo", "%s", d.msg);
    printf("%s: OK (%d GPUs, %d devices, %d link bundles)\n", o->arg, t->n_gpus, t->n_devs,
           t->n_links);
    cr_topo_free(t);
    return CLI_OK;
}

/* --- import-nccl --- */

static int cmd_import(const struct opts *o)
{
    cr_topo *t = NULL;
    cr_diag d = {{0}};
    if (cr_nccl_import_file(o->arg, &t, &d) != CR_OK)
        return cli_fail("topo", "%s", d.msg);
    int rc = CLI_OK;
    char *xml = NULL;
    size_t len = 0;
    cr_diag sd = {{0}};
    /* the summary's figures first: out of memory they were 0 GB/s, exit 0
     * (QA audit of allocation failures), and -o is written only after */
    double lo[CR_LINK__COUNT], hi[CR_LINK__COUNT];
    if (cr_metrics_injection_range(t, lo, hi) != CR_OK)
        rc = cli_fail("topo", "out of memory");
    else if (o->out) {
        if (cr_topo_xml_save_file(t, o->out, &sd) != CR_OK)
            rc = cli_fail("topo", "%s", sd.msg);
    } else if (cr_topo_xml_save_memory(t, &xml, &len, &sd) != CR_OK) {
        rc = cli_fail("topo", "%s", sd.msg);
    }
    if (rc == CLI_OK) {
        char models[256];
        gpu_models(t, models, sizeof models);
        if (o->json) {
            json_t *root = json_object();
            json_object_set_new(root, "input", json_string(o->arg));
            json_object_set_new(root, "output", o->out ? json_string(o->out) : json_null());
            json_object_set_new(root, "name", json_string(t->name));
            json_object_set_new(root, "gpus", json_integer(t->n_gpus));
            json_object_set_new(root, "gpu_model", json_string(models));
            json_object_set_new(root, "description", json_string(t->description));
            json_t *inj = json_object();
            for (int k = 0; k < CR_LINK__COUNT; k++)
                if (hi[k] > 0) {
                    json_t *e = json_object();
                    json_object_set_new(e, "min_GBps", gbps(lo[k]));
                    json_object_set_new(e, "max_GBps", gbps(hi[k]));
                    json_object_set_new(inj, cr_link_kind_name((cr_link_kind)k), e);
                }
            json_object_set_new(root, "injection_per_gpu", inj);
            if (xml)
                json_object_set_new(root, "xml", json_string(xml));
            rc = print_json(root);
        } else if (xml) {
            fwrite(xml, 1, len, stdout);
        } else {
            printf("# %s -> %s\n# %s\n", o->arg, o->out, t->description);
            printf("# %-10s %10s %10s\n", "fabric", "min", "max");
            printf("# %-10s %10s %10s\n", "", "GB/s", "GB/s");
            for (int k = 0; k < CR_LINK__COUNT; k++)
                if (hi[k] > 0)
                    printf("  %-10s %10.1f %10.1f\n", cr_link_kind_name((cr_link_kind)k),
                           lo[k] / GBPS, hi[k] / GBPS);
        }
    }
    free(xml);
    cr_topo_free(t);
    return rc;
}

/* --- gen --- */

/* A bandwidth as the units parser takes it ("400Gbps", "400Gb/s", "50GB/s"). */
static int gen_bw(const char *flag, const char *s, double *out)
{
    cr_diag d = {{0}};
    /* the range a topology's link takes (topo_xml.c): outside it the
     * generated file would fail to load, against a file the user never
     * named (audit of 2026-12-04: --link-bw 0.5MB/s). */
    if (cr_units_parse(s, CR_UNIT_BANDWIDTH, out, &d) != CR_OK || !(*out >= 1e6) || *out > 1e15)
        return cli_usage_error("topo",
                               "%s \"%s\": give a bandwidth per direction from 1MB/s to 1PB/s, "
                               "such as \"400Gbps\", \"400Gb/s\" or \"50GB/s\"",
                               flag, s);
    return CLI_OK;
}

/* A count: digits only, as --oversub is read (strtol took " 4" and
 * "+4"). */
static int gen_int(const char *flag, const char *s, int *out)
{
    size_t n = strspn(s, "0123456789");
    long v = n > 0 && !s[n] ? strtol(s, NULL, 10) : -1; /* too long: LONG_MAX */
    if (v < 1 || v > 100000000)
        return cli_usage_error(
            "topo", "%s \"%s\": give a whole number from 1 to 100000000, digits only", flag, s);
    *out = (int)v;
    return CLI_OK;
}

/* A decimal number: digits, at most one '.', nothing else (strtod would
 * take "0x3", " 3" and "inf"). */
static bool decimal(const char *s, size_t n)
{
    size_t digits = 0, dots = 0;
    for (size_t k = 0; k < n; k++) {
        if (s[k] >= '0' && s[k] <= '9')
            digits++;
        else if (s[k] == '.')
            dots++;
        else
            return false;
    }
    return digits > 0 && dots <= 1;
}

/* --oversub as a leaf's down:up port ratio: "X" or "A:B" (3:2 = 1.5), at
 * least 1 and at most 1e6. */
static bool oversub_parse(const char *v, double *out)
{
    const char *colon = strchr(v, ':');
    size_t n = colon ? (size_t)(colon - v) : strlen(v);
    if (!decimal(v, n) || (colon && !decimal(colon + 1, strlen(colon + 1))))
        return false;
    double x = strtod(v, NULL), y = colon ? strtod(colon + 1, NULL) : 1;
    if (!(y > 0))
        return false;
    *out = x / y;
    return *out >= 1 && *out <= 1e6;
}

/* topo gen --json: what the generator made (t, loaded back from its XML),
 * and the XML itself when it went to no file. */
static int gen_json(const cr_topo *t, const char *generator, const char *out, const char *xml)
{
    char models[256];
    gpu_models(t, models, sizeof models);
    json_t *root = json_object();
    json_object_set_new(root, "generator", json_string(generator));
    json_object_set_new(root, "output", out ? json_string(out) : json_null());
    json_object_set_new(root, "name", json_string(t->name ? t->name : ""));
    json_object_set_new(root, "description", json_string(t->description ? t->description : ""));
    json_object_set_new(root, "source", json_string(t->source ? t->source : ""));
    json_object_set_new(root, "gpus", json_integer(t->n_gpus));
    json_object_set_new(root, "gpu_model", json_string(models));
    json_object_set_new(root, "nodes", json_integer(gpu_nodes(t)));
    json_object_set_new(root, "devices", json_integer(t->n_devs));
    json_object_set_new(root, "link_bundles", json_integer(t->n_links));
    if (xml)
        json_object_set_new(root, "xml", json_string(xml));
    return print_json(root);
}

static int cmd_gen(int argc, char **argv)
{
    const char *what = argc > 2 ? argv[2] : NULL;
    bool ft = what && strcmp(what, "fat-tree") == 0;
    bool torus = what && strcmp(what, "torus") == 0;
    bool nvl = what && strcmp(what, "nvl") == 0;
    if (!what)
        return cli_usage_error("topo", "gen: say which generator: fat-tree, nvl or torus");
    if (!ft && !torus && !nvl)
        return cli_usage_error("topo", "gen \"%s\": say which generator: fat-tree, nvl or torus",
                               what);
    cr_topo_gen_fat_tree fo = {0};
    cr_topo_gen_torus to = {0};
    const char *out = NULL;
    bool json = false;
    /* the generators a row belongs to (cli_opt.section) */
    enum { FT = 1, NVL = 2, TORUS = 4 };
    enum { O_NODES = 1, O_RAILS, O_NIC_BW, O_LEAF_RADIX, O_TIERS, O_OVERSUB, O_LINK_BW, O_SPINES };
    const cli_opt all[] = {
        {"-o", "--output", "FILE", .str = &out, .section = FT | NVL | TORUS, .output = true},
        {"--nodes", NULL, "N", .id = O_NODES, .section = FT},
        {"--racks", NULL, "N", .id = O_NODES, .section = NVL},
        {"--node", NULL, "TOPOLOGY", .str = &fo.node, .section = FT | NVL},
        {"--rails", NULL, "R", .id = O_RAILS, .section = FT | NVL},
        {"--nic-bw", NULL, "BW", .id = O_NIC_BW, .section = FT | NVL},
        {"--leaf-radix", NULL, "K", .id = O_LEAF_RADIX, .section = FT | NVL},
        {"--oversub", NULL, "X", .id = O_OVERSUB, .section = FT | NVL},
        {"--tiers", NULL, "2|3", .id = O_TIERS, .section = FT | NVL},
        {"--spines", NULL, "rail|shared", .id = O_SPINES, .section = FT | NVL},
        {"--sharp", NULL, NULL, .flag = &fo.sharp, .section = FT | NVL},
        {"--dims", NULL, "AxBxC", .str = &to.dims, .section = TORUS},
        {"--chip", NULL, "MODEL", .str = &to.chip, .section = TORUS},
        {"--link-bw", NULL, "BW", .id = O_LINK_BW, .section = TORUS},
        {"--json", NULL, NULL, .flag = &json, .section = FT | NVL | TORUS},
    };
    /* this generator's rows, and their names for the message on a wrong one */
    unsigned sec = ft ? FT : nvl ? NVL : TORUS;
    cli_opt opts[sizeof all / sizeof all[0] + 1] = {{0}};
    char names[200] = "";
    size_t n_opts = 0, nlen = 0;
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        if (!(all[k].section & sec))
            continue;
        opts[n_opts++] = all[k];
        if (k > 0)
            nlen += (size_t)snprintf(names + nlen, sizeof names - nlen, "%s ", all[k].name);
    }
    cli_args args = cli_args_begin("topo", opts, argc - 2, argv + 2);
    args.pass_unknown = true;
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        const char *v = args.val;
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r != CLI_ARGS_OPT) {
            const char *a = r == CLI_ARGS_ARG ? v : args.argv[args.i];
            const char *eq = a[0] == '-' ? strchr(a, '=') : NULL;
            const char *near =
                a[0] == '-' ? cli_opts_nearest(opts, a, eq ? (size_t)(eq - a) : strlen(a)) : NULL;
            if (near)
                return cli_usage_error("topo", "gen %s: unknown option \"%s\": did you mean %s?",
                                       what, a, near);
            return cli_usage_error("topo", "gen %s: unknown %s \"%s\"; options: %s-o FILE", what,
                                   a[0] == '-' ? "option" : "argument", a, names);
        }
        const char *a = args.name;
        int rc = CLI_OK;
        switch (args.opt->id) {
        case O_NODES:
            rc = gen_int(a, v, &fo.nodes);
            break;
        case O_RAILS:
            rc = gen_int(a, v, &fo.rails);
            break;
        case O_NIC_BW:
            rc = gen_bw(a, v, &fo.nic_bw_Bps);
            fo.nic_bw_arg = v;
            break;
        case O_LEAF_RADIX:
            rc = gen_int(a, v, &fo.leaf_radix);
            break;
        case O_TIERS:
            if (strcmp(v, "2") && strcmp(v, "3"))
                rc = cli_usage_error("topo",
                                     "%s \"%s\": give 2 (leaf and spine) or 3 (pods and "
                                     "a core layer)",
                                     a, v);
            else
                fo.tiers = v[0] - '0';
            break;
        case O_OVERSUB:
            fo.oversub_arg = v;
            if (!oversub_parse(v, &fo.oversub))
                rc = cli_usage_error("topo",
                                     "--oversub \"%s\": give the down:up port ratio of a leaf, "
                                     "1 or more (\"3\", \"3:1\" or \"3:2\")",
                                     v);
            break;
        case O_LINK_BW:
            rc = gen_bw(a, v, &to.link_bw_Bps);
            break;
        case O_SPINES:
            if (!strcmp(v, "rail"))
                fo.spines = CR_TOPO_GEN_SPINES_RAIL;
            else if (!strcmp(v, "shared"))
                fo.spines = CR_TOPO_GEN_SPINES_SHARED;
            else
                rc = cli_usage_error("topo",
                                     "--spines \"%s\": give rail (each rail its own spines) or "
                                     "shared (spines joining every rail's leaves)",
                                     v);
            break;
        default:
            break;
        }
        if (rc != CLI_OK)
            return rc;
    }
    if (ft && (!fo.nodes || !fo.node))
        return cli_usage_error("topo", "gen fat-tree needs --nodes N and --node TOPOLOGY (a "
                                       "single node such as hgx-h100-8)");
    if (nvl && !fo.nodes)
        return cli_usage_error("topo", "gen nvl needs --racks N (of --node, default gb200-nvl72)");
    if (torus && !to.dims)
        return cli_usage_error("topo", "gen torus needs --dims, e.g. 4x4x4");
    char *xml = NULL;
    size_t len = 0;
    cr_diag d = {{0}};
    cr_status st = ft    ? cr_topo_gen_fat_tree_xml(&fo, &xml, &len, &d)
                   : nvl ? cr_topo_gen_nvl_xml(&fo, &xml, &len, &d)
                         : cr_topo_gen_torus_xml(&to, &xml, &len, &d);
    /* a parameter the generator refuses is a usage error; a --node that
     * names no topology fails as --topo does in every command (exit 1) */
    if (st == CR_EINVAL)
        return cli_usage_error("topo", "gen %s: %s", what, d.msg);
    if (st)
        return cli_fail("topo", "gen %s: %s", what, d.msg);
    int rc = CLI_OK;
    /* --json describes what was made, as import-nccl does: the summary
     * comes from the written XML loaded back (what every other command
     * will read), before -o is written, so that a failure leaves nothing */
    cr_topo *t = NULL;
    if (json && cr_topo_xml_load_memory(xml, len, "generated topology", &t, &d) != CR_OK)
        rc = cli_fail("topo", "gen %s: the generated topology does not load: %s", what, d.msg);
    if (rc == CLI_OK && out) {
        cr_diag wd = {{0}};
        if (cr_file_write(out, xml, len, &wd) != CR_OK)
            rc = cli_fail("topo", "%s", wd.msg);
    } else if (rc == CLI_OK && !json && fwrite(xml, 1, len, stdout) != len) {
        rc = cli_fail("topo", "cannot write the topology to stdout");
    }
    if (rc == CLI_OK && json)
        rc = gen_json(t, what, out, out ? NULL : xml);
    cr_topo_free(t);
    free(xml);
    return rc;
}

int cli_cmd_topo(int argc, char **argv)
{
    struct opts o = {0};
    int n_pos = 0;
    const cli_opt opts[] = {{"--json", NULL, NULL,
                             "one JSON document on stdout instead of the tables", .flag = &o.json},
                            {"-o", "--output", "FILE",
                             "import-nccl, gen: where to write the topology", .str = &o.out,
                             .output = true},
                            {"--help", "-h", NULL, "this text", .label = "--help, -h"},
                            {0}};
    if (cli_args_help(argc, argv)) {
        fputs(topo_help_head, stdout);
        cli_opts_help(stdout, opts, 16, 0);
        fputs(topo_help_tail, stdout);
        return CLI_OK;
    }
    if (argc > 1 && strcmp(argv[1], "gen") == 0)
        return cmd_gen(argc, argv);
    cli_args args = cli_args_begin("topo", opts, argc, argv);
    for (int r; (r = cli_args_next(&args)) != CLI_ARGS_END;) {
        if (r == CLI_ARGS_ERROR)
            return CLI_USAGE;
        if (r != CLI_ARGS_ARG)
            continue;
        if (n_pos == 0)
            o.sub = args.val;
        else if (n_pos == 1)
            o.arg = args.val;
        else
            return cli_usage_error("topo", "unexpected argument \"%s\"", args.val);
        n_pos++;
    }
    if (!o.sub)
        return cli_usage_error("topo", "say what to do: list, show, check, import-nccl or gen");
    bool is_list = strcmp(o.sub, "list") == 0;
    bool known = is_list || strcmp(o.sub, "show") == 0 || strcmp(o.sub, "check") == 0 ||
                 strcmp(o.sub, "import-nccl") == 0;
    if (!known)
        return cli_usage_error(
            "topo", "unknown subcommand \"%s\": use list, show, check, import-nccl or gen", o.sub);
    if (is_list && o.arg)
        return cli_usage_error("topo", "list takes no argument, got \"%s\"", o.arg);
    if (!is_list && !o.arg)
        return cli_usage_error("topo", "%s needs %s", o.sub,
                               strcmp(o.sub, "import-nccl") == 0 ? "an NCCL dump file"
                               : strcmp(o.sub, "show") == 0      ? "a topology name or file"
                                                                 : "a topology file");
    if (o.out && strcmp(o.sub, "import-nccl") != 0)
        return cli_usage_error("topo", "-o is for import-nccl and gen only");
    if (is_list)
        return cmd_list(&o);
    if (strcmp(o.sub, "show") == 0)
        return cmd_show(&o);
    if (strcmp(o.sub, "check") == 0)
        return cmd_check(&o);
    return cmd_import(&o);
}
