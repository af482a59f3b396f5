/* SPDX-License-Identifier: MIT */
/*
 * Topology graph: builder, id index, adjacency and the invariant checker
 * (see topo.h). Arrays grow by doubling; the id index is an open-addressing
 * hash table so that loading 8,192 GPUs with their links stays linear.
 */
#include "topo.h"
#include "units.h"

#include "grow.h"
#include "id_index_priv.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cr_topo_priv {
    size_t cap_devs, cap_links, cap_params, cap_gpu_specs, cap_switch_specs;
    cr_id_index ids; /* the devices by id */
    char *dup_id;    /* first id added twice, reported by cr_topo_check */
};

static const char *const dev_kind_names[CR_DEV__COUNT] = {"gpu", "switch", "cpu", "pcisw", "nic"};
static const char *const cpu_vendor_names[CR_CPU__COUNT] = {"intel", "amd", "arm"};
static const char *const link_kind_names[CR_LINK__COUNT] = {"nvlink", "pcie", "ib", "ethernet",
                                                            "xgmi",   "ici",  "c2c"};

/* The index of name in names[0..n), or -1: the one lookup behind every
 * *_parse below. */
static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(name, names[i]) == 0)
            return i;
    return -1;
}

const char *cr_dev_kind_name(cr_dev_kind k)
{
    return (unsigned)k < CR_DEV__COUNT ? dev_kind_names[k] : "?";
}

const char *cr_link_kind_name(cr_link_kind k)
{
    return (unsigned)k < CR_LINK__COUNT ? link_kind_names[k] : "?";
}

const char *cr_cpu_vendor_name(cr_cpu_vendor v)
{
    return (unsigned)v < CR_CPU__COUNT ? cpu_vendor_names[v] : "?";
}

int cr_dev_kind_parse(const char *name)
{
    return name_index(dev_kind_names, CR_DEV__COUNT, name);
}

int cr_link_kind_parse(const char *name)
{
    return name_index(link_kind_names, CR_LINK__COUNT, name);
}

int cr_cpu_vendor_parse(const char *name)
{
    return name_index(cpu_vendor_names, CR_CPU__COUNT, name);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

cr_topo *cr_topo_new(const char *name)
{
    cr_topo *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->priv = calloc(1, sizeof *t->priv);
    t->name = strdup(name ? name : "unnamed");
    if (!t->priv || !t->name) {
        cr_topo_free(t);
        return NULL;
    }
    return t;
}

static void gpu_spec_release(cr_gpu_spec *s)
{
    free(s->name);
    free(s->vendor);
    free(s->source);
    free(s->meas_source);
    for (int k = 0; k < CR_DT__COUNT; k++)
        free(s->meas_flops_source[k]);
}

void cr_topo_free(cr_topo *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n_gpu_specs; i++)
        gpu_spec_release(&t->gpu_specs[i]);
    for (int i = 0; i < t->n_switch_specs; i++) {
        free(t->switch_specs[i].name);
        free(t->switch_specs[i].source);
    }
    for (int i = 0; i < t->n_devs; i++)
        free(t->devs[i].id);
    for (int i = 0; i < t->n_params; i++) {
        free(t->params[i].key);
        free(t->params[i].source);
    }
    free(t->gpu_specs);
    free(t->switch_specs);
    free(t->devs);
    free(t->links);
    free(t->params);
    free(t->gpus);
    free(t->adj_off);
    free(t->adj);
    free(t->name);
    free(t->description);
    free(t->source);
    if (t->priv) {
        cr_id_index_free(&t->priv->ids);
        free(t->priv->dup_id);
    }
    free(t->priv);
    free(t);
}

static cr_status set_string(char **dst, const char *src)
{
    char *s = dup_or_null(src);
    if (src && !s)
        return CR_ENOMEM;
    free(*dst);
    *dst = s;
    return CR_OK;
}

cr_status cr_topo_set_description(cr_topo *t, const char *description)
{
    return set_string(&t->description, description);
}

cr_status cr_topo_set_source(cr_topo *t, const char *source)
{
    return set_string(&t->source, source);
}

int cr_topo_add_gpu_spec(cr_topo *t, const cr_gpu_spec *spec)
{
    if (cr_grow((void **)&t->gpu_specs, &t->priv->cap_gpu_specs, (size_t)t->n_gpu_specs + 1,
                sizeof *t->gpu_specs))
        return -1;
    cr_gpu_spec *s = &t->gpu_specs[t->n_gpu_specs];
    *s = *spec;
    s->name = dup_or_null(spec->name);
    s->vendor = dup_or_null(spec->vendor);
    s->source = dup_or_null(spec->source);
    s->meas_source = dup_or_null(spec->meas_source);
    bool oom = false;
    for (int k = 0; k < CR_DT__COUNT; k++) {
        s->meas_flops_source[k] = dup_or_null(spec->meas_flops_source[k]);
        oom |= spec->meas_flops_source[k] && !s->meas_flops_source[k];
    }
    if ((spec->name && !s->name) || (spec->vendor && !s->vendor) || (spec->source && !s->source) ||
        (spec->meas_source && !s->meas_source) || oom) {
        gpu_spec_release(s);
        return -1;
    }
    return t->n_gpu_specs++;
}

int cr_topo_add_switch_spec(cr_topo *t, const cr_switch_spec *spec)
{
    if (cr_grow((void **)&t->switch_specs, &t->priv->cap_switch_specs,
                (size_t)t->n_switch_specs + 1, sizeof *t->switch_specs))
        return -1;
    cr_switch_spec *s = &t->switch_specs[t->n_switch_specs];
    *s = *spec;
    s->name = dup_or_null(spec->name);
    s->source = dup_or_null(spec->source);
    if ((spec->name && !s->name) || (spec->source && !s->source)) {
        free(s->name);
        free(s->source);
        return -1;
    }
    return t->n_switch_specs++;
}

int cr_topo_find_gpu_spec(const cr_topo *t, const char *name)
{
    for (int i = 0; i < t->n_gpu_specs; i++)
        if (t->gpu_specs[i].name && strcmp(t->gpu_specs[i].name, name) == 0)
            return i;
    return -1;
}

int cr_topo_find_switch_spec(const cr_topo *t, const char *name)
{
    for (int i = 0; i < t->n_switch_specs; i++)
        if (t->switch_specs[i].name && strcmp(t->switch_specs[i].name, name) == 0)
            return i;
    return -1;
}

int cr_topo_find_dev(const cr_topo *t, const char *id)
{
    if (!id)
        return -1;
    return cr_id_index_find(&t->priv->ids, t->devs, sizeof *t->devs, offsetof(cr_dev, id), id);
}

int cr_topo_add_dev(cr_topo *t, cr_dev_kind kind, const char *id, int node, int spec)
{
    struct cr_topo_priv *p = t->priv;
    if (!id)
        return -1;
    if (cr_topo_find_dev(t, id) >= 0) {
        if (!p->dup_id)
            p->dup_id = strdup(id);
        return -1;
    }
    if (cr_grow((void **)&t->devs, &p->cap_devs, (size_t)t->n_devs + 1, sizeof *t->devs))
        return -1;
    cr_dev *d = &t->devs[t->n_devs];
    d->id = strdup(id);
    if (!d->id)
        return -1;
    d->kind = kind;
    d->node = node;
    d->spec = spec;
    d->gpu_rank = -1;
    d->port_Bps = 0;
    if (cr_id_index_add(&p->ids, t->devs, sizeof *t->devs, offsetof(cr_dev, id), t->n_devs + 1,
                        t->n_devs)) {
        free(d->id);
        d->id = NULL;
        return -1;
    }
    if (node + 1 > t->n_nodes)
        t->n_nodes = node + 1;
    t->finalized = false;
    return t->n_devs++;
}

int cr_topo_add_link(cr_topo *t, int a, int b, cr_link_kind kind, double bw_ab_Bps,
                     double bw_ba_Bps, int count, double lat_s)
{
    if (cr_grow((void **)&t->links, &t->priv->cap_links, (size_t)t->n_links + 1, sizeof *t->links))
        return -1;
    t->links[t->n_links] = (cr_link){.a = a,
                                     .b = b,
                                     .kind = kind,
                                     .bw_ab_Bps = bw_ab_Bps,
                                     .bw_ba_Bps = bw_ba_Bps,
                                     .count = count,
                                     .lat_s = lat_s};
    t->finalized = false;
    return t->n_links++;
}

static int param_index(const cr_topo *t, const char *key)
{
    for (int i = 0; i < t->n_params; i++)
        if (strcmp(t->params[i].key, key) == 0)
            return i;
    return -1;
}

const cr_param *cr_topo_find_param(const cr_topo *t, const char *key)
{
    int i = param_index(t, key);
    return i < 0 ? NULL : &t->params[i];
}

cr_status cr_topo_set_param(cr_topo *t, const char *key, double value, const char *source)
{
    if (!key)
        return CR_EINVAL;
    int i = param_index(t, key);
    cr_param *p = i < 0 ? NULL : &t->params[i];
    if (!p) {
        if (cr_grow((void **)&t->params, &t->priv->cap_params, (size_t)t->n_params + 1,
                    sizeof *t->params))
            return CR_ENOMEM;
        p = &t->params[t->n_params];
        *p = (cr_param){0};
        p->key = strdup(key);
        if (!p->key)
            return CR_ENOMEM;
        t->n_params++;
    }
    p->value = value;
    return set_string(&p->source, source);
}

double cr_topo_param(const cr_topo *t, const char *key, double fallback)
{
    const cr_param *p = cr_topo_find_param(t, key);
    return p ? p->value : fallback;
}

cr_status cr_topo_finalize(cr_topo *t)
{
    if (t->finalized)
        return CR_OK;
    free(t->gpus);
    free(t->adj_off);
    free(t->adj);
    t->gpus = NULL;
    t->adj = NULL;
    t->n_gpus = 0;
    t->adj_off = calloc((size_t)t->n_devs + 1, sizeof *t->adj_off);
    t->gpus = malloc(((size_t)t->n_devs + 1) * sizeof *t->gpus);
    t->adj = malloc(((size_t)t->n_links * 2 + 1) * sizeof *t->adj);
    if (!t->adj_off || !t->gpus || !t->adj)
        return CR_ENOMEM;
    for (int v = 0; v < t->n_devs; v++) {
        if (t->devs[v].kind == CR_DEV_GPU) {
            t->devs[v].gpu_rank = t->n_gpus;
            t->gpus[t->n_gpus++] = v;
        } else {
            t->devs[v].gpu_rank = -1;
        }
    }
    /* Counting sort of link ends by device: CSR adjacency. Ends that point
     * outside the device array are skipped here and reported by the check. */
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        if (k->a >= 0 && k->a < t->n_devs)
            t->adj_off[k->a + 1]++;
        if (k->b >= 0 && k->b < t->n_devs && k->b != k->a)
            t->adj_off[k->b + 1]++;
    }
    for (int v = 0; v < t->n_devs; v++)
        t->adj_off[v + 1] += t->adj_off[v];
    int *fill = malloc(((size_t)t->n_devs + 1) * sizeof *fill);
    if (!fill)
        return CR_ENOMEM;
    memcpy(fill, t->adj_off, ((size_t)t->n_devs + 1) * sizeof *fill);
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        if (k->a >= 0 && k->a < t->n_devs)
            t->adj[fill[k->a]++] = l;
        if (k->b >= 0 && k->b < t->n_devs && k->b != k->a)
            t->adj[fill[k->b]++] = l;
    }
    free(fill);
    t->finalized = true;
    return CR_OK;
}

double cr_link_bw_from(const cr_link *l, int from)
{
    return (from == l->a ? l->bw_ab_Bps : l->bw_ba_Bps) * l->count;
}

int cr_link_other(const cr_link *l, int v)
{
    return v == l->a ? l->b : l->a;
}

static bool positive_finite(double x)
{
    return isfinite(x) && x > 0.0;
}

/* Every GPU reaches every other: one BFS from GPU 0 over all devices. */
static cr_status check_connected(const cr_topo *t, cr_diag *d)
{
    char *seen = calloc((size_t)t->n_devs, 1);
    int *queue = malloc((size_t)t->n_devs * sizeof *queue);
    cr_status st = CR_OK;
    if (!seen || !queue) {
        st = CR_ENOMEM;
        goto out;
    }
    int head = 0, tail = 0;
    queue[tail++] = t->gpus[0];
    seen[t->gpus[0]] = 1;
    while (head < tail) {
        int v = queue[head++];
        for (int i = t->adj_off[v]; i < t->adj_off[v + 1]; i++) {
            int w = cr_link_other(&t->links[t->adj[i]], v);
            if (!seen[w]) {
                seen[w] = 1;
                queue[tail++] = w;
            }
        }
    }
    for (int r = 0; r < t->n_gpus; r++)
        if (!seen[t->gpus[r]]) {
            st = cr_diag_set(d, CR_EINVARIANT,
                             "GPU \"%s\" cannot reach GPU \"%s\": every GPU must be connected "
                             "to every other through links",
                             t->devs[t->gpus[r]].id, t->devs[t->gpus[0]].id);
            break;
        }
out:
    free(seen);
    free(queue);
    return st;
}

/* Two bundles of the same kind between the same pair should be one bundle
 * with a count; finding them sorts (min, max, kind) keys. */
struct pair_key {
    int lo, hi, kind, link;
};

static int cmp_pair(const void *x, const void *y)
{
    const struct pair_key *a = x, *b = y;
    if (a->lo != b->lo)
        return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi)
        return a->hi < b->hi ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return (a->link > b->link) - (a->link < b->link);
}

static cr_status check_duplicate_links(const cr_topo *t, cr_diag *d)
{
    if (t->n_links < 2)
        return CR_OK;
    struct pair_key *keys = malloc((size_t)t->n_links * sizeof *keys);
    if (!keys)
        return CR_ENOMEM;
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        keys[l] = (struct pair_key){k->a < k->b ? k->a : k->b, k->a < k->b ? k->b : k->a,
                                    (int)k->kind, l};
    }
    qsort(keys, (size_t)t->n_links, sizeof *keys, cmp_pair);
    cr_status st = CR_OK;
    for (int i = 1; i < t->n_links; i++)
        if (keys[i].lo == keys[i - 1].lo && keys[i].hi == keys[i - 1].hi &&
            keys[i].kind == keys[i - 1].kind) {
            st = cr_diag_set(d, CR_EINVARIANT,
                             "two %s links join \"%s\" and \"%s\": give one link a count instead",
                             cr_link_kind_name((cr_link_kind)keys[i].kind), t->devs[keys[i].lo].id,
                             t->devs[keys[i].hi].id);
            break;
        }
    free(keys);
    return st;
}

/* A measured ceiling is what a kernel reached on the GPU: above the
 * model's peak it says the peak is wrong, and a bound built on that peak
 * would not hold (the measured kernel ran faster than the bound allows);
 * without a peak or a cache size there is nothing it measures. These
 * loaded before (QA audit, 2026-12-06), and calibrate wrote the HBM
 * figure of one GPU model into another at 3x its peak. */
static cr_status above_peak(const char *name, const char *what, double meas, double peak,
                            cr_unit_kind unit, cr_diag *d)
{
    char a[32], b[32];
    return cr_diag_set(d, CR_EINVARIANT,
                       "GPU model \"%s\": measured %s %s is above its peak %s: a kernel cannot "
                       "beat the peak; correct the peak (with its source) or the measurement",
                       name, what, cr_units_format(meas, unit, a, sizeof a),
                       cr_units_format(peak, unit, b, sizeof b));
}

static cr_status check_measured(const cr_gpu_spec *s, cr_diag *d)
{
    const char *name = s->name ? s->name : "?";
    const double tol = 1 + 1e-9; /* a figure saved and read back */
    if (s->meas_hbm_Bps > s->hbm_Bps * tol)
        return above_peak(name, "hbm-bw", s->meas_hbm_Bps, s->hbm_Bps, CR_UNIT_BANDWIDTH, d);
    if (s->meas_l2_Bps > 0 && !(s->l2_bytes > 0))
        return cr_diag_set(d, CR_EINVARIANT,
                           "GPU model \"%s\": a measured l2-bw but no l2 size: give the cache's "
                           "size (e.g. l2=\"50MiB\")",
                           name);
    if (s->l2_Bps > 0 && s->meas_l2_Bps > s->l2_Bps * tol)
        return above_peak(name, "l2-bw", s->meas_l2_Bps, s->l2_Bps, CR_UNIT_BANDWIDTH, d);
    for (int k = 0; k < CR_DT__COUNT; k++) {
        const char *dt = cr_dtype_name((cr_dtype)k);
        char what[32];
        snprintf(what, sizeof what, "%s FLOP/s", dt);
        if (s->meas_flops[k] > 0 && !(s->peak_flops[k] > 0))
            return cr_diag_set(d, CR_EINVARIANT,
                               "GPU model \"%s\": measured %s but no %s peak: give the peak "
                               "too (e.g. <flops dtype=\"%s\" peak=\"989TFLOP/s\"/>)",
                               name, what, dt, dt);
        if (s->meas_flops[k] > s->peak_flops[k] * tol)
            return above_peak(name, what, s->meas_flops[k], s->peak_flops[k], CR_UNIT_FLOPS, d);
    }
    return CR_OK;
}

static cr_status check_all(cr_topo *t, cr_diag *d)
{
    if (t->priv->dup_id)
        return cr_diag_set(d, CR_EINVARIANT, "device id \"%s\" is used twice: ids must be unique",
                           t->priv->dup_id);
    cr_status st = cr_topo_finalize(t);
    if (st)
        return st;
    if (t->n_gpus == 0)
        return cr_diag_set(d, CR_EINVARIANT, "the topology has no GPU: describe at least one");
    if (t->n_gpus > CR_TOPO_MAX_GPUS)
        return cr_diag_set(d, CR_EINVARIANT, CR_TOPO_MAX_GPUS_MSG, CR_TOPO_MAX_GPUS);
    for (int i = 0; i < t->n_gpu_specs; i++) {
        const cr_gpu_spec *s = &t->gpu_specs[i];
        if (!positive_finite(s->hbm_bytes) || !positive_finite(s->hbm_Bps) ||
            s->hbm_bytes < CR_TOPO_MIN_BYTES || s->hbm_Bps < CR_TOPO_MIN_BPS)
            return cr_diag_set(d, CR_EINVARIANT,
                               "GPU model \"%s\": HBM capacity and bandwidth must be finite and "
                               "at least 1kB and 1MB/s",
                               s->name ? s->name : "?");
        bool any = false;
        for (int k = 0; k < CR_DT__COUNT; k++) {
            if (!isfinite(s->peak_flops[k]) || s->peak_flops[k] < 0 ||
                !isfinite(s->meas_flops[k]) || s->meas_flops[k] < 0 ||
                (s->peak_flops[k] > 0 && s->peak_flops[k] < CR_TOPO_MIN_FLOPS) ||
                (s->meas_flops[k] > 0 && s->meas_flops[k] < CR_TOPO_MIN_FLOPS))
                return cr_diag_set(d, CR_EINVARIANT,
                                   "GPU model \"%s\": %s FLOP/s must be finite, and 0 (none) or "
                                   "at least 1MFLOP/s",
                                   s->name ? s->name : "?", cr_dtype_name((cr_dtype)k));
            any |= s->peak_flops[k] > 0;
        }
        if (!any)
            return cr_diag_set(d, CR_EINVARIANT,
                               "GPU model \"%s\" has no peak FLOP/s for any dtype: give at least "
                               "one",
                               s->name ? s->name : "?");
        if (s->sms <= 0)
            return cr_diag_set(d, CR_EINVARIANT, "GPU model \"%s\": SM count must be positive",
                               s->name ? s->name : "?");
        if ((st = check_measured(s, d)) != CR_OK)
            return st;
    }
    for (int v = 0; v < t->n_devs; v++) {
        const cr_dev *dv = &t->devs[v];
        /* a kind outside the enum indexed name and capacity tables (QA
         * audit of the API: builder callers pass it as they like) */
        if ((unsigned)dv->kind >= CR_DEV__COUNT)
            return cr_diag_set(d, CR_EINVARIANT, "device \"%s\": kind %d is not a cr_dev_kind",
                               dv->id, (int)dv->kind);
        if (dv->kind == CR_DEV_GPU && (dv->spec < 0 || dv->spec >= t->n_gpu_specs))
            return cr_diag_set(d, CR_EINVARIANT, "GPU \"%s\" has no GPU model", dv->id);
        if (dv->kind == CR_DEV_SWITCH && (dv->spec < -1 || dv->spec >= t->n_switch_specs))
            return cr_diag_set(d, CR_EINVARIANT, "switch \"%s\" names no known switch model",
                               dv->id);
        /* a vendor outside the enum passed, and the XML saver, which
         * writes only a cr_cpu_vendor, made a file that loads back unequal
         * (cr_topo_xml_save_memory's promise; QA audit of the API) */
        if (dv->kind == CR_DEV_CPU && (dv->spec < -1 || dv->spec >= CR_CPU__COUNT))
            return cr_diag_set(d, CR_EINVARIANT,
                               "CPU \"%s\": vendor %d is not a cr_cpu_vendor (0 to %d, or -1 "
                               "unstated)",
                               dv->id, dv->spec, CR_CPU__COUNT - 1);
    }
    for (int l = 0; l < t->n_links; l++) {
        const cr_link *k = &t->links[l];
        if (k->a < 0 || k->a >= t->n_devs || k->b < 0 || k->b >= t->n_devs)
            return cr_diag_set(d, CR_EINVARIANT, "link %d ends at a device that does not exist", l);
        const char *ia = t->devs[k->a].id, *ib = t->devs[k->b].id;
        if (k->a == k->b)
            return cr_diag_set(d, CR_EINVARIANT,
                               "link from \"%s\" to itself: a link joins two devices", ia);
        if ((unsigned)k->kind >= CR_LINK__COUNT)
            return cr_diag_set(d, CR_EINVARIANT,
                               "link \"%s\"-\"%s\": kind %d is not a cr_link_kind", ia, ib,
                               (int)k->kind);
        if (!positive_finite(k->bw_ab_Bps) || !positive_finite(k->bw_ba_Bps) ||
            k->bw_ab_Bps < CR_TOPO_MIN_BPS || k->bw_ba_Bps < CR_TOPO_MIN_BPS ||
            k->bw_ab_Bps > 1e15 || k->bw_ba_Bps > 1e15)
            return cr_diag_set(d, CR_EINVARIANT,
                               "link \"%s\"-\"%s\": bandwidth must be finite, at least 1MB/s "
                               "and at most 1PB/s in each direction",
                               ia, ib);
        if (k->count <= 0)
            return cr_diag_set(d, CR_EINVARIANT, "link \"%s\"-\"%s\": count must be at least 1", ia,
                               ib);
        if (!isfinite(k->lat_s) || k->lat_s < 0)
            return cr_diag_set(d, CR_EINVARIANT,
                               "link \"%s\"-\"%s\": latency must be finite and not negative", ia,
                               ib);
    }
    for (int i = 0; i < t->n_params; i++)
        if (!isfinite(t->params[i].value))
            return cr_diag_set(d, CR_EINVARIANT, "parameter \"%s\" is not finite",
                               t->params[i].key);
    st = check_duplicate_links(t, d);
    if (st)
        return st;
    return check_connected(t, d);
}

cr_status cr_topo_check(cr_topo *t, cr_diag *d)
{
    cr_status st = check_all(t, d);
    /* the loaders print the message after file:line: never empty (QA audit
     * of allocation failures: "hgx-h100-8.xml:10: " and nothing more) */
    if (st == CR_ENOMEM)
        cr_diag_set(d, st, "out of memory checking the topology");
    return st;
}

const cr_gpu_spec *cr_topo_gpu_spec(const cr_topo *t, int rank)
{
    if (!t || rank < 0 || rank >= t->n_gpus)
        return NULL;
    int s = t->devs[t->gpus[rank]].spec;
    return s >= 0 && s < t->n_gpu_specs ? &t->gpu_specs[s] : NULL;
}

static bool str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

bool cr_topo_equal(const cr_topo *a, const cr_topo *b, cr_diag *d)
{
#define DIFF(...) (cr_diag_set(d, CR_EINVAL, __VA_ARGS__), false)
    if (!str_eq(a->name, b->name))
        return DIFF("names differ: \"%s\" vs \"%s\"", a->name, b->name);
    if (a->n_gpu_specs != b->n_gpu_specs || a->n_switch_specs != b->n_switch_specs)
        return DIFF("numbers of GPU or switch models differ");
    for (int i = 0; i < a->n_gpu_specs; i++) {
        const cr_gpu_spec *x = &a->gpu_specs[i], *y = &b->gpu_specs[i];
        if (!str_eq(x->name, y->name) || !str_eq(x->vendor, y->vendor) || x->arch != y->arch ||
            x->hbm_bytes != y->hbm_bytes || x->hbm_Bps != y->hbm_Bps ||
            x->l2_bytes != y->l2_bytes || x->sms != y->sms || x->clock_hz != y->clock_hz ||
            x->l2_Bps != y->l2_Bps || x->llc_bytes != y->llc_bytes || x->llc_Bps != y->llc_Bps ||
            x->meas_hbm_Bps != y->meas_hbm_Bps || x->meas_l2_Bps != y->meas_l2_Bps ||
            memcmp(x->peak_flops, y->peak_flops, sizeof x->peak_flops) != 0 ||
            memcmp(x->meas_flops, y->meas_flops, sizeof x->meas_flops) != 0)
            return DIFF("GPU model %d (\"%s\") differs", i, x->name ? x->name : "?");
    }
    for (int i = 0; i < a->n_switch_specs; i++) {
        const cr_switch_spec *x = &a->switch_specs[i], *y = &b->switch_specs[i];
        if (!str_eq(x->name, y->name) || x->generation != y->generation ||
            x->multicast != y->multicast || x->reduction != y->reduction ||
            x->reduce_Bps != y->reduce_Bps)
            return DIFF("switch model %d (\"%s\") differs", i, x->name ? x->name : "?");
    }
    if (a->n_devs != b->n_devs)
        return DIFF("device counts differ: %d vs %d", a->n_devs, b->n_devs);
    for (int v = 0; v < a->n_devs; v++) {
        const cr_dev *x = &a->devs[v], *y = &b->devs[v];
        if (x->kind != y->kind || !str_eq(x->id, y->id) || x->node != y->node ||
            x->spec != y->spec || x->port_Bps != y->port_Bps)
            return DIFF("device %d differs (\"%s\" vs \"%s\")", v, x->id, y->id);
    }
    if (a->n_links != b->n_links)
        return DIFF("link counts differ: %d vs %d", a->n_links, b->n_links);
    for (int l = 0; l < a->n_links; l++) {
        const cr_link *x = &a->links[l], *y = &b->links[l];
        if (x->a != y->a || x->b != y->b || x->kind != y->kind || x->bw_ab_Bps != y->bw_ab_Bps ||
            x->bw_ba_Bps != y->bw_ba_Bps || x->count != y->count || x->lat_s != y->lat_s)
            return DIFF("link %d (\"%s\"-\"%s\") differs", l, a->devs[x->a].id, a->devs[x->b].id);
    }
    if (a->n_params != b->n_params)
        return DIFF("parameter counts differ: %d vs %d", a->n_params, b->n_params);
    for (int i = 0; i < a->n_params; i++) {
        const cr_param *x = &a->params[i];
        const cr_param *y = cr_topo_find_param(b, x->key);
        if (!y || y->value != x->value)
            return DIFF("parameter \"%s\" differs", x->key);
    }
    return true;
#undef DIFF
}
