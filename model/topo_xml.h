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

/* Loads, expands node templates and fabric generators, finalizes and checks
 * the invariants. On success *out is a new topology (cr_topo_free); on
 * failure *out is NULL and d says what and where. */
cr_status cr_topo_xml_load_file(const char *path, cr_topo **out, cr_diag *d);

/* Same from a buffer; origin names it in messages (e.g. "hgx-h200-8.xml"). */
cr_status cr_topo_xml_load_memory(const char *buf, size_t len, const char *origin, cr_topo **out,
                                  cr_diag *d);

/* Writes t as XML that loads back into an identical graph (cr_topo_equal).
 * *buf is NUL-terminated and freed with free(). */
cr_status cr_topo_xml_save_memory(const cr_topo *t, char **buf, size_t *len, cr_diag *d);

/* Writes to path with cr_file_write(): a regular file atomically (a
 * temporary file renamed over path), so a failure never leaves a
 * half-written file; a character device or a FIFO (/dev/stdout) in place.
 * Errors: CR_EIO with the reason in d, CR_ENOMEM. */
cr_status cr_topo_xml_save_file(const cr_topo *t, const char *path, cr_diag *d);

/* Opens a shipped topology by name ("hgx-h200-8", see cr_topo_shipped_name)
 * or, when name_or_path contains '/' or ends in ".xml", a file. Errors:
 * CR_ENOTFOUND naming the shipped topologies when neither matches. */
cr_status cr_topo_open(const char *name_or_path, cr_topo **out, cr_diag *d);

/* Name of the i-th shipped topology, or NULL past the end (borrowed). */
const char *cr_topo_shipped_name(int i);

/* The embedded default topology's name. */
#define CR_TOPO_DEFAULT "hgx-h200-8"

#endif
