/* SPDX-License-Identifier: MIT */
/*
 * Shipped data files compiled into the library (tools/embed.c generates the
 * tables from the XML files under topologies/ and suites/ at build time).
 */
#ifndef CR_EMBEDDED_PRIV_H
#define CR_EMBEDDED_PRIV_H

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

struct cr_embedded {
    const char *name; /* file base name without ".xml", e.g. "hgx-h200-8" */
    const char *text; /* the whole file, NUL-terminated */
};

/* Both tables end with an entry whose name is NULL. */
extern const struct cr_embedded cr_embedded_topo[];
extern const struct cr_embedded cr_embedded_suite[];

#pragma GCC visibility pop

#endif
