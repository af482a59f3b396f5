/* SPDX-License-Identifier: MIT */
/*
 * NCCL topology dump import (see nccl_import.h for the mapping).
 *
 * Two passes: the XML tree is walked into small tables (CPUs, PCI elements,
 * GPUs, NVLink entries, NICs) with the line of every element, then the
 * commroof graph is built from the tables, GPUs first in rank order so that
 * commroof's GPU numbering follows NCCL's ranks. The format follows NCCL's
 * reader, ncclTopoGetSystemFromXml() and friends in NVIDIA/nccl
 * src/graph/topo.cc, and its writer in src/graph/xml.cc (checked against the
 * master branch of 2026-06).
 */
#include "sbuf.h"
#include "nccl_import.h"
#include "nccl_import_priv.h"

#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "gpu_catalog.h"
#include "grow.h"
#include "xml_safe.h"

/* How size and file messages name the format ("... for an NCCL dump file"). */
#define DUMP_WHAT "an NCCL dump"

/* NCCL's MAX_STR_LEN (src/graph/xml.h): no attribute it writes is longer. */
#define ATTR_MAX 255
/* NCCL writes this target for an NVLink whose far end NVML cannot name (an
 * empty or unprintable remote bus id), src/graph/xml.cc. */
#define HIDDEN_NVS_BUSID "fffffff:ffff:ff"
/* What NVML itself reports, and NCCL copies, for an NVSwitch the host cannot
 * see ("FFFFFFFF:FF:FF.0" in nvidia-smi nvlink -R): inside a VM or container
 * (the H200 dump in traces/nvidia-h200-x2), on HGX B200 and on the compute
 * trays of GB200/GB300 NVL72, where the switch chips sit in switch trays. */
#define NVML_HIDDEN_NVS_BUSID "fffffff:ff:ff.0"

/* An NVLink target standing for the switch fabric rather than one visible
 * switch chip. NCCL joins every NVSwitch-class target of every host of the
 * dump to one NVS node (ncclTopoAddNvLinks, src/graph/topo.cc), so such a
 * target is one switch shared by all hosts: per-host copies would cut an
 * MNNVL domain into islands joined only by the NICs. */
static bool is_hidden_nvs(const char *target)
{
    return strcasecmp(target, HIDDEN_NVS_BUSID) == 0 ||
           strcasecmp(target, NVML_HIDDEN_NVS_BUSID) == 0 ||
           strcasecmp(target, "ffffffff:ff:ff.0") == 0;
}

enum pci_kind { PCI_BRIDGE, PCI_GPU, PCI_NIC, PCI_OTHER };

struct cpu_rec {
    int numaid, line, dev;
    int host; /* index of its host_hash among the dump's hosts */
    char vendor[ATTR_MAX + 1], arch[ATTR_MAX + 1];
    int familyid, modelid;
};

struct pci_rec {
    char busid[ATTR_MAX + 1];
    unsigned cls, vendor, device, subsys_device;
    double bw_Bps;    /* link to the parent, per direction */
    double lane_Bps;  /* one lane of that link (bw_Bps / its width) */
    double below_Bps; /* sum of the links of the elements right below it */
    int parent;       /* pci index, -1 when directly under the CPU */
    int cpu;          /* cpu index */
    enum pci_kind kind;
    int line, needed, dev;
    bool gpu_elem; /* holds a <gpu>, with a rank or not */
    bool emulated; /* its own link says 2.5 GT/s x1: a VM's emulated port */
};

struct gpu_rec {
    int rank, cudadev, sm, pci, line, dev, orig;
    bool amd;     /* an RCCL dump's GPU (gcn attribute): sm is its CU count */
    char gcn[32]; /* its gcn attribute ("gfx942"), for messages */
    const cr_gpu_catalog_entry *e;
};

struct nvl_rec {
    int gpu, count, line;
    bool xgmi; /* RCCL's <xgmi> (AMD Infinity Fabric) rather than <nvlink> */
    char target[ATTR_MAX + 1];
    char tclass[ATTR_MAX + 1];
};

struct c2c_rec {
    int gpu, count, line;
    double bw_Bps;
};

struct nic_rec {
    int pci, cpu, line, dev, ports;
    char name[ATTR_MAX + 1];
    double port_Bps[16];
    long port_dev[16]; /* each port's dev attribute */
    int n_port_bw;
    bool ib;
};

struct ctx {
    const char *origin;
    cr_diag *d;
    cr_status attr_st; /* why get_attr returned -1: CR_EPARSE unless out of memory */
    struct cpu_rec *cpus;
    int n_cpus;
    size_t cap_cpus;
    struct pci_rec *pcis;
    int n_pcis;
    size_t cap_pcis;
    struct gpu_rec *gpus;
    int n_gpus;
    size_t cap_gpus;
    struct nvl_rec *nvls;
    int n_nvls;
    size_t cap_nvls;
    struct c2c_rec *c2cs;
    int n_c2cs;
    size_t cap_c2cs;
    struct nic_rec *nics;
    int n_nics;
    size_t cap_nics;
    /* host_hash values in order of first appearance: one per host in a
     * dump that spans an NVLink domain of several hosts (MNNVL). */
    char (*hosts)[ATTR_MAX + 1];
    int n_hosts;
    size_t cap_hosts;
    /* add_link looks for a bundle to merge with among links scan_from..;
     * PCIe, NIC and socket links are unique by construction (INT_MAX: no
     * search), NVLink and C2C entries may repeat a pair. */
    int scan_from;
    /* NVLink (or RCCL xGMI) entries to a GPU the dump does not hold (not
     * imported; the description says so): how many, and the first one's
     * line and target; whether they are xGMI */
    int n_nvl_out, nvl_out_line;
    bool nvl_out_xgmi;
    char nvl_out_target[ATTR_MAX + 1];
    /* NIC ports that report no speed (left out; the description says so) */
    int n_net_out, net_out_line;
    char net_out_name[ATTR_MAX + 1];
    /* PCIe ports reporting 2.5 GT/s x1 above faster devices (a VM's
     * emulated ports): how many, and the first one's line */
    int n_emulated, emulated_line;
    /* PCIe links with no usable speed of their own ("Unknown", or empty
     * under an emulated port) that take the device's figure instead */
    int n_nospeed, nospeed_line;
};

/* Grows *arr to hold one more element; returns the new element's index or
 * -1 when allocation fails. */
static int push(void **arr, int *n, size_t *cap, size_t elem)
{
    if (cr_grow(arr, cap, (size_t)*n + 1, elem))
        return -1;
    memset((char *)*arr + (size_t)*n * elem, 0, elem);
    return (*n)++;
}

/* Element counts far above any real dump (an NVL576 domain has 576 GPUs):
 * they bound the work an adversarial 16 MiB file can cause, since links are
 * merged by linear search. */
#define MAX_GPUS 4096
#define MAX_PCIS 16384
#define MAX_NICS 4096
#define MAX_CPUS 1024
#define MAX_NVLS 16384

#define PUSH(c, what)                                                                              \
    push((void **)&(c)->what##s, &(c)->n_##what##s, &(c)->cap_##what##s, sizeof *(c)->what##s)

static int line_of(const xmlNode *n)
{
    long l = xmlGetLineNo(n);
    return l > 0 && l < INT_MAX ? (int)l : 0;
}

/* Copies attribute name of n into buf (size ATTR_MAX + 1). Returns 1 when
 * present, 0 when absent, -1 when too long or out of memory (c->d, c->attr_st). */
static int get_attr(struct ctx *c, const xmlNode *n, const char *name, char *buf)
{
    bool oom = false;
    xmlChar *v = cr_xml_prop(n, name, false, &oom);
    if (oom) { /* not copied: no attribute NCCL left out */
        c->attr_st = cr_diag_set(c->d, CR_ENOMEM, "%s: out of memory", c->origin);
        return -1;
    }
    if (!v)
        return 0;
    size_t len = strlen((const char *)v);
    if (len > ATTR_MAX) {
        xmlFree(v);
        cr_diag_set(c->d, CR_EPARSE,
                    "%s:%d: attribute %s of <%s> is %zu characters long; NCCL writes at most %d",
                    c->origin, line_of(n), name, (const char *)n->name, len, ATTR_MAX);
        return -1;
    }
    memcpy(buf, v, len + 1);
    xmlFree(v);
    return 1;
}

static cr_status missing(struct ctx *c, const xmlNode *n, const char *name, const char *example)
{
    return cr_diag_set(c->d, CR_EPARSE,
                       "%s:%d: <%s> has no %s attribute: NCCL writes one (e.g. %s)", c->origin,
                       line_of(n), (const char *)n->name, name, example);
}

/* Integer attribute (decimal, or hex with 0x when hex_ok). present may be
 * NULL (then the attribute is required). */
static cr_status get_int(struct ctx *c, const xmlNode *n, const char *name, const char *example,
                         long lo, long hi, long *out, bool *present)
{
    char buf[ATTR_MAX + 1];
    int r = get_attr(c, n, name, buf);
    if (r < 0)
        return c->attr_st;
    if (r == 0) {
        if (present) {
            *present = false;
            return CR_OK;
        }
        return missing(c, n, name, example);
    }
    if (present)
        *present = true;
    char *end = NULL;
    errno = 0;
    long v = strtol(buf, &end, 0);
    if (end == buf || *end != '\0' || errno || v < lo || v > hi)
        return cr_diag_set(
            c->d, CR_EPARSE, "%s:%d: %s=\"%s\" of <%s> is not an integer from %ld to %ld (e.g. %s)",
            c->origin, line_of(n), name, buf, (const char *)n->name, lo, hi, example);
    *out = v;
    return CR_OK;
}

cr_status cr_nccl_pcie_lane_Bps(const char *link_speed, double *out)
{
    if (!link_speed)
        return CR_EINVAL;
    /* sysfs writes "32.0 GT/s PCIe" (kernel 5.7+) or "32 GT/s"; NCCL copies
     * it (src/graph/xml.cc) and knows the same list (kvDictPciGen). */
    static const struct {
        double gts, eff;
    } rates[] = {
        {2.5, 8.0 / 10.0},    /* PCIe 1.x: 8b/10b (PCI-SIG base spec 1.1) */
        {5.0, 8.0 / 10.0},    /* PCIe 2.x: 8b/10b */
        {8.0, 128.0 / 130.0}, /* PCIe 3.x: 128b/130b (PCI-SIG base spec 3.0) */
        {16.0, 128.0 / 130.0}, {32.0, 128.0 / 130.0},
        {64.0, 242.0 / 256.0}, /* PCIe 6.0 FLIT mode: 242 of 256 bytes carry TLP+DLLP */
    };
    char *end = NULL;
    errno = 0;
    double g = cr_strtod_c(link_speed, &end);
    if (end == link_speed || errno)
        return CR_EPARSE;
    while (*end == ' ')
        end++;
    if (strncmp(end, "GT/s", 4) != 0)
        return CR_EPARSE;
    end += 4;
    if (*end == ' ')
        end++;
    if (*end != '\0' && strcmp(end, "PCIe") != 0)
        return CR_EPARSE;
    for (size_t i = 0; i < sizeof rates / sizeof rates[0]; i++)
        if (g == rates[i].gts) {
            /* one transfer carries one bit per lane */
            *out = rates[i].gts * 1e9 * rates[i].eff / 8.0;
            return CR_OK;
        }
    return CR_EPARSE;
}

static bool is_blank_text(const xmlNode *n)
{
    if (n->type == XML_COMMENT_NODE || n->type == XML_PI_NODE)
        return true;
    if (n->type != XML_TEXT_NODE && n->type != XML_CDATA_SECTION_NODE)
        return false;
    for (const xmlChar *p = n->content; p && *p; p++)
        if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
            return false;
    return true;
}

/* Every attribute of an element, read or not, is at most ATTR_MAX long. */
static cr_status check_attrs(struct ctx *c, const xmlNode *n)
{
    for (const xmlAttr *a = n->properties; a; a = a->next) {
        char buf[ATTR_MAX + 1];
        if (get_attr(c, n, (const char *)a->name, buf) < 0)
            return c->attr_st;
    }
    return CR_OK;
}

/* Anything that is neither an element nor blank text is an error. */
static cr_status check_child(struct ctx *c, const xmlNode *parent, const xmlNode *n)
{
    if (n->type == XML_ELEMENT_NODE)
        return check_attrs(c, n);
    if (is_blank_text(n))
        return CR_OK;
    return cr_diag_set(c->d, CR_EPARSE,
                       "%s:%d: unexpected text inside <%s>: an NCCL dump holds only elements",
                       c->origin, line_of(n), (const char *)parent->name);
}

static cr_status unknown_elem(struct ctx *c, const xmlNode *n, const xmlNode *parent,
                              const char *allowed)
{
    return cr_diag_set(
        c->d, CR_EPARSE, "%s:%d: unknown element <%s> inside <%s>: NCCL dumps have %s there",
        c->origin, line_of(n), (const char *)n->name, (const char *)parent->name, allowed);
}

static bool named(const xmlNode *n, const char *name)
{
    return strcmp((const char *)n->name, name) == 0;
}

static cr_status bad_busid(struct ctx *c, const xmlNode *n, const char *attr, const char *v)
{
    return cr_diag_set(c->d, CR_EPARSE,
                       "%s:%d: %s=\"%s\" is not a PCI bus id: expected e.g. \"0000:05:00.0\"",
                       c->origin, line_of(n), attr, v);
}

/* Port names become device ids: keep letters, digits and . _ - ; anything
 * else becomes '_' (a clash is then reported as a duplicate name). */
static void sanitize_name(char *s)
{
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '.' || *s == '_' || *s == '-'))
            *s = '_';
}

static cr_status too_many(struct ctx *c, const xmlNode *n, int max)
{
    return cr_diag_set(c->d, CR_ERANGE,
                       "%s:%d: more than %d <%s> elements: no NCCL dump is that large", c->origin,
                       line_of(n), max, (const char *)n->name);
}

static cr_status walk_nic(struct ctx *c, const xmlNode *n, int pci, int cpu, bool ib)
{
    if (c->n_nics >= MAX_NICS)
        return too_many(c, n, MAX_NICS);
    int i = PUSH(c, nic);
    if (i < 0)
        return CR_ENOMEM;
    struct nic_rec *nic = &c->nics[i];
    nic->pci = pci;
    nic->cpu = cpu;
    nic->line = line_of(n);
    nic->ib = ib;
    for (const xmlNode *k = n->children; k; k = k->next) {
        cr_status st = check_child(c, n, k);
        if (st)
            return st;
        if (k->type != XML_ELEMENT_NODE)
            continue;
        /* gin / rma: GPU-initiated and RMA views of the same ports (recent
         * NCCL); they add no bandwidth. */
        if (named(k, "gin") || named(k, "rma"))
            continue;
        if (!named(k, "net"))
            return unknown_elem(c, k, n, "<net>");
        long dev, mbps = 0, enabled = 1;
        bool has_dev, has_speed, has_net;
        if ((st = get_int(c, k, "dev", "dev=\"0\"", 0, 1 << 20, &dev, &has_dev)) ||
            (st = get_int(c, k, "speed", "speed=\"400000\" (Mb/s)", -1, 1L << 30, &mbps,
                          &has_speed)) ||
            (st = get_int(c, k, "net", "net=\"1\"", 0, 1, &enabled, &has_net)))
            return st;
        (void)has_net;
        /* NCCL ignores <net> without dev and ports fused into a virtual NIC
         * (net="0"), ncclTopoAddNic(). */
        if (!has_dev || !enabled)
            continue;
        char name[ATTR_MAX + 1];
        int r = get_attr(c, k, "name", name);
        if (r < 0)
            return c->attr_st;
        /* Mb/s in the dump. NCCL takes 10 Gb/s when a port reports none or
         * -1 (ncclTopoAddNet, src/graph/topo.cc) for its tuning; a bound
         * from that guess would be up to 40x too high for a 400G port (an
         * audit found it taken silently), so such a port is left out and
         * the description says so. */
        if (!has_speed || mbps <= 0) {
            if (c->n_net_out++ == 0) {
                c->net_out_line = line_of(k);
                cr_str_copy(c->net_out_name, sizeof c->net_out_name, r == 1 ? name : "?");
            }
            continue;
        }
        if (nic->ports == 0) {
            if (r == 1)
                cr_str_copy(nic->name, sizeof nic->name, name);
            else
                snprintf(nic->name, sizeof nic->name, "net%ld", dev);
            sanitize_name(nic->name);
        }
        if (nic->ports >= (int)(sizeof nic->port_Bps / sizeof nic->port_Bps[0]))
            return cr_diag_set(c->d, CR_ERANGE, "%s:%d: more than 16 <net> ports in one <nic>",
                               c->origin, line_of(k));
        /* a port slower than any topology link may be (1MB/s, topo.h) is
         * refused here, where the line is known */
        if ((double)mbps * 1e6 / 8.0 < CR_TOPO_MIN_BPS)
            return cr_diag_set(c->d, CR_ERANGE,
                               "%s:%d: <net> speed=\"%ld\" is %ld Mb/s, under the 8 Mb/s (1MB/s) "
                               "a link needs: NCCL writes Mb/s (speed=\"400000\" for 400 Gb/s)",
                               c->origin, line_of(k), mbps, mbps);
        nic->port_dev[nic->ports] = dev;
        nic->port_Bps[nic->ports++] = (double)mbps * 1e6 / 8.0;
    }
    return CR_OK;
}

static cr_status walk_gpu(struct ctx *c, const xmlNode *n, int pci)
{
    long rank, dev, sm;
    bool has_rank;
    cr_status st;
    if ((st = get_int(c, n, "rank", "rank=\"0\"", 0, INT_MAX, &rank, &has_rank)))
        return st;
    /* A GPU without rank is not part of the communicator: NCCL skips it
     * (ncclTopoAddPci). */
    if (!has_rank)
        return CR_OK;
    if ((st = get_int(c, n, "dev", "dev=\"0\"", 0, 1 << 16, &dev, NULL)) ||
        (st = get_int(c, n, "sm", "sm=\"90\"", 10, 1000, &sm, NULL)))
        return st;
    if (c->n_gpus >= MAX_GPUS)
        return too_many(c, n, MAX_GPUS);
    int g = PUSH(c, gpu);
    if (g < 0)
        return CR_ENOMEM;
    c->gpus[g].rank = (int)rank;
    c->gpus[g].cudadev = (int)dev;
    c->gpus[g].sm = (int)sm;
    c->gpus[g].pci = pci;
    c->gpus[g].line = line_of(n);
    /* RCCL (ROCm/rccl src/graph/xml.cc) writes gcn="gfx942" and reuses sm
     * for the CU count (304 on an MI300X); so does a PCI vendor of AMD. */
    char gcn[ATTR_MAX + 1];
    int ga = get_attr(c, n, "gcn", gcn);
    if (ga < 0)
        return c->attr_st;
    c->gpus[g].amd = ga == 1 || (pci >= 0 && c->pcis[pci].vendor == 0x1002);
    cr_str_copy(c->gpus[g].gcn, sizeof c->gpus[g].gcn, ga == 1 ? gcn : "?");
    /* From NCCL 2.30.7 a dump gives a GPU's current PCIe link, not its
     * maximum (src/graph/xml.cc: ncclNvmlDeviceGetCurrPcieLinkGeneration),
     * and an idle GPU trains down (2.5 GT/s on a GB10 dump, NVIDIA/nccl
     * PR 2202): a bound needs the link's peak, so a GPU of sm 80-89 has at
     * least PCIe Gen4 x16 and one of sm 90 on Gen5 x16 (the A100, L40S, H100,
     * H200 and B200 datasheets' host interfaces), at most the lane rate
     * of the switch port above it (a bridge's speed is its maximum); a
     * board in a narrower slot only makes the bound weaker, never too high */
    if (pci >= 0 && sm >= 80 && !c->gpus[g].amd) {
        double lane = (sm >= 90 ? 32e9 : 16e9) * 128.0 / 130.0 / 8.0; /* GT/s a lane, 128b/130b */
        int up = c->pcis[pci].parent;
        if (up >= 0 && c->pcis[up].lane_Bps > 0 && !c->pcis[up].emulated)
            lane = fmin(lane, c->pcis[up].lane_Bps);
        c->pcis[pci].bw_Bps = fmax(c->pcis[pci].bw_Bps, lane * 16);
    }
    for (const xmlNode *k = n->children; k; k = k->next) {
        if ((st = check_child(c, n, k)))
            return st;
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (named(k, "nvlink") || named(k, "xgmi")) {
            long count;
            if ((st = get_int(c, k, "count", "count=\"18\"", 1, 64, &count, NULL)))
                return st;
            if (c->n_nvls >= MAX_NVLS)
                return too_many(c, k, MAX_NVLS);
            int i = PUSH(c, nvl);
            if (i < 0)
                return CR_ENOMEM;
            struct nvl_rec *v = &c->nvls[i];
            v->gpu = g;
            v->count = (int)count;
            v->line = line_of(k);
            v->xgmi = named(k, "xgmi");
            char buf[ATTR_MAX + 1];
            int r = get_attr(c, k, "target", buf);
            if (r < 0)
                return c->attr_st;
            if (r == 0)
                return missing(c, k, "target", "target=\"0000:05:00.0\"");
            if (!cr_nccl_is_busid(buf) && !is_hidden_nvs(buf))
                return bad_busid(c, k, "target", buf);
            cr_str_copy(v->target, sizeof v->target, buf);
            r = get_attr(c, k, "tclass", buf);
            if (r < 0)
                return c->attr_st;
            if (r == 0)
                return missing(c, k, "tclass", "tclass=\"0x068000\"");
            cr_str_copy(v->tclass, sizeof v->tclass, buf);
        } else if (named(k, "c2c")) {
            long count, bw;
            if ((st = get_int(c, k, "count", "count=\"10\"", 1, 64, &count, NULL)) ||
                (st = get_int(c, k, "bw", "bw=\"45000\" (MB/s per link)", 1, 100000000, &bw, NULL)))
                return st;
            if (c->n_c2cs >= MAX_GPUS)
                return too_many(c, k, MAX_GPUS);
            int i = PUSH(c, c2c);
            if (i < 0)
                return CR_ENOMEM;
            c->c2cs[i].gpu = g;
            c->c2cs[i].count = (int)count;
            /* MB/s per link: NCCL computes GB/s as bw x count / 1000
             * (ncclTopoAddC2c, src/graph/topo.cc). */
            c->c2cs[i].bw_Bps = (double)bw * 1e6;
            c->c2cs[i].line = line_of(k);
        } else {
            return unknown_elem(c, k, n, "<nvlink> and <c2c> (RCCL: <xgmi>)");
        }
    }
    return CR_OK;
}

static cr_status walk_pci(struct ctx *c, const xmlNode *n, int parent, int cpu)
{
    char buf[ATTR_MAX + 1];
    cr_status st;
    if (c->n_pcis >= MAX_PCIS)
        return too_many(c, n, MAX_PCIS);
    int p = PUSH(c, pci);
    if (p < 0)
        return CR_ENOMEM;
    struct pci_rec *r = &c->pcis[p];
    r->parent = parent;
    r->cpu = cpu;
    r->line = line_of(n);
    r->dev = -1;
    int a = get_attr(c, n, "busid", buf);
    if (a < 0)
        return c->attr_st;
    if (a == 0)
        return missing(c, n, "busid", "busid=\"0000:05:00.0\"");
    if (!cr_nccl_is_busid(buf))
        return bad_busid(c, n, "busid", buf);
    cr_str_copy(r->busid, sizeof r->busid, buf);
    long cls, vendor = 0, device = 0, subsys = 0, width = 0;
    bool has_vendor, has_dev, has_subsys, has_width;
    if ((st = get_int(c, n, "class", "class=\"0x060400\"", 0, 0xffffff, &cls, NULL)) ||
        (st = get_int(c, n, "vendor", "vendor=\"0x10de\"", 0, 0xffff, &vendor, &has_vendor)) ||
        (st = get_int(c, n, "device", "device=\"0x2335\"", 0, 0xffff, &device, &has_dev)) ||
        (st = get_int(c, n, "subsystem_device", "subsystem_device=\"0x18be\"", 0, 0xffff, &subsys,
                      &has_subsys)) ||
        (st = get_int(c, n, "link_width", "link_width=\"16\"", 0, 32, &width, &has_width)))
        return st;
    r = &c->pcis[p];
    r->cls = (unsigned)cls;
    r->vendor = (unsigned)vendor;
    r->device = (unsigned)device;
    r->subsys_device = (unsigned)subsys;
    /* NCCL (ncclTopoAddPci) takes width 0 as x16; a missing or empty speed
     * (older kernels, VMs) inherits the parent's, as the device cannot be
     * faster than the port above it. */
    /* A port saying 2.5 GT/s x1 (a VM's emulated port, below) hands
     * nothing down: its figure says nothing about the hardware behind it. */
    bool parent_emulated = parent >= 0 && c->pcis[parent].emulated;
    double parent_lane = parent >= 0 && !parent_emulated ? c->pcis[parent].lane_Bps : 0.0;
    int w = (int)width ? (int)width : 16;
    a = get_attr(c, n, "link_speed", buf);
    if (a < 0)
        return c->attr_st;
    /* sysfs writes "Unknown" (kernel 5.7+) or "Unknown speed" when the
     * device does not report its link (virtual functions, devices behind
     * emulated ports in VMs); NCCL copies it and takes its default
     * (kvDictPciGen): as good as no speed at all. */
    bool unknown =
        a == 1 && (strcasecmp(buf, "Unknown") == 0 || strcasecmp(buf, "Unknown speed") == 0);
    double lane = 0.0;
    if (a == 1 && buf[0] != '\0' && !unknown) {
        if (cr_nccl_pcie_lane_Bps(buf, &lane) != CR_OK)
            return cr_diag_set(c->d, CR_EPARSE,
                               "%s:%d: link_speed=\"%s\" is not a PCIe rate: expected 2.5, 5, 8, "
                               "16, 32 or 64 GT/s, e.g. \"32.0 GT/s PCIe\"",
                               c->origin, line_of(n), buf);
        r->bw_Bps = lane * w;
        r->lane_Bps = lane;
    } else if (parent >= 0 && parent_lane > 0.0) {
        /* the parent's lane rate, whatever its width */
        r->bw_Bps = parent_lane * w;
        r->lane_Bps = parent_lane;
    }
    /* No speed and no parent (an Azure NC A100 v4 VM writes link_speed=""
     * link_width="0" for GPUs right under the CPU): a GPU of known
     * generation takes its datasheet interface below (walk_gpu); anything
     * else is refused once its children are read. */
    unsigned base = r->cls >> 16, sub = (r->cls >> 8) & 0xff;
    r->kind = base == 0x06 && sub == 0x04 ? PCI_BRIDGE
              : base == 0x03              ? PCI_GPU
              : base == 0x02              ? PCI_NIC
                                          : PCI_OTHER;
    bool ib = base == 0x02 && sub == 0x07; /* PCI class 0x0207: InfiniBand controller */
    /* 2.5 GT/s x1 on a bridge: QEMU's root and XIO3130 ports (see the end
     * of this function). A class NCCL does not name is a PCI switch to it
     * (src/graph/topo.cc kvDictPciClass: "Default fallback value" PCI), so
     * such an element with devices below is a bridge here too: taken as
     * it is, a port of class 0x088000 at 2.5 GT/s x1 held the GPU and NIC
     * below it at 250 MB/s to the host (test_unknown_class_bridge). */
    bool bridge = r->kind == PCI_BRIDGE || r->kind == PCI_OTHER;
    r->emulated = bridge && lane > 0.0 && lane <= 2.5e9 * 0.8 / 8.0 && w == 1;
    /* no speed of its own, and none it may take from above */
    bool nospeed = (a == 0 || buf[0] == '\0' || unknown) && (unknown || parent_emulated);
    for (const xmlNode *k = n->children; k; k = k->next) {
        if ((st = check_child(c, n, k)))
            return st;
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (named(k, "pci")) {
            int child = c->n_pcis;
            st = walk_pci(c, k, p, cpu);
            if (!st)
                c->pcis[p].below_Bps += c->pcis[child].bw_Bps;
        } else if (named(k, "gpu")) {
            c->pcis[p].kind = PCI_GPU;
            c->pcis[p].gpu_elem = true;
            st = walk_gpu(c, k, p);
        } else if (named(k, "nic")) {
            c->pcis[p].kind = PCI_NIC; /* NCCL: a <nic> child makes it a NIC */
            st = walk_nic(c, k, p, cpu, ib);
        } else if (named(k, "pcilink")) {
            st = CR_OK; /* Broadcom switch peer links: no bandwidth figure */
        } else {
            st = unknown_elem(c, k, n, "<pci>, <gpu>, <nic> and <pcilink>");
        }
        if (st)
            return st;
    }
    r = &c->pcis[p];
    if (r->bw_Bps <= 0.0 && nospeed) {
        /* No figure of its own and none above: the links below it (a
         * bridge), its ports (a NIC: NCCL rates a NIC by them), or a GPU's
         * datasheet interface (walk_gpu, already applied). */
        double fig = r->below_Bps;
        for (int i = 0; i < c->n_nics; i++)
            if (c->nics[i].pci == p)
                for (int k = 0; k < c->nics[i].ports; k++)
                    fig += c->nics[i].port_Bps[k];
        r->bw_Bps = fig;
    }
    if (nospeed && r->bw_Bps > 0.0 && c->n_nospeed++ == 0)
        c->nospeed_line = r->line;
    if (r->bw_Bps <= 0.0)
        return cr_diag_set(c->d, CR_EPARSE,
                           "%s:%d: <pci busid=\"%s\"> has no link_speed and no parent to take it "
                           "from: give one, e.g. link_speed=\"32.0 GT/s PCIe\"",
                           c->origin, r->line, r->busid);
    /* A port reporting 2.5 GT/s x1 (PCIe 1.0's lowest) above faster devices
     * is a hypervisor's emulated bridge (QEMU's root and XIO3130 ports say
     * so whatever lies behind them: the IBM Cloud H100 VSI dump): its
     * figure says nothing about the hardware, and taken as it is, it made
     * a 1 GiB host-to-device copy on that VSI bound at 4.3 s. It carries
     * what the links below it carry, so it never limits them. */
    if ((r->kind == PCI_BRIDGE || r->kind == PCI_OTHER) && r->lane_Bps > 0.0 &&
        r->bw_Bps == r->lane_Bps && r->lane_Bps <= 2.5e9 * 0.8 / 8.0 && r->below_Bps > r->bw_Bps) {
        r->bw_Bps = r->below_Bps;
        r->lane_Bps = 0.0; /* unknown: nothing below inherits it */
        if (c->n_emulated++ == 0)
            c->emulated_line = r->line;
    }
    return CR_OK;
}

static cr_status walk_cpu(struct ctx *c, const xmlNode *n)
{
    long numaid, fam = 0, model = 0;
    bool hf, hm;
    cr_status st;
    if ((st = get_int(c, n, "numaid", "numaid=\"0\"", -1, 1 << 16, &numaid, NULL)) ||
        (st = get_int(c, n, "familyid", "familyid=\"6\"", 0, 1 << 16, &fam, &hf)) ||
        (st = get_int(c, n, "modelid", "modelid=\"143\"", 0, 1 << 16, &model, &hm)))
        return st;
    char hh[ATTR_MAX + 1];
    int a = get_attr(c, n, "host_hash", hh);
    if (a < 0)
        return c->attr_st;
    if (a == 0)
        hh[0] = '\0';
    int host = 0;
    while (host < c->n_hosts && strcmp(c->hosts[host], hh) != 0)
        host++;
    if (host == c->n_hosts) {
        if (PUSH(c, host) < 0)
            return CR_ENOMEM;
        memcpy(c->hosts[host], hh, sizeof hh);
    }
    for (int i = 0; i < c->n_cpus; i++)
        if (c->cpus[i].host == host && c->cpus[i].numaid == numaid)
            return cr_diag_set(c->d, CR_EPARSE,
                               "%s:%d: a second <cpu numaid=\"%ld\"> (the first is at line %d): "
                               "NUMA ids are unique in one host's dump",
                               c->origin, line_of(n), numaid, c->cpus[i].line);
    if (c->n_cpus >= MAX_CPUS)
        return too_many(c, n, MAX_CPUS);
    int i = PUSH(c, cpu);
    if (i < 0)
        return CR_ENOMEM;
    char buf[ATTR_MAX + 1];
    struct cpu_rec *cp = &c->cpus[i];
    cp->numaid = (int)numaid;
    cp->host = host;
    cp->line = line_of(n);
    cp->familyid = (int)fam;
    cp->modelid = (int)model;
    a = get_attr(c, n, "vendor", buf);
    if (a < 0)
        return c->attr_st;
    cr_str_copy(cp->vendor, sizeof cp->vendor, a ? buf : "");
    a = get_attr(c, n, "arch", buf);
    if (a < 0)
        return c->attr_st;
    cr_str_copy(cp->arch, sizeof cp->arch, a ? buf : "");
    for (const xmlNode *k = n->children; k; k = k->next) {
        if ((st = check_child(c, n, k)))
            return st;
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (named(k, "pci"))
            st = walk_pci(c, k, -1, i);
        else if (named(k, "nic"))
            st = walk_nic(c, k, -1, i, false);
        else
            st = unknown_elem(c, k, n, "<pci> and <nic>");
        if (st)
            return st;
    }
    return CR_OK;
}

/* The vendor NCCL's dump names (its CPUID vendor string; arch "arm64"
 * for Arm), -1 when unstated or another. */
static int cpu_vendor(const struct cpu_rec *cp)
{
    if (strcmp(cp->arch, "arm64") == 0)
        return CR_CPU_ARM;
    if (strcmp(cp->vendor, "GenuineIntel") == 0)
        return CR_CPU_INTEL;
    if (strcmp(cp->vendor, "AuthenticAMD") == 0)
        return CR_CPU_AMD;
    return -1;
}

static int cmp_gpu_rank(const void *x, const void *y)
{
    const struct gpu_rec *a = x, *b = y;
    return (a->rank > b->rank) - (a->rank < b->rank);
}

static bool is_nvswitch(const cr_topo *t, int v)
{
    return t->devs[v].kind == CR_DEV_SWITCH && strstr(t->devs[v].id, "nvswitch.") != NULL;
}

/* NVSwitches fewer GPUs reach than another switch of the same host does:
 * a link NVML reports to such a chip carries nothing to the GPUs it does
 * not reach, so it stays as the dump says (a failed chip is real), and is
 * said with the first such switch, so that a misread or edited dump is
 * caught (QA audit: one GPU's target edited, a fifth switch raised the
 * sendrecv 0-1 bound by 32 % without a word). Appends to desc (size
 * bytes); left as it is when out of memory (a note, not a figure). One
 * pass over the links counts every switch's GPUs, so a dump of many hosts
 * and switches stays linear. */
static void describe_few_reached(const cr_topo *t, char *desc, size_t size)
{
    int *gpus = calloc((size_t)t->n_devs, sizeof *gpus);
    int *most = calloc((size_t)t->n_nodes + 1, sizeof *most); /* by node + 1: -1 shared */
    if (!gpus || !most) {
        free(gpus);
        free(most);
        return;
    }
    for (int i = 0; i < t->n_links; i++) {
        const cr_link *l = &t->links[i];
        if (t->devs[l->a].kind == CR_DEV_GPU && is_nvswitch(t, l->b))
            gpus[l->b]++;
        else if (t->devs[l->b].kind == CR_DEV_GPU && is_nvswitch(t, l->a))
            gpus[l->a]++;
    }
    for (int v = 0; v < t->n_devs; v++)
        if (is_nvswitch(t, v) && gpus[v] > most[t->devs[v].node + 1])
            most[t->devs[v].node + 1] = gpus[v];
    int n_short = 0, first = -1;
    for (int v = 0; v < t->n_devs; v++)
        if (is_nvswitch(t, v) && gpus[v] < most[t->devs[v].node + 1] && n_short++ == 0)
            first = v;
    if (n_short > 0) {
        size_t k = strlen(desc);
        int g = gpus[first], m = most[t->devs[first].node + 1];
        snprintf(desc + k, size - k,
                 "; %d NVSwitch reached by fewer GPUs than another of its host (first: %.64s, %d "
                 "GPU%s where another reaches %d): a link to it carries nothing to the GPUs it "
                 "does not reach, as the dump says; check its targets",
                 n_short, t->devs[first].id, g, g == 1 ? "" : "s", m);
    }
    free(gpus);
    free(most);
}

static void ctx_release(struct ctx *c)
{
    free(c->cpus);
    free(c->pcis);
    free(c->gpus);
    free(c->nvls);
    free(c->c2cs);
    free(c->nics);
    free(c->hosts);
}

/* Mark every PCI element on the path from a GPU or NIC to its CPU. */
static void mark_needed(struct ctx *c, int p)
{
    while (p >= 0 && !c->pcis[p].needed) {
        c->pcis[p].needed = 1;
        p = c->pcis[p].parent;
    }
}

/* Device index of the element above PCI element p (a kept bridge or the
 * CPU). */
static int upstream_dev(const struct ctx *c, int p)
{
    int q = c->pcis[p].parent;
    return q >= 0 ? c->pcis[q].dev : c->cpus[c->pcis[p].cpu].dev;
}

static int pci_host(const struct ctx *c, int p)
{
    return c->cpus[c->pcis[p].cpu].host;
}

/* Device id; with several hosts in the dump every host's devices get the
 * prefix "h<host>." (bus ids, NUMA ids and port names repeat across hosts). */
__attribute__((format(printf, 5, 6))) static void dev_id(const struct ctx *c, int host, char *id,
                                                         size_t size, const char *fmt, ...)
{
    size_t off = 0;
    if (c->n_hosts > 1) {
        int n = snprintf(id, size, "h%d.", host);
        off = n > 0 ? (size_t)n : 0;
    }
    va_list ap;
    va_start(ap, fmt);
    cr_vsnprintf_c(id + off, size - off, fmt, ap);
    va_end(ap);
}

static int gpu_cpu(const struct ctx *c, int g)
{
    return c->cpus[c->pcis[c->gpus[g].pci].cpu].dev;
}

/* A switch model for the NVSwitch chips next to GPUs of arch sm. */
static int nvswitch_spec(cr_topo *t, int sm)
{
    char name[32], src[256];
    cr_switch_spec s = {0};
    if (sm >= 100) {
        cr_str_copy(name, sizeof name, "nvswitch4");
        s.generation = 4;
        s.multicast = s.reduction = true;
        snprintf(src, sizeof src,
                 "NVIDIA Blackwell NVLink Switch (NVLink5): multicast and SHARP "
                 "in-network reduction");
    } else if (sm >= 90) {
        cr_str_copy(name, sizeof name, "nvswitch3");
        s.generation = 3;
        s.multicast = s.reduction = true;
        snprintf(src, sizeof src,
                 "NVIDIA Hopper whitepaper: third-generation NVSwitch, "
                 "multicast and SHARP in-network reduction (NVLS)");
    } else if (sm >= 80) {
        cr_str_copy(name, sizeof name, "nvswitch2");
        s.generation = 2;
        snprintf(src, sizeof src,
                 "NVIDIA A100 whitepaper: second-generation NVSwitch, no "
                 "in-switch reduction");
    } else {
        cr_str_copy(name, sizeof name, "nvswitch1");
        s.generation = 1;
        cr_str_copy(src, sizeof src, "NVIDIA V100 / DGX-2: first-generation NVSwitch");
    }
    int have = cr_topo_find_switch_spec(t, name);
    if (have >= 0)
        return have;
    s.name = name;
    s.source = src;
    return cr_topo_add_switch_spec(t, &s);
}

static int fabric_switch(cr_topo *t, bool ib)
{
    const char *id = ib ? "fabric.ib" : "fabric.ethernet";
    int v = cr_topo_find_dev(t, id);
    if (v >= 0)
        return v;
    char name[32], src[200];
    cr_str_copy(name, sizeof name, ib ? "ib-fabric" : "ethernet-fabric");
    snprintf(src, sizeof src,
             "not in the NCCL dump: stands for the network the host's NIC ports "
             "attach to (its capacity beyond the ports is unknown)");
    int spec = cr_topo_find_switch_spec(t, name);
    if (spec < 0) {
        cr_switch_spec s = {0};
        s.name = name;
        s.source = src;
        spec = cr_topo_add_switch_spec(t, &s);
        if (spec < 0)
            return -1;
    }
    return cr_topo_add_dev(t, CR_DEV_SWITCH, id, -1, spec);
}

/* Adds a bundle or, when one of that kind already joins a and b, checks
 * that it agrees (both GPUs of a direct NVLink pair list it). */
static cr_status add_link(struct ctx *c, cr_topo *t, int a, int b, cr_link_kind kind, double bw,
                          int count, int line, bool shared_pair)
{
    for (int i = c->scan_from; i < t->n_links; i++) {
        cr_link *l = &t->links[i];
        if (l->kind != kind || !((l->a == a && l->b == b) || (l->a == b && l->b == a)))
            continue;
        if (shared_pair) {
            if (l->count != count)
                return cr_diag_set(c->d, CR_EPARSE,
                                   "%s:%d: %d NVLinks from \"%s\" to \"%s\", but the other GPU "
                                   "lists %d: both ends of a link must agree",
                                   c->origin, line, count, t->devs[a].id, t->devs[b].id, l->count);
            return CR_OK;
        }
        /* The same target listed twice for one GPU: NCCL would add the
         * counts. */
        l->count += count;
        return CR_OK;
    }
    if (cr_topo_add_link(t, a, b, kind, bw, bw, count, 0.0) < 0)
        return CR_ENOMEM;
    return CR_OK;
}

static bool tclass_is(const char *tclass, const char *prefix)
{
    return strncmp(tclass, prefix, strlen(prefix)) == 0;
}

/* NCCL (2.27 at least) lists a NIC it cannot place on the PCI tree, the
 * socket network's eth0, once under every <cpu> of the host: the same port,
 * name, dev and speed alike. Index of the earlier <nic> that NIC n repeats,
 * or -1. It is one device, joined to the first CPU that lists it. */
static int same_socket_nic(const struct ctx *c, int n)
{
    const struct nic_rec *nr = &c->nics[n];
    if (nr->pci >= 0)
        return -1;
    for (int k = 0; k < n; k++) {
        const struct nic_rec *o = &c->nics[k];
        if (o->pci >= 0 || o->ports != nr->ports || c->cpus[o->cpu].host != c->cpus[nr->cpu].host ||
            o->cpu == nr->cpu || strcmp(o->name, nr->name) != 0)
            continue;
        bool same = true;
        for (int p = 0; p < nr->ports; p++)
            same &= o->port_Bps[p] == nr->port_Bps[p] && o->port_dev[p] == nr->port_dev[p];
        if (same)
            return k;
    }
    return -1;
}

static cr_status build(struct ctx *c, cr_topo *t)
{
    cr_status st = CR_OK;
    char id[ATTR_MAX + 32];
    if (c->n_gpus == 0) {
        /* Cloud providers ship PCI trees for NCCL_TOPO_FILE (Azure's
         * ndv4-topo.xml, AWS's p4d-24xl-topo.xml): GPU-class <pci>
         * elements with no <gpu> inside. Say what they are. */
        int bare = 0, line = 0;
        bool rankless = false; /* a <gpu> without rank: the message below */
        for (int p = 0; p < c->n_pcis; p++) {
            unsigned base = c->pcis[p].cls >> 16;
            if ((base == 0x03 || base == 0x12) && !c->pcis[p].gpu_elem && bare++ == 0)
                line = c->pcis[p].line;
            rankless |= c->pcis[p].gpu_elem;
        }
        if (bare > 0 && !rankless)
            return cr_diag_set(c->d, CR_EINVARIANT,
                               "%s:%d: the file has no <gpu> with a rank, only %d <pci> of a GPU "
                               "class with nothing inside: it is a PCI layout written for "
                               "NCCL_TOPO_FILE (as cloud providers ship), not a dump; import "
                               "what NCCL writes on that machine with "
                               "NCCL_TOPO_DUMP_FILE=dump.xml",
                               c->origin, line, bare);
        return cr_diag_set(c->d, CR_EINVARIANT,
                           "%s: the dump has no <gpu> with a rank: it describes no GPU NCCL used",
                           c->origin);
    }
    for (int g = 0; g < c->n_gpus; g++)
        c->gpus[g].orig = g;
    qsort(c->gpus, (size_t)c->n_gpus, sizeof *c->gpus, cmp_gpu_rank);
    /* NVLink and C2C entries name their GPU by its index before sorting. */
    int *sorted = malloc((size_t)c->n_gpus * sizeof *sorted);
    if (!sorted)
        return CR_ENOMEM;
    for (int g = 0; g < c->n_gpus; g++)
        sorted[c->gpus[g].orig] = g;
    for (int i = 0; i < c->n_nvls; i++)
        c->nvls[i].gpu = sorted[c->nvls[i].gpu];
    for (int i = 0; i < c->n_c2cs; i++)
        c->c2cs[i].gpu = sorted[c->c2cs[i].gpu];
    free(sorted);
    for (int g = 1; g < c->n_gpus; g++)
        if (c->gpus[g].rank == c->gpus[g - 1].rank)
            return cr_diag_set(c->d, CR_EPARSE,
                               "%s:%d: a second GPU with rank %d (the other at line %d): ranks "
                               "are unique",
                               c->origin, c->gpus[g].line, c->gpus[g].rank, c->gpus[g - 1].line);
    c->scan_from = INT_MAX;
    /* GPUs in rank order. */
    for (int g = 0; g < c->n_gpus; g++) {
        struct gpu_rec *gr = &c->gpus[g];
        const struct pci_rec *pr = &c->pcis[gr->pci];
        cr_diag cd = {{0}};
        cr_status ls = CR_OK;
        if (gr->amd) {
            /* By PCI id (a virtual function by its subsystem id), the CU
             * count (RCCL's sm) choosing where products share an id, the
             * gcn checked against it. Each MI200 GCD is a <gpu> of its own. */
            ls = cr_gpu_catalog_lookup_amd(strcmp(gr->gcn, "?") ? gr->gcn : NULL, gr->sm,
                                           pr->device, pr->subsys_device, &gr->e, &cd);
        } else {
            ls = cr_gpu_catalog_lookup(gr->sm, pr->device, &gr->e, &cd);
        }
        if (ls != CR_OK)
            return cr_diag_set(c->d, ls, "%s:%d: %s", c->origin, gr->line, cd.msg);
        int spec = cr_gpu_catalog_add_spec(t, gr->e);
        if (spec < 0)
            return CR_ENOMEM;
        int host = pci_host(c, gr->pci);
        dev_id(c, host, id, sizeof id, "gpu%d", gr->cudadev);
        /* Several ranks on one GPU (NCCL lists one <gpu> per rank under the
         * GPU's <pci>: MPS with MLOPart on Blackwell/Rubin, or ranks sharing
         * a device): a real dump, but commroof has one rank per GPU. */
        for (int o = 0; o < g; o++)
            if (c->gpus[o].pci == gr->pci)
                return cr_diag_set(
                    c->d, CR_EINVAL,
                    "%s:%d: ranks %d and %d are both on the GPU at <pci busid=\"%s\"> (line "
                    "%d): NCCL lists one <gpu> per rank where ranks share a GPU (MPS with "
                    "mlopart, or several ranks per device); commroof models one rank per GPU: "
                    "keep one <gpu> in that <pci> (the dump's NVLink and C2C figures are the "
                    "whole GPU's)",
                    c->origin, gr->line, c->gpus[o].rank, gr->rank, pr->busid, pr->line);
        if (cr_topo_find_dev(t, id) >= 0)
            return cr_diag_set(c->d, CR_EPARSE,
                               "%s:%d: a second GPU with dev=\"%d\": CUDA device numbers are "
                               "unique",
                               c->origin, gr->line, gr->cudadev);
        gr->dev = cr_topo_add_dev(t, CR_DEV_GPU, id, host, spec);
        if (gr->dev < 0)
            return CR_ENOMEM;
        mark_needed(c, gr->pci);
    }
    for (int n = 0; n < c->n_nics; n++)
        if (c->nics[n].ports > 0 && c->nics[n].pci >= 0)
            mark_needed(c, c->nics[n].pci);
    for (int i = 0; i < c->n_cpus; i++) {
        dev_id(c, c->cpus[i].host, id, sizeof id, "cpu%d", c->cpus[i].numaid);
        if ((c->cpus[i].dev =
                 cr_topo_add_dev(t, CR_DEV_CPU, id, c->cpus[i].host, cpu_vendor(&c->cpus[i]))) < 0)
            return CR_ENOMEM;
    }
    for (int p = 0; p < c->n_pcis; p++) {
        struct pci_rec *pr = &c->pcis[p];
        if (!pr->needed || pr->kind == PCI_GPU || pr->kind == PCI_NIC)
            continue;
        dev_id(c, pci_host(c, p), id, sizeof id, "pcisw.%s", pr->busid);
        if (cr_topo_find_dev(t, id) >= 0)
            return cr_diag_set(c->d, CR_EPARSE, "%s:%d: bus id %s appears twice", c->origin,
                               pr->line, pr->busid);
        if ((pr->dev = cr_topo_add_dev(t, CR_DEV_PCISW, id, pci_host(c, p), -1)) < 0)
            return CR_ENOMEM;
    }
    /* PCIe links: each kept element to the one above it. GPUs use their own
     * device; NIC elements are joined below, with their NIC. */
    for (int p = 0; p < c->n_pcis; p++) {
        const struct pci_rec *pr = &c->pcis[p];
        if (!pr->needed || pr->kind == PCI_NIC)
            continue;
        int self = pr->dev;
        if (pr->kind == PCI_GPU) {
            self = -1;
            for (int g = 0; g < c->n_gpus; g++)
                if (c->gpus[g].pci == p)
                    self = c->gpus[g].dev;
        }
        if (self < 0)
            continue;
        if ((st = add_link(c, t, self, upstream_dev(c, p), CR_LINK_PCIE, pr->bw_Bps, 1, pr->line,
                           false)))
            return st;
    }
    /* NICs and the network behind them. */
    for (int n = 0; n < c->n_nics; n++) {
        struct nic_rec *nr = &c->nics[n];
        if (nr->ports == 0)
            continue;
        int host = nr->pci >= 0 ? pci_host(c, nr->pci) : c->cpus[nr->cpu].host;
        dev_id(c, host, id, sizeof id, "nic.%s", nr->name);
        if (same_socket_nic(c, n) >= 0)
            continue;
        if (cr_topo_find_dev(t, id) >= 0)
            return cr_diag_set(c->d, CR_EPARSE,
                               "%s:%d: a second NIC port named \"%s\": port names are unique",
                               c->origin, nr->line, nr->name);
        if ((nr->dev = cr_topo_add_dev(t, CR_DEV_NIC, id, host, -1)) < 0)
            return CR_ENOMEM;
        double total = 0.0;
        bool equal = true;
        for (int k = 0; k < nr->ports; k++) {
            total += nr->port_Bps[k];
            equal &= nr->port_Bps[k] == nr->port_Bps[0];
        }
        t->devs[nr->dev].port_Bps = total; /* the dump's speed="..." of its ports */
        if (nr->pci >= 0)
            st = add_link(c, t, nr->dev, upstream_dev(c, nr->pci), CR_LINK_PCIE,
                          c->pcis[nr->pci].bw_Bps, 1, nr->line, false);
        else /* a NIC NCCL places under the CPU has no PCIe figure: its ports */
            st = add_link(c, t, nr->dev, c->cpus[nr->cpu].dev, CR_LINK_PCIE, total, 1, nr->line,
                          false);
        if (st)
            return st;
        int fab = fabric_switch(t, nr->ib);
        if (fab < 0)
            return CR_ENOMEM;
        if (equal)
            st = add_link(c, t, nr->dev, fab, nr->ib ? CR_LINK_IB : CR_LINK_ETHERNET,
                          nr->port_Bps[0], nr->ports, nr->line, false);
        else
            st = add_link(c, t, nr->dev, fab, nr->ib ? CR_LINK_IB : CR_LINK_ETHERNET, total, 1,
                          nr->line, false);
        if (st)
            return st;
    }
    /* NVLinks (and C2C below): entries may name a pair twice. */
    c->scan_from = t->n_links;
    int *links = calloc((size_t)c->n_gpus, sizeof *links);
    if (!links)
        return CR_ENOMEM;
    for (int i = 0; i < c->n_nvls && !st; i++) {
        const struct nvl_rec *v = &c->nvls[i];
        const struct gpu_rec *gr = &c->gpus[v->gpu];
        double bw = gr->e->scaleup_link_Bps;
        const char *lname = v->xgmi ? "xGMI link" : "NVLink";
        links[v->gpu] += v->count;
        if (v->xgmi != gr->amd) {
            st = cr_diag_set(c->d, CR_EPARSE,
                             "%s:%d: GPU %d is a%s %s, but the dump lists a <%s> for it: NVIDIA "
                             "GPUs have <nvlink>, AMD GPUs (RCCL dumps) <xgmi>",
                             c->origin, v->line, gr->cudadev, gr->amd ? "n" : "", gr->e->name,
                             v->xgmi ? "xgmi" : "nvlink");
        } else if (gr->e->scaleup_links == 0 || bw <= 0.0) {
            st = cr_diag_set(c->d, CR_EPARSE,
                             "%s:%d: GPU %d is a %s, which has no NVLink, but the dump lists "
                             "NVLinks for it",
                             c->origin, v->line, gr->cudadev, gr->e->name);
        } else if (links[v->gpu] > gr->e->scaleup_links) {
            st = cr_diag_set(c->d, CR_EPARSE,
                             "%s:%d: GPU %d has %d %ss in the dump, but a %s has %d (%s)",
                             c->origin, v->line, gr->cudadev, links[v->gpu], lname, gr->e->name,
                             gr->e->scaleup_links, gr->e->scaleup_source);
        } else if (v->xgmi && !tclass_is(v->tclass, "0x03") && !tclass_is(v->tclass, "0x12")) {
            st = cr_diag_set(c->d, CR_EPARSE,
                             "%s:%d: xGMI target class tclass=\"%s\" is not a GPU: RCCL writes "
                             "0x120000 (processing accelerator) or 0x03xxxx (display) for a "
                             "peer GPU",
                             c->origin, v->line, v->tclass);
        } else if (tclass_is(v->tclass, "0x068000")) {
            /* NVSwitch: one device per target bus id; the hidden target of a
             * VM is one switch standing for all the chips. */
            /* Invisible chips are shared by every host of the dump (one NVLink
             * domain, as NCCL's single NVS node); visible ones are local. */
            bool hidden = is_hidden_nvs(v->target);
            int host = pci_host(c, gr->pci);
            if (hidden)
                cr_str_copy(id, sizeof id, "nvswitch.hidden");
            else
                dev_id(c, host, id, sizeof id, "nvswitch.%s", v->target);
            int sw = cr_topo_find_dev(t, id);
            if (sw < 0) {
                int spec = nvswitch_spec(t, gr->sm);
                int node = hidden && c->n_hosts > 1 ? -1 : host;
                if (spec < 0 || (sw = cr_topo_add_dev(t, CR_DEV_SWITCH, id, node, spec)) < 0) {
                    st = CR_ENOMEM;
                    break;
                }
            }
            st = add_link(c, t, gr->dev, sw, CR_LINK_NVLINK, bw, v->count, v->line, false);
        } else if (tclass_is(v->tclass, "0x068001")) {
            /* NVLink to the CPU (POWER9, Grace): NCCL joins the local CPU. */
            st = add_link(c, t, gr->dev, gpu_cpu(c, v->gpu), CR_LINK_NVLINK, bw, v->count, v->line,
                          false);
        } else if (tclass_is(v->tclass, "0x03") || v->xgmi) {
            int peer = -1;
            for (int g = 0; g < c->n_gpus; g++)
                if (strcasecmp(c->pcis[c->gpus[g].pci].busid, v->target) == 0 &&
                    pci_host(c, c->gpus[g].pci) == pci_host(c, gr->pci))
                    peer = g;
            /* NVML inside an Azure NC A100 v4 VM names each GPU's own bus
             * id as the far end of its NVLink bridge: the peer is unknown,
             * and a guessed pairing, or none, would misstate the bound. */
            if (peer == v->gpu) {
                st = cr_diag_set(
                    c->d, CR_EPARSE,
                    "%s:%d: GPU %d's %d %ss name the GPU itself (target=\"%s\") as the far "
                    "end, as NVML does inside some VMs: the peer is unknown; write the peer "
                    "GPU's bus id as target (nvidia-smi topo -m on the host shows the pairs), or "
                    "delete the entry to import the GPU without them",
                    c->origin, v->line, gr->cudadev, v->count, lname, v->target);
                break;
            }
            /* A peer outside the communicator is not imported: NCCL's dump
             * holds the communicator's GPUs only, while NVML reports every
             * NVLink, so a communicator over part of a mesh (4 GPUs of a
             * DGX-1) lists links to GPUs that are not there. Not an error
             * then, but not silent either (issue 13 item 10): the
             * description counts them and names the first. */
            if (peer >= 0)
                st = add_link(c, t, gr->dev, c->gpus[peer].dev,
                              v->xgmi ? CR_LINK_XGMI : CR_LINK_NVLINK, bw, v->count, v->line, true);
            else if (c->n_nvl_out++ == 0) {
                c->nvl_out_line = v->line;
                c->nvl_out_xgmi = v->xgmi;
                cr_str_copy(c->nvl_out_target, sizeof c->nvl_out_target, v->target);
            }
        } else {
            st = cr_diag_set(c->d, CR_EPARSE,
                             "%s:%d: NVLink target class tclass=\"%s\" is unknown: NCCL writes "
                             "0x068000 (NVSwitch), 0x068001 (CPU) or 0x03xxxx (GPU)",
                             c->origin, v->line, v->tclass);
        }
    }
    free(links);
    for (int i = 0; i < c->n_c2cs && !st; i++) {
        const struct c2c_rec *k = &c->c2cs[i];
        st = add_link(c, t, c->gpus[k->gpu].dev, gpu_cpu(c, k->gpu), CR_LINK_C2C, k->bw_Bps,
                      k->count, k->line, false);
    }
    /* Sockets, pairwise (ncclTopoConnectCpus joins every pair). */
    c->scan_from = INT_MAX;
    for (int i = 0; i < c->n_cpus && !st; i++)
        for (int j = i + 1; j < c->n_cpus && !st; j++) {
            if (c->cpus[i].host != c->cpus[j].host)
                continue;
            double bw;
            int count;
            const char *src;
            cr_nccl_socket_link(c->cpus[i].vendor, c->cpus[i].familyid, c->cpus[i].modelid, &bw,
                                &count, &src);
            st = add_link(c, t, c->cpus[i].dev, c->cpus[j].dev, CR_LINK_C2C, bw, count,
                          c->cpus[j].line, false);
        }
    return st;
}

static void base_name(const char *origin, char *out, size_t size)
{
    const char *b = strrchr(origin, '/');
    b = b ? b + 1 : origin;
    cr_str_copy(out, size, b);
    size_t n = strlen(out);
    if (n > 4 && strcmp(out + n - 4, ".xml") == 0)
        out[n - 4] = '\0';
    if (!out[0])
        cr_str_copy(out, size, "nccl-import");
}

/* One host's bus ids are its devices' addresses: two alike are a dump
 * edited wrong (another host may reuse them). Checked once the dump is
 * read: sorted by host and id, neighbours compared. */
struct busid_ref {
    int host, line;
    const char *busid;
};

static int cmp_busid_ref(const void *x, const void *y)
{
    const struct busid_ref *a = x, *b = y;
    if (a->host != b->host)
        return (a->host > b->host) - (a->host < b->host);
    int k = strcasecmp(a->busid, b->busid);
    return k ? k : (a->line > b->line) - (a->line < b->line);
}

static cr_status check_busids(struct ctx *c)
{
    struct busid_ref *r = malloc(((size_t)c->n_pcis + 1) * sizeof *r);
    if (!r)
        return cr_diag_set(c->d, CR_ENOMEM, "%s: out of memory", c->origin);
    for (int p = 0; p < c->n_pcis; p++)
        r[p] = (struct busid_ref){c->cpus[c->pcis[p].cpu].host, c->pcis[p].line, c->pcis[p].busid};
    qsort(r, (size_t)c->n_pcis, sizeof *r, cmp_busid_ref);
    cr_status st = CR_OK;
    for (int p = 1; p < c->n_pcis && st == CR_OK; p++)
        if (r[p].host == r[p - 1].host && !strcasecmp(r[p].busid, r[p - 1].busid))
            st = cr_diag_set(c->d, CR_EINVAL,
                             "%s:%d: busid=\"%s\" is already the bus id of the <pci> on line %d "
                             "of this host: every device has its own",
                             c->origin, r[p].line, r[p].busid, r[p - 1].line);
    free(r);
    return st;
}

cr_status cr_nccl_import_memory(const char *buf, size_t len, const char *origin, cr_topo **out,
                                cr_diag *d)
{
    struct ctx c = {.attr_st = CR_EPARSE};
    xmlDocPtr doc = NULL;
    cr_topo *t = NULL;
    cr_status st = CR_OK;
    *out = NULL;
    /* a buffer of no file: "<memory>" in messages, "nccl-import" its name
     * (both crashed or printed "(null)": QA audit of the library) */
    c.origin = origin ? origin : "<memory>";
    c.d = d;
    if ((st = cr_xml_check_size(c.origin, len, CR_NCCL_IMPORT_MAX_BYTES, DUMP_WHAT, NULL, d)))
        goto out;
    if (len == 0) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:1: the file is empty: expected an NCCL topology "
                         "dump, <system version=\"1\">...</system>",
                         c.origin);
        goto out;
    }
    /* hwloc's XML (lstopo --of xml, which some providers ship beside their
     * NCCL files) describes the same machine in other words: say so, and
     * what to import instead (a QA audit found it refused for its DOCTYPE,
     * and without one taken for a commroof topology, its root being
     * <topology> too) */
    char head[1025];
    size_t nh = len < sizeof head - 1 ? len : sizeof head - 1;
    memcpy(head, buf, nh);
    head[nh] = '\0';
    if (strstr(head, "hwloc")) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:1: this is hwloc's XML (lstopo --of xml), not an NCCL topology "
                         "dump: run any NCCL job with NCCL_TOPO_DUMP_FILE=DUMP.xml and import "
                         "DUMP.xml",
                         c.origin);
        goto out;
    }
    /* An NCCL dump never has a DOCTYPE, so any is refused (and with it every
     * entity declaration); CDATA merges into text as NCCL never writes it. */
    cr_xml_error e;
    cr_diag scratch = {{0}};
    st = cr_xml_parse(buf, len, c.origin, CR_XML_NO_DOCTYPE | CR_XML_NOCDATA, &doc, &e, &scratch);
    if (st == CR_EPARSE && e.kind == CR_XML_ERR_DOCTYPE) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: <!DOCTYPE is not allowed: NCCL dumps have no DTD, and commroof "
                         "never reads DTDs or entities",
                         c.origin, e.line);
        goto out;
    }
    if (st) {
        st = cr_diag_set(d, st, "%s", scratch.msg);
        goto out;
    }
    const xmlNode *root = xmlDocGetRootElement(doc);
    bool hwloc_objects = false;
    for (const xmlNode *k = root ? root->children : NULL; k && !hwloc_objects; k = k->next)
        hwloc_objects = k->type == XML_ELEMENT_NODE && named(k, "object");
    if (root && named(root, "topology") && hwloc_objects) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: <topology> holding hwloc's <object> elements: this is hwloc's "
                         "XML (lstopo --of xml), not an NCCL topology dump: run any NCCL job "
                         "with NCCL_TOPO_DUMP_FILE=DUMP.xml and import DUMP.xml",
                         c.origin, line_of(root));
        goto out;
    }
    if (root && named(root, "topology")) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: the root element is <topology>: this is a commroof topology "
                         "already, not an NCCL dump; use it as it is (commroof topo show %s)",
                         c.origin, line_of(root), c.origin);
        goto out;
    }
    if (root && named(root, "graphs")) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: the root element is <graphs>: this is NCCL's graph dump "
                         "(NCCL_GRAPH_DUMP_FILE: the rings and trees it chose), not the machine; "
                         "run the job with NCCL_TOPO_DUMP_FILE=DUMP.xml and import DUMP.xml",
                         c.origin, line_of(root));
        goto out;
    }
    if (!root || !named(root, "system")) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: the root element is <%s>: an NCCL topology dump starts with "
                         "<system version=\"1\">",
                         c.origin, root ? line_of(root) : 1, root ? (const char *)root->name : "");
        goto out;
    }
    long version;
    if ((st = check_attrs(&c, root)))
        goto out;
    if ((st = get_int(&c, root, "version", "version=\"1\"", 0, INT_MAX, &version, NULL)))
        goto out;
    /* NCCL_TOPO_XML_VERSION, src/graph/xml.h: 1 in NVIDIA/nccl, 2 in
     * ROCm/rccl (the same elements plus <gpu gcn> and <xgmi>) */
    if (version != 1 && version != 2) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: <system version=\"%ld\">: commroof reads version 1, the one "
                         "NCCL writes, and 2, RCCL's",
                         c.origin, line_of(root), version);
        goto out;
    }
    for (const xmlNode *k = root->children; k; k = k->next) {
        if ((st = check_child(&c, root, k)))
            goto out;
        if (k->type != XML_ELEMENT_NODE)
            continue;
        if (!named(k, "cpu")) {
            st = unknown_elem(&c, k, root, "<cpu>");
            goto out;
        }
        if ((st = walk_cpu(&c, k)))
            goto out;
    }
    if ((st = check_busids(&c)))
        goto out;
    char name[256], desc[1024], src[2048];
    base_name(origin ? origin : "", name, sizeof name);
    t = cr_topo_new(name);
    if (!t) {
        st = CR_ENOMEM;
        goto out;
    }
    if ((st = build(&c, t)))
        goto out;
    t->n_nodes = c.n_hosts;
    int n_sw = 0, n_nic = 0, n_pcisw = 0;
    for (int v = 0; v < t->n_devs; v++) {
        n_sw += t->devs[v].kind == CR_DEV_SWITCH && strstr(t->devs[v].id, "nvswitch.") != NULL;
        n_nic += t->devs[v].kind == CR_DEV_NIC;
        n_pcisw += t->devs[v].kind == CR_DEV_PCISW;
    }
    char hosts[48] = "";
    if (c.n_hosts > 1)
        snprintf(hosts, sizeof hosts, " in %d hosts", c.n_hosts);
    snprintf(desc, sizeof desc,
             "imported from an NCCL topology dump: %d x %s%s, %d NVSwitch, %d CPU, %d PCIe "
             "switch, %d NIC",
             c.n_gpus, c.gpus[0].e->name, hosts, n_sw, c.n_cpus, n_pcisw, n_nic);
    if (c.n_nvl_out > 0) {
        size_t k = strlen(desc);
        snprintf(desc + k, sizeof desc - k,
                 "; not imported: %d %s entr%s to a GPU the dump does not hold (first: line "
                 "%d, target %.64s), outside the communicator",
                 c.n_nvl_out, c.nvl_out_xgmi ? "xGMI" : "NVLink", c.n_nvl_out == 1 ? "y" : "ies",
                 c.nvl_out_line, c.nvl_out_target);
    }
    describe_few_reached(t, desc, sizeof desc);
    if (c.n_emulated > 0) {
        size_t k = strlen(desc);
        snprintf(desc + k, sizeof desc - k,
                 "; %d PCIe port%s reporting 2.5 GT/s x1 above faster devices (first: line %d), a "
                 "VM's emulated port%s, carry what the links below carry",
                 c.n_emulated, c.n_emulated == 1 ? "" : "s", c.emulated_line,
                 c.n_emulated == 1 ? "" : "s");
    }
    if (c.n_nospeed > 0) {
        size_t k = strlen(desc);
        snprintf(desc + k, sizeof desc - k,
                 "; %d PCIe link%s with no speed of %s own (link_speed \"Unknown\", or none "
                 "under an emulated port; first: line %d) take%s the device's datasheet "
                 "interface, NIC ports or the links below",
                 c.n_nospeed, c.n_nospeed == 1 ? "" : "s", c.n_nospeed == 1 ? "its" : "their",
                 c.nospeed_line, c.n_nospeed == 1 ? "s" : "");
    }
    /* A GPU without NVLink among GPUs with it: a failed or disabled link
     * (a GB300 tray whose GPU lost its NVLinks ran NCCL's allreduce at
     * 33-52 GB/s of bus bandwidth where its peers reach 507), which the
     * import keeps as the dump says: said here, not dropped */
    int nvl_gpus = 0, bare = 0, first_bare = -1;
    for (int v = 0; v < t->n_devs; v++) {
        if (t->devs[v].kind != CR_DEV_GPU)
            continue;
        bool has = false;
        for (int l = 0; l < t->n_links && !has; l++)
            has = t->links[l].kind == CR_LINK_NVLINK && (t->links[l].a == v || t->links[l].b == v);
        nvl_gpus += has;
        if (!has && bare++ == 0)
            first_bare = v;
    }
    if (nvl_gpus > 0 && bare > 0) {
        size_t k = strlen(desc);
        snprintf(desc + k, sizeof desc - k,
                 "; %d GPU%s with no NVLink where %d ha%s it (first: %.64s): a failed or "
                 "disabled link? nvidia-smi nvlink -s shows it",
                 bare, bare == 1 ? "" : "s", nvl_gpus, nvl_gpus == 1 ? "s" : "ve",
                 t->devs[first_bare].id);
    }
    if (c.n_net_out > 0) {
        size_t k = strlen(desc);
        snprintf(desc + k, sizeof desc - k,
                 "; not imported: %d NIC port%s reporting no speed (first: line %d, %.64s), no "
                 "network through %s",
                 c.n_net_out, c.n_net_out == 1 ? "" : "s", c.net_out_line, c.net_out_name,
                 c.n_net_out == 1 ? "it" : "them");
    }
    /* Socket links: cr_nccl_socket_link()'s product brief and the CPU it was chosen
     * by, one clause per distinct CPU (it said "vendor link rates": which CPU
     * the 4 x 32GB/s were taken for was not told; QA audit of the import). */
    bool socket_links = false, placeholder = false;
    char sock[900] = "";
    for (int i = 0; i < c.n_cpus; i++)
        for (int j = i + 1; j < c.n_cpus; j++) {
            if (c.cpus[i].host != c.cpus[j].host)
                continue;
            socket_links = true;
            placeholder |= strcmp(c.cpus[i].vendor, "GenuineIntel") != 0 &&
                           strcmp(c.cpus[i].vendor, "AuthenticAMD") != 0;
            double bw;
            int count;
            const char *ls;
            cr_nccl_socket_link(c.cpus[i].vendor, c.cpus[i].familyid, c.cpus[i].modelid, &bw,
                                &count, &ls);
            char one[400];
            snprintf(one, sizeof one, "%s (the dump's CPU: vendor %.32s, familyid %d, modelid %d)",
                     ls, c.cpus[i].vendor, c.cpus[i].familyid, c.cpus[i].modelid);
            if (!strstr(sock, one)) {
                size_t k = strlen(sock);
                snprintf(sock + k, sizeof sock - k, "%s%s", k ? "; " : "", one);
            }
        }
    snprintf(src, sizeof src,
             "NCCL_TOPO_DUMP_FILE %s (format: NVIDIA/nccl src/graph/xml.cc); GPU figures: "
             "commroof GPU catalog; CPU socket links: %s",
             origin,
             !socket_links ? "none (one socket per host)"
             : placeholder ? "unknown CPU vendor, 64GB/s placeholder, not a datasheet figure"
                           : sock);
    if ((st = cr_topo_set_description(t, desc)) || (st = cr_topo_set_source(t, src)))
        goto out;
    cr_diag cd = {{0}};
    if ((st = cr_topo_check(t, &cd))) {
        st = cr_diag_set(d, st, "%s: the imported topology fails the checker: %s", origin, cd.msg);
        goto out;
    }
    *out = t;
    t = NULL;
out:
    if (st == CR_ENOMEM) /* the walks' come back bare (QA audit of allocation failures) */
        cr_diag_set(d, st, "%s: out of memory", c.origin);
    cr_topo_free(t);
    if (doc)
        xmlFreeDoc(doc);
    ctx_release(&c);
    return st;
}

cr_status cr_nccl_import_file(const char *path, cr_topo **out, cr_diag *d)
{
    *out = NULL;
    if (!path)
        return cr_diag_set(d, CR_EINVAL, "no NCCL topology dump given");
    char *buf = NULL;
    size_t size = 0;
    cr_status st =
        cr_xml_read_file(path, CR_NCCL_IMPORT_MAX_BYTES, DUMP_WHAT, &buf, &size, NULL, d);
    if (st == CR_ENOTFOUND) /* nccl_import.h promises CR_EIO for any unreadable file */
        st = CR_EIO;
    if (st == CR_OK)
        st = cr_nccl_import_memory(buf, size, path, out, d);
    free(buf);
    return st;
}
