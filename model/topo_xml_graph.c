/* SPDX-License-Identifier: MIT */
/*
 * Passes 2 and 3 of the topology XML loader (see topo_xml.c, whose header
 * comment describes the three passes): the devices a document declares and
 * then its links, with node templates compiled once and stamped per node,
 * tori and rail fabrics generated.
 */
#include "topo_xml_priv.h"

#include <ctype.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "grow.h"
#include "route.h"

/* ---------------------------------------------------------------------- */
/* Pass 2: devices                                                         */

static cr_dev_kind dev_kind_of(const xmlNode *n)
{
    int k = cr_dev_kind_parse((const char *)n->name);
    return k < 0 ? CR_DEV_GPU : (cr_dev_kind)k;
}

static bool is_dev_elem(const xmlNode *n)
{
    return n->type == XML_ELEMENT_NODE && cr_dev_kind_parse((const char *)n->name) >= 0;
}

/* The model index of a device element: a GPU model for GPUs, a switch
 * model (or -1) for switches, a CPU's vendor (or -1), -1 otherwise. */
static cr_status dev_spec(loader *L, const xmlNode *n, int *spec)
{
    *spec = -1;
    if (txml_is_name(n, "cpu")) {
        const char *v = txml_get(L, n, "vendor");
        if (v && (*spec = cr_cpu_vendor_parse(v)) < 0)
            return FAIL(L, n, CR_EINVAL,
                        "<cpu> vendor: \"%s\" is not one of intel, amd, arm (leave it out "
                        "where unknown)",
                        v);
        return CR_OK;
    }
    const char *m = txml_get(L, n, "model");
    if (!m)
        return CR_OK;
    if (txml_is_name(n, "gpu")) {
        *spec = cr_topo_find_gpu_spec(L->t, m);
        if (*spec < 0)
            return FAIL(L, n, CR_ENOTFOUND,
                        "<gpu> model: no <gpu-model name=\"%s\"> in this file: define it or use "
                        "one that is defined",
                        m);
    } else {
        *spec = cr_topo_find_switch_spec(L->t, m);
        if (*spec < 0)
            return FAIL(L, n, CR_ENOTFOUND,
                        "<switch> model: no <switch-model name=\"%s\"> in this file: define it or "
                        "use one that is defined",
                        m);
    }
    return CR_OK;
}

/* What a device element says of itself beyond its id: its model index
 * (dev_spec) and, for a NIC, its port-bw (0 where left out). One reader for
 * top-level and template devices alike. */
static cr_status dev_attrs(loader *L, const xmlNode *n, int *spec, double *port_Bps)
{
    *port_Bps = 0;
    cr_status st = dev_spec(L, n, spec);
    if (st || !txml_is_name(n, "nic") || !txml_get(L, n, "port-bw"))
        return st;
    return txml_get_bw(L, n, "port-bw", port_Bps);
}

/* Adds one device with its declaring line; ids must be unique. */
static cr_status add_dev(loader *L, int line, cr_dev_kind kind, const char *id, int node, int spec,
                         double port_Bps)
{
    /* each part was checked against ID_MAX; their expansion (a <nodes>
     * prefix, the node's index, the template's id) may not fit, and the
     * saver would then refuse what the loader took (QA audit, 2026-12-06) */
    size_t len = strlen(id);
    if (len > ID_MAX)
        return txml_fail_at(L, line, CR_EINVAL,
                            "device id \"%.40s...\" is %zu characters once expanded (prefix, "
                            "index and id together): ids may hold at most %d; shorten the prefix "
                            "or the id",
                            id, len, ID_MAX);
    int prev = cr_topo_find_dev(L->t, id);
    if (prev >= 0)
        return txml_fail_at(L, line, CR_EINVAL,
                            "device id \"%s\" is already used (line %d): ids must be unique", id,
                            L->dev_line[prev]);
    if (L->t->n_devs >= MAX_DEVS)
        return txml_fail_at(L, line, CR_ERANGE, "more than %d devices: the file is too large",
                            MAX_DEVS);
    if (kind == CR_DEV_GPU && L->n_gpu_devs >= CR_TOPO_MAX_GPUS)
        return txml_fail_at(L, line, CR_ERANGE, CR_TOPO_MAX_GPUS_MSG, CR_TOPO_MAX_GPUS);
    if (kind == CR_DEV_GPU)
        L->n_gpu_devs++;
    if (cr_grow((void **)&L->dev_line, &L->cap_dev_line, (size_t)L->t->n_devs + 1, sizeof(int)))
        return txml_oom(L);
    int v = cr_topo_add_dev(L->t, kind, id, node, spec);
    if (v < 0)
        return txml_oom(L);
    L->t->devs[v].port_Bps = port_Bps;
    L->dev_line[v] = line;
    return CR_OK;
}

static cr_status top_devices(loader *L, xmlNode *n)
{
    int spec, node;
    double port_Bps;
    cr_status st;
    if ((st = dev_attrs(L, n, &spec, &port_Bps)) ||
        (st = txml_get_int(L, n, "node", 0, 100000000, -1, &node)))
        return st;
    char **ids;
    int nids;
    if ((st = txml_expand_ids(L, n, "id", &ids, &nids)))
        return st;
    for (int i = 0; i < nids && !st; i++) {
        if (!txml_valid_id(ids[i]))
            st = FAIL(L, n, CR_EINVAL,
                      "<%s> id: \"%s\" may hold only letters, digits and . _ - : / + (at most 200)",
                      n->name, ids[i]);
        else
            st = add_dev(L, txml_line_of(n), dev_kind_of(n), ids[i], node, spec, port_Bps);
    }
    txml_free_ids(ids, nids);
    return st;
}

static int tmpl_find(const struct tmpl *tp, const char *id)
{
    return cr_id_index_find(&tp->ids, tp->devs, sizeof *tp->devs, offsetof(struct tdev, id), id);
}

struct lattr {
    cr_link_kind kind;
    double ab, ba, lat;
    int count;
};

static cr_status get_link_attrs(loader *L, const xmlNode *n, struct lattr *o)
{
    cr_status st;
    const char *k = txml_get(L, n, "kind");
    o->kind = CR_LINK_ICI; /* the torus default */
    if (k) {
        int kk = cr_link_kind_parse(k);
        if (kk < 0)
            return FAIL(L, n, CR_EINVAL,
                        "<%s> kind: \"%s\" is not a link kind: use nvlink, pcie, ib, ethernet, "
                        "xgmi, ici or c2c",
                        n->name, k);
        o->kind = (cr_link_kind)kk;
    }
    bool bw = txml_get(L, n, "bw") != NULL, ab = txml_get(L, n, "bw-ab") != NULL,
         ba = txml_get(L, n, "bw-ba") != NULL;
    if (bw && (ab || ba))
        return FAIL(L, n, CR_EINVAL,
                    "<%s> gives bw and bw-ab/bw-ba: give bw, or both bw-ab and bw-ba when the "
                    "directions differ",
                    n->name);
    if (!bw && !(ab && ba))
        return FAIL(L, n, CR_EINVAL,
                    "<%s> needs a bandwidth: bw=\"25GB/s\" (per link and direction), or both bw-ab "
                    "and bw-ba",
                    n->name);
    if (bw) {
        if ((st = txml_get_bw(L, n, "bw", &o->ab)))
            return st;
        o->ba = o->ab;
    } else if ((st = txml_get_bw(L, n, "bw-ab", &o->ab)) ||
               (st = txml_get_bw(L, n, "bw-ba", &o->ba))) {
        return st;
    }
    if ((st = txml_get_int(L, n, "count", 1, 1000000, 1, &o->count)))
        return st;
    return txml_get_latency(L, n, "latency", &o->lat);
}

static cr_status tmpl_add_link(loader *L, struct tmpl *tp, const xmlNode *n, int a, int b,
                               const struct lattr *la)
{
    if (a == b)
        return FAIL(L, n, CR_EINVAL,
                    "<%s> joins \"%s\" to itself: a link joins two different devices", n->name,
                    tp->devs[a].id);
    if (cr_grow((void **)&tp->links, &tp->cap_links, (size_t)tp->n_links + 1, sizeof *tp->links))
        return txml_oom(L);
    tp->links[tp->n_links++] =
        (struct tlink){a, b, la->kind, la->ab, la->ba, la->lat, la->count, txml_line_of(n)};
    return CR_OK;
}

/* A <link>'s two ends, expanded ({0..3} ranges) and paired: equal lengths
 * pair up, a single end pairs with every element of the other. */
struct link_ends {
    char **a, **b;
    int na, nb;
    int np; /* pairs; end i is a[na == 1 ? 0 : i], b[nb == 1 ? 0 : i] */
};

static void link_ends_free(struct link_ends *e)
{
    txml_free_ids(e->a, e->na);
    txml_free_ids(e->b, e->nb);
}

static cr_status link_ends_get(loader *L, xmlNode *n, struct link_ends *e)
{
    cr_status st;
    if ((st = txml_expand_ids(L, n, "a", &e->a, &e->na)))
        return st;
    if ((st = txml_expand_ids(L, n, "b", &e->b, &e->nb))) {
        txml_free_ids(e->a, e->na);
        return st;
    }
    e->np = e->na == e->nb ? e->na : e->na == 1 ? e->nb : e->nb == 1 ? e->na : -1;
    if (e->np < 0) {
        st = FAIL(L, n, CR_EINVAL,
                  "<link> a has %d devices and b has %d: give both the same number, or one device "
                  "on one side",
                  e->na, e->nb);
        link_ends_free(e);
    }
    return st;
}

cr_status txml_compile_tmpl(loader *L, struct tmpl *tp)
{
    cr_status st = CR_OK;
    tp->compiled = true;
    for (xmlNode *n = tp->node->children; n; n = n->next) {
        if (!is_dev_elem(n))
            continue;
        if (txml_get(L, n, "node"))
            return FAIL(
                L, n, CR_EINVAL,
                "<%s> node: devices in a template get their node from <nodes>; remove node=",
                n->name);
        int spec;
        double port_Bps;
        if ((st = dev_attrs(L, n, &spec, &port_Bps)))
            return st;
        char **ids;
        int nids;
        if ((st = txml_expand_ids(L, n, "id", &ids, &nids)))
            return st;
        for (int i = 0; i < nids && !st; i++) {
            int prev = tmpl_find(tp, ids[i]);
            if (!txml_valid_id(ids[i]))
                st = FAIL(
                    L, n, CR_EINVAL,
                    "<%s> id: \"%s\" may hold only letters, digits and . _ - : / + (at most 200)",
                    n->name, ids[i]);
            else if (prev >= 0)
                st = FAIL(L, n, CR_EINVAL,
                          "device id \"%s\" is already used in template \"%s\" (line %d): ids must "
                          "be unique",
                          ids[i], tp->name, tp->devs[prev].line);
            else if (cr_grow((void **)&tp->devs, &tp->cap_devs, (size_t)tp->n_devs + 1,
                             sizeof *tp->devs))
                st = txml_oom(L);
            else {
                tp->devs[tp->n_devs] =
                    (struct tdev){dev_kind_of(n), ids[i], spec, txml_line_of(n), port_Bps};
                if (cr_id_index_add(&tp->ids, tp->devs, sizeof *tp->devs, offsetof(struct tdev, id),
                                    tp->n_devs + 1, tp->n_devs))
                    st = txml_oom(L);
                else {
                    tp->n_devs++;
                    ids[i] = NULL;
                }
            }
        }
        txml_free_ids(ids, nids);
        if (st)
            return st;
    }
    for (xmlNode *n = tp->node->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE || is_dev_elem(n))
            continue;
        struct lattr la;
        if ((st = get_link_attrs(L, n, &la)))
            return st;
        if (txml_is_name(n, "link-pattern")) {
            const char *ga = txml_get(L, n, "a"), *gb = txml_get(L, n, "b");
            int found = 0;
            /* which devices match a (bit 1) and b (bit 2): once each, not
             * once per pair */
            unsigned char *in = malloc((size_t)tp->n_devs + 1);
            if (!in)
                return txml_oom(L);
            for (int x = 0; x < tp->n_devs; x++)
                in[x] = (unsigned char)((fnmatch(ga, tp->devs[x].id, 0) == 0) |
                                        (fnmatch(gb, tp->devs[x].id, 0) == 0) << 1);
            for (int x = 0; x < tp->n_devs && !st; x++) {
                if (!(in[x] & 1))
                    continue;
                for (int y = 0; y < tp->n_devs; y++) {
                    if (y == x || !(in[y] & 2))
                        continue;
                    if ((in[x] & 2) && (in[y] & 1) && y < x)
                        continue; /* the pair was added as (y, x) */
                    if ((st = tmpl_add_link(L, tp, n, x, y, &la)))
                        break;
                    found++;
                }
            }
            free(in);
            if (st)
                return st;
            if (!found)
                return FAIL(L, n, CR_EINVAL,
                            "<link-pattern> a=\"%s\" b=\"%s\" matches no pair of devices in "
                            "template \"%s\"",
                            ga, gb, tp->name);
            continue;
        }
        struct link_ends e;
        if ((st = link_ends_get(L, n, &e)))
            return st;
        for (int i = 0; i < e.np && !st; i++) {
            const char *ea = e.a[e.na == 1 ? 0 : i], *eb = e.b[e.nb == 1 ? 0 : i];
            int a = tmpl_find(tp, ea), b = tmpl_find(tp, eb);
            if (a < 0 || b < 0)
                st = FAIL(
                    L, n, CR_ENOTFOUND,
                    "<link> %s: no device \"%s\" in template \"%s\": declare it or correct the id",
                    a < 0 ? "a" : "b", a < 0 ? ea : eb, tp->name);
            else
                st = tmpl_add_link(L, tp, n, a, b, &la);
        }
        link_ends_free(&e);
        if (st)
            return st;
    }
    return CR_OK;
}

static cr_status push_gen(loader *L, int base)
{
    if (cr_grow((void **)&L->gen_base, &L->cap_gen, (size_t)L->n_gen + 1, sizeof *L->gen_base))
        return txml_oom(L);
    L->gen_base[L->n_gen++] = base;
    return CR_OK;
}

static cr_status nodes_devices(loader *L, xmlNode *n)
{
    cr_status st;
    const char *tn = txml_get(L, n, "template");
    struct tmpl *tp = txml_find_tmpl(L, tn);
    if (!tp)
        return FAIL(L, n, CR_ENOTFOUND,
                    "<nodes> template: no <node-template name=\"%s\"> in this file", tn);
    int count;
    if ((st = txml_get_int(L, n, "count", 1, MAX_EXPAND, 1, &count)))
        return st;
    const char *prefix = txml_get(L, n, "prefix");
    if (!prefix)
        prefix = "n";
    if (!*prefix && count != 1)
        return FAIL(L, n, CR_EINVAL,
                    "<nodes> prefix=\"\" keeps the template's ids and needs count=\"1\"; give a "
                    "prefix such as \"n\" for %d nodes",
                    count);
    if (*prefix && !txml_valid_id(prefix))
        return FAIL(
            L, n, CR_EINVAL,
            "<nodes> prefix: \"%s\" may hold only letters, digits and . _ - : / + (at most 200)",
            prefix);
    long long tgpus = 0;
    for (int j = 0; j < tp->n_devs; j++)
        tgpus += tp->devs[j].kind == CR_DEV_GPU;
    if ((long long)count * tgpus + L->n_gpu_devs > CR_TOPO_MAX_GPUS)
        return FAIL(L, n, CR_ERANGE, CR_TOPO_MAX_GPUS_MSG, CR_TOPO_MAX_GPUS);
    if ((long long)count * tp->n_devs + L->t->n_devs > MAX_DEVS ||
        (long long)count * tp->n_links + L->t->n_links > MAX_LINKS)
        return FAIL(L, n, CR_ERANGE,
                    "<nodes> would create more than %d devices or %d links: the file is too large",
                    MAX_DEVS, MAX_LINKS);
    for (int i = 0; i < count; i++) {
        char pre[ID_BUF];
        if (*prefix)
            snprintf(pre, sizeof pre, "%s%d.", prefix, i);
        else
            pre[0] = '\0';
        int node = L->n_nodes;
        if (cr_grow((void **)&L->node_prefix, &L->cap_node_prefix, (size_t)node + 1,
                    sizeof *L->node_prefix) ||
            cr_grow((void **)&L->node_base, &L->cap_node_base, (size_t)node + 1,
                    sizeof *L->node_base))
            return txml_oom(L);
        if (!(L->node_prefix[node] = strdup(pre)))
            return txml_oom(L);
        L->node_base[node] = L->t->n_devs;
        L->n_nodes++;
        for (int j = 0; j < tp->n_devs; j++) {
            char id[ID_BUF];
            snprintf(id, sizeof id, "%s%s", pre, tp->devs[j].id);
            if ((st = add_dev(L, tp->devs[j].line, tp->devs[j].kind, id, node, tp->devs[j].spec,
                              tp->devs[j].port_Bps)))
                return st;
        }
    }
    return CR_OK;
}

/* Parses dims "4x4x4" into dim[0..*nd). */
static cr_status torus_dims(loader *L, const xmlNode *n, int dim[4], int *nd, int *total)
{
    const char *s = txml_get(L, n, "dims");
    const char *p = s;
    long prod = 1;
    *nd = 0;
    for (;;) {
        char *end = NULL;
        if (!isdigit((unsigned char)*p) || *nd == 4)
            goto bad;
        long v = strtol(p, &end, 10);
        if (v < 1 || v > 1024)
            goto bad;
        dim[(*nd)++] = (int)v;
        prod *= v;
        if (prod > MAX_EXPAND)
            goto bad;
        if (*end == '\0')
            break;
        if (*end != 'x')
            goto bad;
        p = end + 1;
    }
    *total = (int)prod;
    return CR_OK;
bad:
    return FAIL(L, n, CR_EINVAL,
                "<torus> dims: \"%s\" is not 1 to 4 sizes joined by 'x' (e.g. \"4x4x4\"), each "
                "1..1024, at most %d chips",
                s, MAX_EXPAND);
}

static void torus_id(char *buf, size_t size, const char *name, const int *dim, int nd, int idx)
{
    int c[4];
    for (int d = nd - 1; d >= 0; d--) {
        c[d] = idx % dim[d];
        idx /= dim[d];
    }
    int w = snprintf(buf, size, "%s", name);
    for (int d = 0; d < nd && w > 0 && (size_t)w < size; d++)
        w += snprintf(buf + w, size - (size_t)w, ".%d", c[d]);
}

static cr_status torus_devices(loader *L, xmlNode *n)
{
    int dim[4], nd, total;
    cr_status st;
    if ((st = torus_dims(L, n, dim, &nd, &total)) || (st = push_gen(L, L->t->n_devs)))
        return st;
    const char *name = txml_get(L, n, "name"), *model = txml_get(L, n, "model");
    if (!txml_valid_id(name))
        return FAIL(
            L, n, CR_EINVAL,
            "<torus> name: \"%s\" may hold only letters, digits and . _ - : / + (at most 200)",
            name);
    int spec = cr_topo_find_gpu_spec(L->t, model);
    if (spec < 0)
        return FAIL(L, n, CR_ENOTFOUND,
                    "<torus> model: no <gpu-model name=\"%s\"> in this file: define it or use one "
                    "that is defined",
                    model);
    for (int i = 0; i < total; i++) {
        char id[ID_BUF];
        torus_id(id, sizeof id, name, dim, nd, i);
        if ((st = add_dev(L, txml_line_of(n), CR_DEV_GPU, id, -1, spec, 0)))
            return st;
    }
    return CR_OK;
}

struct rail {
    const char *name, *nic;
    int rails, npl, spines, uplinks, groups;
    bool shared;
    int leaf_spec, spine_spec;
    double nic_bw, up_bw, lat;
    cr_link_kind kind;
};

static cr_status rail_read(loader *L, const xmlNode *n, struct rail *r)
{
    cr_status st;
    r->name = txml_get(L, n, "name");
    r->nic = txml_get(L, n, "nic");
    if (strlen(r->nic) > ID_MAX)
        return FAIL(L, n, CR_EINVAL, "<rail-fabric> nic: longer than %d characters", ID_MAX);
    if ((st = txml_get_int(L, n, "rails", 1, 64, 1, &r->rails)) ||
        (st = txml_get_int(L, n, "nodes-per-leaf", 1, MAX_EXPAND, 1, &r->npl)) ||
        (st = txml_get_int(L, n, "spines", 0, 100000, 0, &r->spines)) ||
        (st = txml_get_int(L, n, "uplinks", 1, 100000, 1, &r->uplinks)) ||
        (st = txml_get_bw(L, n, "nic-bw", &r->nic_bw)) ||
        (st = txml_get_latency(L, n, "latency", &r->lat)))
        return st;
    r->up_bw = r->nic_bw;
    if (txml_get(L, n, "uplink-bw") && (st = txml_get_bw(L, n, "uplink-bw", &r->up_bw)))
        return st;
    const char *scope = txml_get(L, n, "spine-scope");
    if (scope && strcmp(scope, "rail") && strcmp(scope, "shared"))
        return FAIL(L, n, CR_EINVAL,
                    "<rail-fabric> spine-scope: \"%s\" is not \"rail\" or \"shared\"", scope);
    r->shared = scope && strcmp(scope, "shared") == 0;
    const char *k = txml_get(L, n, "kind");
    int kk = cr_link_kind_parse(k);
    if (kk != CR_LINK_IB && kk != CR_LINK_ETHERNET && kk != CR_LINK_NVLINK)
        return FAIL(L, n, CR_EINVAL, "<rail-fabric> kind: \"%s\" is not ib, ethernet or nvlink", k);
    r->kind = (cr_link_kind)kk;
    if (!txml_valid_id(r->name))
        return FAIL(L, n, CR_EINVAL,
                    "<rail-fabric> name: \"%s\" may hold only letters, digits and . _ - : / + (at "
                    "most 200)",
                    r->name);
    if (r->rails > 1 && !strstr(r->nic, "{rail}"))
        return FAIL(L, n, CR_EINVAL,
                    "<rail-fabric> nic: \"%s\" must hold \"{rail}\" (e.g. \"nic{rail}\") when "
                    "there are %d rails",
                    r->nic, r->rails);
    r->leaf_spec = r->spine_spec = -1;
    const char *lm = txml_get(L, n, "leaf-model"), *sm = txml_get(L, n, "spine-model");
    if (lm && (r->leaf_spec = cr_topo_find_switch_spec(L->t, lm)) < 0)
        return FAIL(L, n, CR_ENOTFOUND, "<rail-fabric> leaf-model: no <switch-model name=\"%s\">",
                    lm);
    if (sm && (r->spine_spec = cr_topo_find_switch_spec(L->t, sm)) < 0)
        return FAIL(L, n, CR_ENOTFOUND, "<rail-fabric> spine-model: no <switch-model name=\"%s\">",
                    sm);
    if (L->n_nodes == 0)
        return FAIL(
            L, n, CR_EINVAL,
            "<rail-fabric> needs nodes to join: declare them with <nodes template=... count=...>");
    r->groups = (L->n_nodes + r->npl - 1) / r->npl;
    if (r->groups > 1 && r->spines == 0)
        return FAIL(L, n, CR_EINVAL,
                    "<rail-fabric> %d nodes at %d per leaf make %d leaf groups, which only spines "
                    "can join: set spines",
                    L->n_nodes, r->npl, r->groups);
    return CR_OK;
}

static cr_status rail_devices(loader *L, xmlNode *n)
{
    struct rail r;
    cr_status st;
    if ((st = rail_read(L, n, &r)) || (st = push_gen(L, L->t->n_devs)))
        return st;
    char id[ID_BUF];
    for (int k = 0; k < r.rails; k++)
        for (int g = 0; g < r.groups; g++) {
            snprintf(id, sizeof id, "%s.r%d.leaf%d", r.name, k, g);
            if ((st = add_dev(L, txml_line_of(n), CR_DEV_SWITCH, id, -1, r.leaf_spec, 0)))
                return st;
        }
    int planes = r.shared ? 1 : r.rails;
    for (int k = 0; k < planes; k++)
        for (int s = 0; s < r.spines; s++) {
            if (r.shared)
                snprintf(id, sizeof id, "%s.spine%d", r.name, s);
            else
                snprintf(id, sizeof id, "%s.r%d.spine%d", r.name, k, s);
            if ((st = add_dev(L, txml_line_of(n), CR_DEV_SWITCH, id, -1, r.spine_spec, 0)))
                return st;
        }
    return CR_OK;
}

cr_status txml_pass2(loader *L, xmlNode *root)
{
    cr_status st = CR_OK;
    for (xmlNode *n = root->children; n && !st; n = n->next) {
        if (is_dev_elem(n))
            st = top_devices(L, n);
        else if (n->type == XML_ELEMENT_NODE && txml_is_name(n, "nodes"))
            st = nodes_devices(L, n);
        else if (n->type == XML_ELEMENT_NODE && txml_is_name(n, "torus"))
            st = torus_devices(L, n);
    }
    /* Fabrics last: they join every node, wherever <nodes> stands. */
    for (xmlNode *n = root->children; n && !st; n = n->next)
        if (n->type == XML_ELEMENT_NODE && txml_is_name(n, "rail-fabric"))
            st = rail_devices(L, n);
    return st;
}

/* ---------------------------------------------------------------------- */
/* Pass 3: links                                                           */

/* A network link faster than its NIC's port (<nic port-bw>) in either
 * direction is a drawing error: the port is what the NIC can put on the
 * wire. */
static cr_status check_port(loader *L, int line, int nic, int other, const struct lattr *la)
{
    const cr_dev *d = &L->t->devs[nic];
    double fastest_Bps = la->count * (la->ab > la->ba ? la->ab : la->ba);
    if (d->kind != CR_DEV_NIC || d->port_Bps <= 0 || !cr_route_network(la->kind) ||
        fastest_Bps <= d->port_Bps * (1 + 1e-9))
        return CR_OK;
    return txml_fail_at(L, line, CR_EINVAL,
                        "the %s link between \"%s\" and \"%s\" carries %.4g GB/s a direction, "
                        "more than the NIC's port-bw of %.4g GB/s (line %d): give the link at "
                        "most the port's speed, or the NIC its real port-bw",
                        cr_link_kind_name(la->kind), d->id, L->t->devs[other].id, fastest_Bps / 1e9,
                        d->port_Bps / 1e9, L->dev_line[nic]);
}

static cr_status add_link(loader *L, int line, int a, int b, const struct lattr *la)
{
    cr_status st;
    if ((st = check_port(L, line, a, b, la)) || (st = check_port(L, line, b, a, la)))
        return st;
    if (L->t->n_links >= MAX_LINKS)
        return txml_fail_at(L, line, CR_ERANGE, "more than %d links: the file is too large",
                            MAX_LINKS);
    if (cr_grow((void **)&L->link_line, &L->cap_link_line, (size_t)L->t->n_links + 1, sizeof(int)))
        return txml_oom(L);
    int l = cr_topo_add_link(L->t, a, b, la->kind, la->ab, la->ba, la->count, la->lat);
    if (l < 0)
        return txml_oom(L);
    L->link_line[l] = line;
    return CR_OK;
}

static cr_status top_link(loader *L, xmlNode *n)
{
    struct lattr la;
    cr_status st;
    if ((st = get_link_attrs(L, n, &la)))
        return st;
    struct link_ends e;
    if ((st = link_ends_get(L, n, &e)))
        return st;
    for (int i = 0; i < e.np && !st; i++) {
        const char *ea = e.a[e.na == 1 ? 0 : i], *eb = e.b[e.nb == 1 ? 0 : i];
        int a = cr_topo_find_dev(L->t, ea), b = cr_topo_find_dev(L->t, eb);
        if (a < 0 || b < 0)
            st = FAIL(L, n, CR_ENOTFOUND,
                      "<link> %s: no device \"%s\": declare it or correct the id",
                      a < 0 ? "a" : "b", a < 0 ? ea : eb);
        else if (a == b)
            st = FAIL(L, n, CR_EINVAL,
                      "<link> joins \"%s\" to itself: a link joins two different devices", ea);
        else
            st = add_link(L, txml_line_of(n), a, b, &la);
    }
    link_ends_free(&e);
    return st;
}

struct id_ent {
    const char *id;
    int v;
};

static int cmp_id_ent(const void *pa, const void *pb)
{
    const struct id_ent *a = pa, *b = pb;
    int c = strcmp(a->id, b->id);
    return c ? c : (a->v > b->v) - (a->v < b->v);
}

static int cmp_dev(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return (a > b) - (a < b);
}

/* The devices whose id matches glob g, in device order, into out (room:
 * every device); returns how many, or -1 out of memory. Only ids that
 * begin with g's literal prefix (up to its first *, ?, [ or \) can match,
 * and in id order they are one run: found by bisection in L->id_sorted,
 * built at the first pattern. `topo gen nvl --racks 512` writes a pattern
 * a rack: a scan of the 105,000 devices for each took 1 s of the load. */
static int glob_devices(loader *L, const char *g, int *out)
{
    int nd = L->t->n_devs, n = 0;
    size_t k = strcspn(g, "*?[\\");
    if (k == 0) {
        for (int v = 0; v < nd; v++)
            if (fnmatch(g, L->t->devs[v].id, 0) == 0)
                out[n++] = v;
        return n;
    }
    if (L->n_id_sorted != nd) {
        struct id_ent *e = realloc(L->id_sorted, ((size_t)nd + 1) * sizeof *e);
        if (!e)
            return -1;
        for (int v = 0; v < nd; v++)
            e[v] = (struct id_ent){L->t->devs[v].id, v};
        qsort(e, (size_t)nd, sizeof *e, cmp_id_ent);
        L->id_sorted = e;
        L->n_id_sorted = nd;
    }
    const struct id_ent *e = L->id_sorted;
    int lo = 0, hi = nd;
    while (lo < hi) { /* first id not below the prefix */
        int mid = lo + (hi - lo) / 2;
        if (strncmp(e[mid].id, g, k) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    int first = lo;
    hi = nd;
    while (lo < hi) { /* first id above it */
        int mid = lo + (hi - lo) / 2;
        if (strncmp(e[mid].id, g, k) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int i = first; i < lo; i++)
        if (fnmatch(g, e[i].id, 0) == 0)
            out[n++] = e[i].v;
    qsort(out, (size_t)n, sizeof *out, cmp_dev);
    return n;
}

static cr_status top_pattern(loader *L, xmlNode *n)
{
    struct lattr la;
    cr_status st;
    if ((st = get_link_attrs(L, n, &la)))
        return st;
    const char *ga = txml_get(L, n, "a"), *gb = txml_get(L, n, "b");
    int nd = L->t->n_devs;
    char *in = calloc((size_t)nd + 1, 1); /* bit 1: matches a, bit 2: matches b */
    int *as = malloc(((size_t)nd + 1) * sizeof *as), *bs = malloc(((size_t)nd + 1) * sizeof *bs);
    int na = 0, nb = 0, found = 0;
    if (!in || !as || !bs) {
        st = txml_oom(L);
        goto out;
    }
    na = glob_devices(L, ga, as);
    nb = na < 0 ? -1 : glob_devices(L, gb, bs);
    if (na < 0 || nb < 0) {
        st = txml_oom(L);
        goto out;
    }
    for (int i = 0; i < na; i++)
        in[as[i]] |= 1;
    for (int i = 0; i < nb; i++)
        in[bs[i]] |= 2;
    for (int i = 0; i < na && !st; i++)
        for (int j = 0; j < nb && !st; j++) {
            int x = as[i], y = bs[j];
            if (x == y || (in[x] == 3 && in[y] == 3 && y < x))
                continue;
            st = add_link(L, txml_line_of(n), x, y, &la);
            found++;
        }
    if (!st && !found)
        st = FAIL(L, n, CR_EINVAL, "<link-pattern> a=\"%s\" b=\"%s\" matches no pair of devices",
                  ga, gb);
out:
    free(in);
    free(as);
    free(bs);
    return st;
}

static cr_status nodes_links(loader *L, xmlNode *n, int *node)
{
    struct tmpl *tp = txml_find_tmpl(L, txml_get(L, n, "template"));
    int count;
    cr_status st;
    if ((st = txml_get_int(L, n, "count", 1, MAX_EXPAND, 1, &count)))
        return st;
    for (int i = 0; i < count; i++, (*node)++) {
        int base = L->node_base[*node];
        for (int j = 0; j < tp->n_links; j++) {
            const struct tlink *k = &tp->links[j];
            struct lattr la = {k->kind, k->ab, k->ba, k->lat, k->count};
            if ((st = add_link(L, k->line, base + k->a, base + k->b, &la)))
                return st;
        }
    }
    return CR_OK;
}

static cr_status torus_links(loader *L, xmlNode *n, int base)
{
    int dim[4], nd, total;
    struct lattr la;
    cr_status st;
    if ((st = torus_dims(L, n, dim, &nd, &total)) || (st = get_link_attrs(L, n, &la)))
        return st;
    bool wrap = true;
    if (txml_get(L, n, "wrap") && (st = txml_get_bool(L, n, "wrap", &wrap)))
        return st;
    for (int i = 0; i < total; i++) {
        int stride = 1;
        for (int d = nd - 1; d >= 0; stride *= dim[d], d--) {
            int c = (i / stride) % dim[d], s = dim[d];
            struct lattr l2 = la;
            int j;
            if (s == 1)
                continue;
            if (s == 2) {
                if (c != 0)
                    continue;
                j = i + stride;
                if (wrap)
                    l2.count = la.count * 2; /* both neighbours are the same chip */
            } else if (c < s - 1) {
                j = i + stride;
            } else if (wrap) {
                j = i - c * stride;
            } else {
                continue;
            }
            if ((st = add_link(L, txml_line_of(n), base + i, base + j, &l2)))
                return st;
        }
    }
    return CR_OK;
}

static cr_status rail_links(loader *L, xmlNode *n, int base)
{
    struct rail r;
    cr_status st;
    if ((st = rail_read(L, n, &r)))
        return st;
    struct lattr down = {r.kind, r.nic_bw, r.nic_bw, r.lat, 1};
    struct lattr up = {r.kind, r.up_bw, r.up_bw, r.lat, r.uplinks};
    const char *mark = strstr(r.nic, "{rail}");
    for (int k = 0; k < L->n_nodes; k++)
        for (int rl = 0; rl < r.rails; rl++) {
            char id[ID_BUF];
            if (mark)
                snprintf(id, sizeof id, "%s%.*s%d%s", L->node_prefix[k], (int)(mark - r.nic), r.nic,
                         rl, mark + 6);
            else
                snprintf(id, sizeof id, "%s%s", L->node_prefix[k], r.nic);
            int v = cr_topo_find_dev(L->t, id);
            if (v < 0)
                return FAIL(L, n, CR_ENOTFOUND,
                            "<rail-fabric> nic=\"%s\": node %d has no device \"%s\": every node "
                            "needs one NIC per rail",
                            r.nic, k, id);
            int leaf = base + rl * r.groups + k / r.npl;
            if ((st = add_link(L, txml_line_of(n), v, leaf, &down)))
                return st;
        }
    int spine0 = base + r.rails * r.groups;
    for (int rl = 0; rl < r.rails; rl++)
        for (int g = 0; g < r.groups; g++)
            for (int s = 0; s < r.spines; s++) {
                int spine = spine0 + (r.shared ? 0 : rl * r.spines) + s;
                if ((st = add_link(L, txml_line_of(n), base + rl * r.groups + g, spine, &up)))
                    return st;
            }
    return CR_OK;
}

cr_status txml_pass3(loader *L, xmlNode *root)
{
    cr_status st = CR_OK;
    int node = 0, gen = 0;
    for (xmlNode *n = root->children; n && !st; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (txml_is_name(n, "link"))
            st = top_link(L, n);
        else if (txml_is_name(n, "link-pattern"))
            st = top_pattern(L, n);
        else if (txml_is_name(n, "nodes"))
            st = nodes_links(L, n, &node);
        else if (txml_is_name(n, "torus"))
            st = torus_links(L, n, L->gen_base[gen++]);
    }
    for (xmlNode *n = root->children; n && !st; n = n->next)
        if (n->type == XML_ELEMENT_NODE && txml_is_name(n, "rail-fabric"))
            st = rail_links(L, n, L->gen_base[gen++]);
    return st;
}
