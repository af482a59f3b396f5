/* SPDX-License-Identifier: MIT */
/*
 * Topology XML I/O (libxml2 behind this one interface: nothing else in
 * commroof includes libxml2 headers for topologies).
 *
 * Parsing never touches the network, never substitutes external entities and
 * refuses entity-expansion bombs and oversized input. Errors read
 * "file:line: what is wrong, what would be right". The format is documented
 * in topologies/commroof-topology.dtd and doc/topology-format.md.
 */
#ifndef CR_TOPO_XML_H
#define CR_TOPO_XML_H

#include <stddef.h>

#include "topo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads, expands node templates and fabric generators, finalizes and checks
 * the invariants. On success *out is a new topology (cr_topo_free); on
 * failure *out is NULL and d says what and where. */
cr_status cr_topo_xml_load_file(const char *path, cr_topo **out, cr_diag *d);

/* Same from a buffer; origin names it in messages (e.g. "hgx-h200-8.xml"). */
cr_status cr_topo_xml_load_memory(const char *buf, size_t len, const char *origin, cr_topo **out,
                                  cr_diag *d);

/* Writes t as XML that loads back into an identical graph (cr_topo_equal).
 * *buf is NUL-terminated and freed with free(). Errors: CR_EINVAL, with
 * what in d, for what would not load back: a model without a name, two
 * models of one name, a device id the format does not take, a parameter
 * the loader refuses (an unknown key, a value outside its range:
 * cr_params_check_topo_key); CR_ENOMEM. */
cr_status cr_topo_xml_save_memory(const cr_topo *t, char **buf, size_t *len, cr_diag *d);

/* Writes to path: a regular file atomically (a
 * temporary file renamed over path), so a failure never leaves a
 * half-written file; a character device or a FIFO (/dev/stdout) in place.
 * Errors: CR_EIO with the reason in d, CR_ENOMEM. */
cr_status cr_topo_xml_save_file(const cr_topo *t, const char *path, cr_diag *d);

/* Opens a shipped topology by name ("hgx-h200-8", see cr_topo_shipped_name)
 * or, when name_or_path contains '/' or ends in ".xml", a file. Errors:
 * CR_ENOTFOUND naming the shipped topologies when neither matches. */
cr_status cr_topo_open(const char *name_or_path, cr_topo **out, cr_diag *d);

/* One top-level element of a topology file, as written. */
typedef struct cr_topo_xml_part {
    char *elem;  /* element name: "gpu-model", "node-template", "nodes", "torus", ... */
    char *xml;   /* the element serialized as written: children, comments, sources kept */
    char **keys; /* its attributes' names and values, n_attrs of each */
    char **values;
    int n_attrs;
    int line; /* where it starts in the file */
} cr_topo_xml_part;

/* The top-level elements of a topology file, for generators that copy them
 * (model/topo_gen.h). */
typedef struct cr_topo_xml_parts {
    char *origin;                      /* "hgx-h100-8.xml" or the path */
    char *name, *description, *source; /* the <topology> attributes (NULL when absent) */
    cr_topo_xml_part *parts;
    int n_parts;
    int n_gpus;          /* GPUs of the loaded topology */
    int n_nics;          /* NICs of node 0 named nic0, nic1, ... without a gap (its rails) */
    double nic_port_Bps; /* their port-bw where all give the same, 0 where none gives
                            one, -1 where they differ or only some give one */
} cr_topo_xml_parts;

/* Opens name_or_path as cr_topo_open() does, loads and checks it (its
 * errors are the loader's), then fills *out with its top-level elements in
 * document order. Release with cr_topo_xml_parts_release() (also after a
 * failure). Errors: those of cr_topo_open(), CR_ENOMEM. */
cr_status cr_topo_xml_parts_open(const char *name_or_path, cr_topo_xml_parts *out, cr_diag *d);

/* Frees what *p holds and zeroes it; NULL is a no-op. */
void cr_topo_xml_parts_release(cr_topo_xml_parts *p);

/* The value of attribute key of part, or NULL (borrowed). */
const char *cr_topo_xml_part_attr(const cr_topo_xml_part *part, const char *key);

/* Name of the i-th shipped topology, or NULL past the end (borrowed). */
const char *cr_topo_shipped_name(int i);

/* The embedded default topology's name. */
#define CR_TOPO_DEFAULT "hgx-h200-8"

#ifdef __cplusplus
}
#endif

#endif
