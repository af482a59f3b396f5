/* SPDX-License-Identifier: MIT */
/*
 * Lookups in the tables of shipped files (embedded_priv.h): one rule for
 * telling a shipped name from a path, one search and one listing, shared by
 * the topology and suite loaders.
 */
#include "embedded_priv.h"

#include <stdio.h>
#include <string.h>

bool cr_embedded_is_path(const char *name_or_path)
{
    size_t n = strlen(name_or_path);
    return strchr(name_or_path, '/') || (n > 4 && strcmp(name_or_path + n - 4, ".xml") == 0);
}

const struct cr_embedded *cr_embedded_find(const struct cr_embedded *table, const char *name)
{
    for (int k = 0; table[k].name; k++)
        if (strcmp(table[k].name, name) == 0)
            return &table[k];
    return NULL;
}

const char *cr_embedded_name(const struct cr_embedded *table, int i)
{
    if (i < 0)
        return NULL;
    for (int k = 0; table[k].name; k++)
        if (k == i)
            return table[k].name;
    return NULL;
}

void cr_embedded_list(const struct cr_embedded *table, char *buf, size_t cap)
{
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    for (int k = 0; table[k].name; k++) {
        size_t need = strlen(table[k].name) + (k ? 2 : 0);
        if (used + need >= cap)
            break;
        snprintf(buf + used, cap - used, "%s%s", k ? ", " : "", table[k].name);
        used += need;
    }
}
