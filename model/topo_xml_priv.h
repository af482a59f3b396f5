/* SPDX-License-Identifier: MIT */
/*
 * Internals of the topology XML loader shared by model/topo_xml.c (pass 1,
 * values, parsing, saving) and model/topo_xml_graph.c (passes 2 and 3: the
 * devices and links): the loader's state and the helpers both use. Nothing
 * outside model/topo_xml*.c includes this.
 */
#ifndef CR_TOPO_XML_PRIV_H
#define CR_TOPO_XML_PRIV_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "id_index_priv.h"
#include "topo.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

#define MAX_DEVS 4000000 /* what templates and generators may produce */
#define MAX_LINKS 16000000
#define MAX_EXPAND 1000000 /* devices from one brace group, nodes, torus chips */

/* Ids, prefixes and generator names: short enough that every id built from
 * them fits the fixed buffers below (ID_MAX x 2 plus numbers < ID_BUF). */
#define ID_MAX 200
#define ID_BUF 512

/* A node template's device and link as compiled (local ids and indices). */
struct tdev {
    cr_dev_kind kind;
    char *id; /* local id */
    int spec;
    int line;
    double port_Bps; /* a NIC's port-bw, 0 = unstated */
};

struct tlink {
    int a, b; /* local device indices */
    cr_link_kind kind;
    double ab, ba, lat;
    int count;
    int line;
};

/* A node template: compiled once, stamped per node. */
struct tmpl {
    const char *name; /* borrowed from the document */
    xmlNode *node;
    bool compiled;
    struct tdev *devs;
    int n_devs;
    size_t cap_devs;
    cr_id_index ids; /* devs by id */
    struct tlink *links;
    int n_links;
    size_t cap_links;
};

/* The loader's state over one document. */
typedef struct {
    const char *origin;
    cr_diag *d;
    cr_topo *t;
    int *dev_line, *link_line; /* declaring line of each device and link */
    size_t cap_dev_line, cap_link_line;
    int gpu_spec_line[256], switch_spec_line[256];
    struct tmpl *tmpls;
    int n_tmpls;
    size_t cap_tmpls;
    char **node_prefix; /* "n12." or "" per node */
    int *node_base;     /* device index of each node's first device */
    int n_nodes;
    size_t cap_node_prefix, cap_node_base;
    int *gen_base; /* first device of each generator element, in document order */
    int n_gen;
    size_t cap_gen;
    xmlChar **scratch; /* attribute values libxml2 had to assemble */
    int n_scratch;
    size_t cap_scratch;
    int n_gpu_devs;           /* GPUs added so far (CR_TOPO_MAX_GPUS) */
    struct id_ent *id_sorted; /* the devices by id, for <link-pattern> (built at the first) */
    int n_id_sorted;          /* devices it holds */
} loader;

/* txml_fail_at at the line of node. */
#define FAIL(L, node, st, ...) txml_fail_at((L), txml_line_of(node), (st), __VA_ARGS__)

/* Compiles template tp once (local ids, links as local index pairs). */
cr_status txml_compile_tmpl(loader *L, struct tmpl *tp);

/* Pass 2: creates the devices (top level, node replicas, torus chips,
 * rail-fabric switches), in document order. */
cr_status txml_pass2(loader *L, xmlNode *root);

/* Pass 3: creates the links. */
cr_status txml_pass3(loader *L, xmlNode *root);

/* Expands one brace group: "gpu{0..3}" -> gpu0 .. gpu3, "p{0,0,1}" -> p0
 * p0 p1; text without braces is itself. *out is an array of *n malloc'd
 * strings, freed with txml_free_ids. */
cr_status txml_expand_ids(loader *L, const xmlNode *n, const char *attr, char ***out, int *nout);

/* Reports "origin:line: message" (no line when line <= 0) in L->d and
 * returns st. */
cr_status txml_fail_at(loader *L, int line, cr_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The node template called name, or NULL. */
struct tmpl *txml_find_tmpl(loader *L, const char *name);

/* Frees what txml_expand_ids returned. */
void txml_free_ids(char **v, int n);

/* The value of attribute name on n, or NULL when absent (borrowed until the
 * loader is released). */
const char *txml_get(loader *L, const xmlNode *n, const char *name);

/* A "yes" / "no" attribute. */
cr_status txml_get_bool(loader *L, const xmlNode *n, const char *attr, bool *out);

/* A link bandwidth attribute, in bytes per second: positive, at most
 * 1PB/s. */
cr_status txml_get_bw(loader *L, const xmlNode *n, const char *attr, double *out);

/* A whole number in [lo, hi]; dflt when the attribute is absent. */
cr_status txml_get_int(loader *L, const xmlNode *n, const char *attr, long lo, long hi, int dflt,
                       int *out);

/* A one-hop latency attribute, in seconds: 0 when absent, else at least 0
 * and under 1 s. */
cr_status txml_get_latency(loader *L, const xmlNode *n, const char *attr, double *out);

/* Is n the element called name? */
bool txml_is_name(const xmlNode *n, const char *name);

/* The source line of n, 0 when unknown. */
int txml_line_of(const xmlNode *n);

/* Reports running out of memory and returns CR_ENOMEM. */
cr_status txml_oom(loader *L);

/* Is s an id, prefix or generator name: at most ID_MAX characters of
 * letters, digits and ._-:/+ ? */
bool txml_valid_id(const char *s);

#pragma GCC visibility pop

#endif
