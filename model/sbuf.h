/* SPDX-License-Identifier: MIT */
/*
 * cr_sbuf: a growable string, the one the library builds text with (the
 * generated topologies of topo_gen.c, the saved ones of topo_xml.c; the
 * tables, HTML and gnuplot scripts of plots/, which adds its gnuplot quoting
 * in plots/sbuf_priv.h).
 *
 *   cr_sbuf b = {0};
 *   cr_sbuf_add(&b, "<gpu id=\"");
 *   cr_sbuf_xml(&b, id);
 *   cr_sbuf_add(&b, "\"/>\n");
 *   if (b.oom) ... ; use b.p (b.len bytes) ... ; cr_sbuf_release(&b);
 */
#ifndef CR_SBUF_H
#define CR_SBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef struct {
    char *p; /* NUL-terminated once anything was added; owned */
    size_t len, cap;
    bool oom; /* an allocation failed: the text is incomplete */
} cr_sbuf;

/* Appends formatted text; on allocation failure sets b->oom and stops. */
void cr_sbuf_add(cr_sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends the n bytes at s as they are (no format: the fast path of a large
 * text, topo_xml.c's saver); on allocation failure sets b->oom and stops. */
void cr_sbuf_put(cr_sbuf *b, const char *s, size_t n);

/* Appends s with <, >, & and " escaped: text for HTML, and an attribute
 * value or text for XML. NULL appends nothing. */
void cr_sbuf_xml(cr_sbuf *b, const char *s);

/* Appends s as one POSIX shell word, for a command shown to be pasted
 * into a shell: as it is when it holds only letters, digits and _./,:=+-@%,
 * else in single quotes, each ' as '\''. A file name "r`id` $(x).gp" in a
 * "re-render: gnuplot NAME.gp" hint ran id when pasted. NULL or "" appends
 * ''. */
void cr_sbuf_shell(cr_sbuf *b, const char *s);

/* Frees the text; b is empty after. */
void cr_sbuf_release(cr_sbuf *b);

/* snprintf, vsnprintf and strtod in the C locale, whatever the host
 * program set: the library's numbers in and out (topology XML, suites,
 * nccl-tests logs, units, data files, messages) are C-locale text, and a
 * host that called setlocale(LC_ALL, "") under de_DE had strtod stop at the
 * '.' of every "3.35TB/s" (no shipped topology loaded) and printf write
 * "1,5GB/s" (QA audit of re-entrancy). Each call switches its own thread
 * alone (uselocale) and back, so the host's threads and locale stay as
 * they were. cr_sbuf_add and cr_diag_set format through them. */
int cr_snprintf_c(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int cr_vsnprintf_c(char *buf, size_t size, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
double cr_strtod_c(const char *s, char **end);

/* Copies src into the fixed-size dst, cut to fit and always
 * NUL-terminated, like snprintf(dst, size, "%s", src) at a fraction of its
 * cost: the prediction path names its terms and algorithms this way many
 * thousand times a second (calibrate --nccl-tests). A NULL src copies as
 * the empty string; size 0 writes nothing, as snprintf (public functions
 * hand their caller's (buf, size) down here: cr_op_param_format and
 * cr_gpu_catalog_gcn_name copied SIZE_MAX bytes for size 0, QA audit of
 * the API). Returns whether src fitted whole. */
static inline bool cr_str_copy(char *dst, size_t size, const char *src)
{
    if (!src)
        src = "";
    if (size == 0)
        return false;
    size_t n = strlen(src);
    bool whole = n < size;
    if (!whole)
        n = size - 1;
    memmove(dst, src, n); /* src may lie inside dst */
    dst[n] = '\0';
    return whole;
}

#pragma GCC visibility pop

#endif
