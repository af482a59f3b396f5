/* SPDX-License-Identifier: MIT */
/*
 * Rank sets (see rankset.h): parse "all", "5", "0-7", "0-8191:8", "0,3,5",
 * and print them back in the shortest form.
 */
#include "sbuf.h"
#include "rankset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"

#define FORMS "\"all\", \"5\", \"0-7\", \"0-8191:8\" or a comma list such as \"0,3,8-11\""

void cr_rankset_free(cr_rankset *s)
{
    if (!s)
        return;
    free(s->ranks);
    free(s);
}

static cr_rankset *alloc_set(int n)
{
    cr_rankset *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->ranks = malloc((size_t)(n > 0 ? n : 1) * sizeof *s->ranks);
    if (!s->ranks) {
        free(s);
        return NULL;
    }
    s->n = n;
    return s;
}

cr_rankset *cr_rankset_all(int n_gpus)
{
    if (n_gpus < 1)
        return NULL;
    cr_rankset *s = alloc_set(n_gpus);
    if (!s)
        return NULL;
    for (int i = 0; i < n_gpus; i++)
        s->ranks[i] = i;
    return s;
}

cr_rankset *cr_rankset_dup(const cr_rankset *s)
{
    if (!s)
        return NULL;
    cr_rankset *c = alloc_set(s->n);
    if (!c)
        return NULL;
    memcpy(c->ranks, s->ranks, (size_t)s->n * sizeof *s->ranks);
    return c;
}

int cr_rankset_index(const cr_rankset *s, int r)
{
    for (int i = 0; i < s->n; i++)
        if (s->ranks[i] == r)
            return i;
    return -1;
}

/* Checks range and duplicates with a bitmap over n_gpus. */
static cr_status validate(const int *ranks, int n, int n_gpus, const char *spec, cr_diag *d)
{
    if (n < 1)
        return cr_diag_set(d, CR_EINVAL, "rank set is empty; give at least one rank (" FORMS ")");
    unsigned char *seen = calloc((size_t)n_gpus, 1);
    if (!seen)
        return cr_diag_set(d, CR_ENOMEM, "out of memory checking a rank set of %d ranks", n);
    cr_status st = CR_OK;
    for (int i = 0; i < n; i++) {
        int r = ranks[i];
        if (r < 0 || r >= n_gpus) {
            if (n_gpus == 1)
                st = cr_diag_set(d, CR_ERANGE,
                                 "rank %d%s%s%s is out of range: the topology has 1 GPU (rank 0)",
                                 r, spec ? " in \"" : "", spec ? spec : "", spec ? "\"" : "");
            else
                st = cr_diag_set(d, CR_ERANGE,
                                 "rank %d%s%s%s is out of range: the topology has %d "
                                 "GPUs (ranks 0-%d)",
                                 r, spec ? " in \"" : "", spec ? spec : "", spec ? "\"" : "",
                                 n_gpus, n_gpus - 1);
            break;
        }
        if (seen[r]) {
            st = cr_diag_set(d, CR_EINVAL,
                             "rank %d appears twice%s%s%s; each GPU may take part once", r,
                             spec ? " in \"" : "", spec ? spec : "", spec ? "\"" : "");
            break;
        }
        seen[r] = 1;
    }
    free(seen);
    return st;
}

cr_status cr_rankset_from_array(const int *ranks, int n, int n_gpus, cr_rankset **out, cr_diag *d)
{
    *out = NULL;
    if (n_gpus < 1)
        return cr_diag_set(d, CR_EINVAL, "topology has no GPUs");
    cr_status st = validate(ranks, n, n_gpus, NULL, d);
    if (st != CR_OK)
        return st;
    cr_rankset *s = alloc_set(n);
    if (!s)
        return cr_diag_set(d, CR_ENOMEM, "out of memory for a rank set of %d ranks", n);
    memcpy(s->ranks, ranks, (size_t)n * sizeof *ranks);
    *out = s;
    return CR_OK;
}

/* Reads a non-negative decimal at *p (no sign, no spaces). Returns 0 on
 * success and advances *p. */
static int read_uint(const char **p, long *v)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return -1;
    long x = 0;
    while (*s >= '0' && *s <= '9') {
        x = x * 10 + (*s - '0');
        if (x > 1000000000L)
            return -2;
        s++;
    }
    *v = x;
    *p = s;
    return 0;
}

/* The message for a number past read_uint's limit at `at` in spec. */
static cr_status too_large(const char *spec, const char *at, cr_diag *d)
{
    return cr_diag_set(d, CR_ERANGE, "rank set \"%s\": number at column %d is too large", spec,
                       (int)(at - spec) + 1);
}

cr_status cr_rankset_parse(const char *spec, int n_gpus, cr_rankset **out, cr_diag *d)
{
    *out = NULL;
    if (n_gpus < 1)
        return cr_diag_set(d, CR_EINVAL, "topology has no GPUs");
    if (!spec || !*spec)
        return cr_diag_set(d, CR_EPARSE, "empty rank set; use " FORMS);
    if (strcmp(spec, "all") == 0) {
        *out = cr_rankset_all(n_gpus);
        return *out ? CR_OK : cr_diag_set(d, CR_ENOMEM, "out of memory for %d ranks", n_gpus);
    }
    size_t cap = 16;
    int n = 0;
    int *ranks = malloc(cap * sizeof *ranks);
    if (!ranks)
        return cr_diag_set(d, CR_ENOMEM, "out of memory parsing rank set");
    cr_status st = CR_OK;
    const char *p = spec;
    for (;;) {
        long lo, hi, stride = 1;
        const char *item = p;
        int rc = read_uint(&p, &lo);
        if (rc != 0) {
            st = rc == -2 ? too_large(spec, item, d)
                          : cr_diag_set(d, CR_EPARSE,
                                        "rank set \"%s\": expected a rank at column %d; use " FORMS,
                                        spec, (int)(item - spec) + 1);
            goto out;
        }
        hi = lo;
        if (*p == '-') {
            p++;
            const char *at = p;
            if ((rc = read_uint(&p, &hi)) != 0) {
                st = rc == -2 ? too_large(spec, at, d)
                              : cr_diag_set(d, CR_EPARSE,
                                            "rank set \"%s\": expected the end of a range at "
                                            "column %d (e.g. \"0-7\")",
                                            spec, (int)(at - spec) + 1);
                goto out;
            }
            if (*p == ':') {
                p++;
                at = p;
                if ((rc = read_uint(&p, &stride)) != 0) {
                    st = rc == -2 ? too_large(spec, at, d)
                                  : cr_diag_set(d, CR_EPARSE,
                                                "rank set \"%s\": expected a stride at column %d "
                                                "(e.g. \"0-8191:8\")",
                                                spec, (int)(at - spec) + 1);
                    goto out;
                }
                if (stride == 0) {
                    st = cr_diag_set(d, CR_ERANGE,
                                     "rank set \"%s\": stride 0 at column %d; a stride is >= 1",
                                     spec, (int)(at - spec) + 1);
                    goto out;
                }
            }
            /* what follows the item first: "1-0x3" is a stray 'x', not a
             * backwards range */
            if (*p != '\0' && *p != ',') {
                st = cr_diag_set(d, CR_EPARSE,
                                 "rank set \"%s\": unexpected '%c' at column %d; use " FORMS, spec,
                                 *p, (int)(p - spec) + 1);
                goto out;
            }
            if (hi < lo) {
                st = cr_diag_set(d, CR_ERANGE,
                                 "rank set \"%s\": range %ld-%ld runs backwards; write it as "
                                 "%ld-%ld",
                                 spec, lo, hi, hi, lo);
                goto out;
            }
        }
        if (hi >= n_gpus) {
            if (n_gpus == 1)
                st = cr_diag_set(d, CR_ERANGE,
                                 "rank set \"%s\": rank %ld is out of range: the topology has 1 "
                                 "GPU (rank 0)",
                                 spec, hi);
            else
                st = cr_diag_set(d, CR_ERANGE,
                                 "rank set \"%s\": rank %ld is out of range: the topology has %d "
                                 "GPUs (ranks 0-%d)",
                                 spec, hi, n_gpus, n_gpus - 1);
            goto out;
        }
        for (long r = lo; r <= hi; r += stride) {
            if ((size_t)n == cap) {
                if (cap >= (size_t)n_gpus) { /* more items than GPUs: a duplicate follows */
                    st = validate(ranks, n, n_gpus, spec, d);
                    if (st == CR_OK)
                        st = cr_diag_set(d, CR_EINVAL,
                                         "rank set \"%s\" names more ranks than the %d GPUs", spec,
                                         n_gpus);
                    goto out;
                }
                if (cr_grow((void **)&ranks, &cap, cap + 1, sizeof *ranks)) {
                    st = cr_diag_set(d, CR_ENOMEM, "out of memory parsing rank set");
                    goto out;
                }
            }
            ranks[n++] = (int)r;
        }
        if (*p == '\0')
            break;
        if (*p != ',') {
            st = cr_diag_set(d, CR_EPARSE,
                             "rank set \"%s\": unexpected '%c' at column %d; use " FORMS, spec, *p,
                             (int)(p - spec) + 1);
            goto out;
        }
        p++;
    }
    st = validate(ranks, n, n_gpus, spec, d);
    if (st != CR_OK)
        goto out;
    cr_rankset *s = calloc(1, sizeof *s);
    if (!s) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory parsing rank set");
        goto out;
    }
    s->n = n;
    s->ranks = ranks;
    ranks = NULL;
    *out = s;
out:
    free(ranks);
    return st;
}

/* Appends to buf at *len (snprintf semantics, tracking the full length). */
static void append(char *buf, size_t size, size_t *len, long a, long b, long c, int parts)
{
    char tmp[80];
    int k;
    if (parts == 1)
        k = snprintf(tmp, sizeof tmp, "%ld", a);
    else if (parts == 2)
        k = snprintf(tmp, sizeof tmp, "%ld-%ld", a, b);
    else
        k = snprintf(tmp, sizeof tmp, "%ld-%ld:%ld", a, b, c);
    if (k < 0)
        return;
    if (*len + 1 < size) {
        size_t room = size - *len - 1;
        size_t cp = (size_t)k < room ? (size_t)k : room;
        memcpy(buf + *len, tmp, cp);
        buf[*len + cp] = '\0';
    }
    *len += (size_t)k;
}

size_t cr_rankset_format(const cr_rankset *s, int n_gpus, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = '\0';
    int all = s->n == n_gpus;
    for (int i = 0; all && i < s->n; i++)
        all = s->ranks[i] == i;
    if (all) {
        if (size)
            cr_str_copy(buf, size, "all");
        return 3;
    }
    int i = 0;
    while (i < s->n) {
        if (i > 0) {
            if (len + 1 < size) {
                buf[len] = ',';
                buf[len + 1] = '\0';
            }
            len++;
        }
        /* Longest arithmetic run with a positive step starting at i. */
        int j = i + 1;
        long step = j < s->n ? (long)s->ranks[j] - s->ranks[i] : 0;
        if (step > 0) {
            while (j + 1 < s->n && (long)s->ranks[j + 1] - s->ranks[j] == step)
                j++;
        } else {
            j = i;
        }
        int run = j - i + 1;
        if (run >= 3 || (run == 2 && step == 1)) {
            if (step == 1)
                append(buf, size, &len, s->ranks[i], s->ranks[j], 0, 2);
            else
                append(buf, size, &len, s->ranks[i], s->ranks[j], step, 3);
            i = j + 1;
        } else {
            append(buf, size, &len, s->ranks[i], 0, 0, 1);
            i++;
        }
    }
    return len;
}

/* ncclGetBtree (src/graph/trees.cc): parent and children by the lowest set
 * bit of r. In long long: for n above 2^30 NCCL's int arithmetic overflows
 * (bit << 1 of r's lowest bit 2^30), undefined behaviour where the header
 * promises an answer for every r in [0, n) (QA audit of the API). */
static int btree(int n, int r, int *n_children)
{
    long long bit;
    for (bit = 1; bit < n; bit <<= 1)
        if (bit & r)
            break;
    int kids = 0;
    long long up = -1;
    if (r == 0) {
        kids = n > 1 ? 1 : 0;
    } else {
        up = (r ^ bit) | (bit << 1);
        if (up >= n)
            up = r ^ bit;
        long long lowbit = bit >> 1;
        if (lowbit) {
            kids = 1; /* down0 = r - lowbit is always within bounds */
            long long down1 = r + lowbit;
            while (down1 >= n) {
                down1 = lowbit == 0 ? -1 : r + lowbit;
                lowbit >>= 1;
            }
            kids += down1 >= 0;
        }
    }
    if (n_children)
        *n_children = kids;
    return (int)up;
}

int cr_nccl_dtree(int n, int r, int tree, int *n_children)
{
    if (n < 1 || r < 0 || r >= n || (tree != 0 && tree != 1)) {
        if (n_children)
            *n_children = 0;
        return -1;
    }
    if (tree == 0)
        return btree(n, r, n_children);
    if (n % 2 == 1) {
        int u = btree(n, (int)(((long long)r - 1 + n) % n), n_children);
        return u < 0 ? -1 : (int)(((long long)u + 1) % n);
    }
    int u = btree(n, n - 1 - r, n_children);
    return u < 0 ? -1 : n - 1 - u;
}
