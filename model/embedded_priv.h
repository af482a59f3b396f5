/* SPDX-License-Identifier: MIT */
/*
 * Shipped data files compiled into the library (tools/embed.c generates the
 * tables from the XML files under topologies/ and suites/ at build time).
 */
#ifndef CR_EMBEDDED_PRIV_H
#define CR_EMBEDDED_PRIV_H

#include <stdbool.h>
#include <stddef.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

struct cr_embedded {
    const char *name; /* file base name without ".xml", e.g. "hgx-h200-8" */
    const char *text; /* the whole file, NUL-terminated */
};

/* Both tables end with an entry whose name is NULL. */
extern const struct cr_embedded cr_embedded_topo[];
extern const struct cr_embedded cr_embedded_suite[];

/* Whether a name given for a shipped file is a path instead: it holds a '/'
 * or ends in ".xml" (the one rule `--topo` and `suite` both follow). */
bool cr_embedded_is_path(const char *name_or_path);

/* The entry of table named name, or NULL. */
const struct cr_embedded *cr_embedded_find(const struct cr_embedded *table, const char *name);

/* The i-th name of table (0-based), or NULL past its end or for i < 0. */
const char *cr_embedded_name(const struct cr_embedded *table, int i);

/* The table's names, ", "-separated, into buf (always NUL-terminated; names
 * that do not fit whole are left out). */
void cr_embedded_list(const struct cr_embedded *table, char *buf, size_t cap);

#pragma GCC visibility pop

#endif
