/* SPDX-License-Identifier: MIT */
/*
 * validate: the nccl-tests / rccl-tests log reader (validate.h,
 * cr_validate_read_nccl_tests), one reader for validate and calibrate.
 *
 * Logs come as people paste them (validate/corpus/README.md shows each
 * shape on published logs): launcher prefixes on every line, header lines
 * without their '#', no "# Collective test starting" line, no rank lines
 * or only some of them, NCCL_DEBUG output inside the table and inside a
 * row. The reader takes the rows first and decides each table's rank count
 * once the table is whole: from the rank lines, the rows' busbw/algbw
 * ratio or the caller's count (cr_nccl_log_opts), and says which.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "sbuf.h"
#include "coll.h"
#include "fileio.h"
#include "grow.h"
#include "harness.h"
#include "nccl_log_priv.h"
#include "units.h"
#include "validate.h"
#include "validate_priv.h"

static const struct {
    const char *word; /* in "<word>_perf" */
    const char *coll;
} nccl_tests_names[] = {
    {"all_reduce", "allreduce"}, {"all_gather", "allgather"}, {"reduce_scatter", "reducescatter"},
    {"alltoall", "alltoall"},    {"broadcast", "broadcast"},  {"reduce", "reduce"},
    {"sendrecv", "sendrecv"},    {"gather", "gather"},        {"scatter", "scatter"}};

const char *cr_ntlog_coll_in(const char *s)
{
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof nccl_tests_names / sizeof nccl_tests_names[0]; i++) {
        char w[32];
        snprintf(w, sizeof w, "%s_perf", nccl_tests_names[i].word);
        if (strstr(s, w) && strlen(w) > best_len) {
            best = nccl_tests_names[i].coll;
            best_len = strlen(w);
        }
    }
    return best;
}

/* The part number in a GPU's name, the first of these it holds, upper or
 * lower case (a longer one first where one holds another: GH200 before
 * H200); NULL none. A GB200's GPU is a B200. */
static const char *gpu_part(const char *name)
{
    static const char *const parts[][2] = {
        {"GB200", "B200"},    {"GH200", "GH200"},   {"B200", "B200"},     {"B100", "B100"},
        {"H200", "H200"},     {"H100", "H100"},     {"H800", "H800"},     {"H20", "H20"},
        {"A100", "A100"},     {"A800", "A800"},     {"A40", "A40"},       {"A30", "A30"},
        {"A10", "A10"},       {"L40S", "L40S"},     {"L40", "L40"},       {"V100", "V100"},
        {"MI355X", "MI355X"}, {"MI325X", "MI325X"}, {"MI308X", "MI308X"}, {"MI300X", "MI300X"},
        {"MI300A", "MI300A"}, {"MI250X", "MI250X"}, {"2080", "RTX 2080"}, {"3090", "RTX 3090"},
        {"4090", "RTX 4090"}, {"TPU", "TPU"}};
    for (size_t i = 0; name && i < sizeof parts / sizeof parts[0]; i++) {
        size_t k = strlen(parts[i][0]);
        for (const char *p = name; *p; p++)
            if (!strncasecmp(p, parts[i][0], k))
                return parts[i][1];
    }
    return NULL;
}

const char *cr_validate_gpu_part(const char *name)
{
    return gpu_part(name);
}

bool cr_validate_gpu_differs(const cr_topo *t, const char *gpu, char *why, size_t n)
{
    const char *lp = gpu_part(gpu);
    if (!lp || !t->n_gpu_specs)
        return false;
    const char *tp = NULL;
    for (int i = 0; i < t->n_gpu_specs; i++) {
        const char *p = gpu_part(t->gpu_specs[i].name);
        if (p && !strcmp(p, lp))
            return false;
        tp = tp ? tp : p;
    }
    if (!tp)
        return false;
    snprintf(why, n, "%s (\"%s\"), topology %s has %s", lp, gpu, t->name, tp);
    return true;
}

bool cr_nccl_log_gpu_differs(const cr_topo *t, const char *log_gpu, char *why, size_t n)
{
    char w[200];
    if (!cr_validate_gpu_differs(t, log_gpu, w, sizeof w))
        return false;
    snprintf(why, n, "its rank lines name %s", w);
    return true;
}

const char *cr_nccl_log_coll(const char *s, cr_diag *d)
{
    /* an nccl-tests binary name, with its path and the _perf / _perf_mpi
     * tail: the collective is the part before "_perf" */
    char buf[64];
    cr_str_copy(buf, sizeof buf, s ? cr_vbase_name(s) : "");
    char *perf = strstr(buf, "_perf");
    if (perf && (!strcmp(perf, "_perf") || !strcmp(perf, "_perf_mpi")))
        *perf = '\0';
    cr_coll c;
    cr_diag sub = {{0}};
    if (cr_coll_parse(buf, &c, &sub) != CR_OK) {
        cr_diag_set(d, CR_ENOTFOUND, "%s (or an nccl-tests binary name such as all_reduce_perf)",
                    sub.msg);
        return NULL;
    }
    return cr_coll_name(c);
}

/* Column layout of one nccl-tests result table, read from its header line.
 * Every release names its columns there and they moved: 2.11 added "root"
 * (before it the out-of-place time was the fifth column), releases before
 * 2.11 printed no "redop" column for all_gather / alltoall, the first ones
 * said "bytes N type op ... res", recent ones "#wrong" for "error". */
typedef struct {
    int time_col;  /* first "time": the out-of-place time, us */
    int type_col;  /* "type", or -1 */
    int n_cols;    /* columns the header names */
    int line;      /* header line (0: none yet, the 2.11+ layout assumed) */
    bool cpu_time; /* the time column is "cputime" (nccl-tests -C 1) */
    bool in_place; /* the title above the header says in-place only (rccl-tests -O 0) */
    int wrong_col; /* the out-of-place "#wrong" (elements the check found wrong), or -1 */
} nt_layout;

enum { NT_MAX_TOK = 40, NT_LINE = 4096 };

/* Splits s at blanks into at most NT_MAX_TOK tokens (s is modified). */
static int nt_split(char *s, char **tok)
{
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(s, " \t\r\n", &save); p && n < NT_MAX_TOK;
         p = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = p;
    return n;
}

static bool nt_all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

/* A whole number as a size could be mistyped: digits, with a sign, or in
 * hex ("512", "-512", "0x10"). */
static bool nt_number_like(const char *s)
{
    if (*s == '-' || *s == '+')
        return nt_all_digits(s + 1);
    if (s[0] == '0' && s[1] == 'x')
        return s[2] && strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2);
    /* a size written as a real (2.6e5, 262144.0) or with digit groups
     * (8,589,934,592; 8_589_934_592): a row nccl-tests never prints,
     * edited or converted, whose size must be said, not the row dropped */
    if (isdigit((unsigned char)s[0]) && strspn(s, "0123456789.eE+-,_") == strlen(s))
        return true;
    /* a size with a unit (4K, 2M, 128MB, 1GiB, 8B: a table rewritten for
     * people to read), which was skipped as no row, the rest of the table
     * read without it */
    size_t n = strspn(s, "0123456789.");
    if (n && isdigit((unsigned char)s[0])) {
        const char *u = s + n;
        if (strchr("kKmMgGtT", *u) && *u)
            u += 1 + (u[1] == 'i');
        if (*u == 'B' || *u == 'b')
            u++;
        if (u > s + n && !*u)
            return true;
    }
    return nt_all_digits(s);
}

/* A header line's text after its '#' ("size count type redop root time
 * algbw busbw #wrong time ..."): sets the layout and returns true. */
static bool nt_header(const char *body, int line_no, nt_layout *lay)
{
    char buf[NT_LINE], *tok[NT_MAX_TOK];
    cr_str_copy(buf, sizeof buf, body);
    int n = nt_split(buf, tok);
    if (n < 4 || (strcmp(tok[0], "size") && strcmp(tok[0], "bytes")))
        return false;
    int tc = -1, ty = -1;
    for (int i = 0; i < n; i++) {
        /* -C 1 names the time column "cputime" (src/util.cu
         * writeResultHeader): still the header, whose rows are refused */
        if (tc < 0 && (!strcmp(tok[i], "time") || !strcmp(tok[i], "cputime")))
            tc = i;
        if (ty < 0 && !strcmp(tok[i], "type"))
            ty = i;
    }
    if (tc < 1)
        return false;
    int wc = -1;
    for (int i = tc + 1; i < n && wc < 0; i++)
        if (!strcmp(tok[i], "#wrong"))
            wc = i;
    *lay = (nt_layout){tc, ty, n, line_no, !strcmp(tok[tc], "cputime"), false, wc};
    return true;
}

/* "fp32" etc. for nccl-tests' type names (its test_typenames: int8, uint8,
 * int32, uint32, int64, uint64, half, float, double, bfloat16, and the fp8
 * pair f8e4m3, f8e5m2), or NULL for a name the model has no type for (the
 * 4- and 8-byte integers) or that nccl-tests never prints: such a row was
 * read as fp32 before, and predicted as fp32 (an NVLS allreduce of an
 * unknown type among them). */
const char *cr_ntlog_dtype(const char *type)
{
    static const struct {
        const char *nt, *cr;
    } map[] = {{"float", "fp32"},   {"half", "fp16"},  {"bfloat16", "bf16"},
               {"double", "fp64"},  {"f8e4m3", "fp8"}, {"f8e5m2", "fp8"},
               {"fp8_e4m3", "fp8"}, {"int8", "int8"},  {"uint8", "int8"}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(type, map[i].nt))
            return map[i].cr;
    return NULL;
}

static void nt_set(cr_vmeas *m, const char *key, const char *value)
{
    int k = m->c.n_keys++;
    cr_str_copy(m->c.kv[k].key, sizeof m->c.kv[k].key, key);
    cr_str_copy(m->c.kv[k].value, sizeof m->c.kv[k].value, value);
}

/* Removes terminal control sequences from line (in place): a log captured
 * from a coloured terminal (a job wrapper that paints rows, `script`, a CI
 * console) carries ECMA-48 CSI sequences, ESC '[' parameters intermediates
 * final byte, around rows or single figures; left in, they make a coloured
 * row unreadable or a figure not a number. An ESC not starting a CSI goes
 * alone (its byte would end a figure the same way). */
static void nt_strip_ansi(char *line)
{
    char *w = strchr(line, '\x1b'); /* most lines have none: nothing moves */
    if (!w)
        return;
    for (const char *r = w; *r;) {
        if (*r != '\x1b') {
            *w++ = *r++;
            continue;
        }
        r++;
        if (*r != '[')
            continue;
        r++;
        r += strspn(r, "0123456789:;<=>?");
        r += strspn(r, " !\"#$%&'()*+,-./");
        if (*r >= 0x40 && *r <= 0x7e)
            r++;
    }
    *w = '\0';
}

/* The length of the RFC 3339 time at the start of s followed by a blank
 * ("2025-12-04T10:00:00.123456789Z " of kubectl logs --timestamps and
 * docker logs -t), or 0. No nccl-tests line starts with one. */
static size_t nt_rfc3339_len(const char *s)
{
    /* the shape, '9' standing for a digit */
    static const char shape[] = "9999-99-99T99:99:99";
    size_t k = 0;
    for (; shape[k]; k++)
        if (shape[k] == '9' ? !isdigit((unsigned char)s[k]) : s[k] != shape[k])
            return 0;
    if (s[k] == '.' && isdigit((unsigned char)s[k + 1]))
        k += 1 + strspn(s + k + 1, "0123456789");
    if (s[k] == 'Z')
        k++;
    else if ((s[k] == '+' || s[k] == '-') && isdigit((unsigned char)s[k + 1]) &&
             isdigit((unsigned char)s[k + 2]) && s[k + 3] == ':' &&
             isdigit((unsigned char)s[k + 4]) && isdigit((unsigned char)s[k + 5]))
        k += 6;
    else
        return 0;
    return s[k] == ' ' ? k + 1 : 0;
}

/* Removes launcher prefixes from line (in place) and returns where its text
 * starts: every "[1,0]<stdout>:" / "<stderr>:" tag of mpirun --tag-output
 * (anywhere: mpirun tags each flush, so a row printed in pieces carries the
 * tag inside it too), then a leading "(...) " of a launcher that names the
 * process it relays (Ray and SkyPilot: "(head, rank=0, pid=3808) "; no
 * nccl-tests line starts with a parenthesis), then a leading "0: " of
 * srun -l (task number, colon, blank) or "node-1: " of pdsh. Before all of them, the time and
 * the "[pod/NAME/CONTAINER] " a log read back from Kubernetes or Docker
 * carries (kubectl logs --timestamps --prefix, docker logs -t), in either
 * order; and before those, the "> " of a quoted log. */
static char *nt_strip_prefixes(char *line)
{
    /* a log pasted through a web page may carry no-break spaces (UTF-8
     * C2 A0) where it had blanks: one blank again each, or its rows go
     * unread, and its "Collective test starting:" (matched with one blank
     * between the words) went unread as two blanks */
    for (char *p = line; (p = strstr(p, "\xc2\xa0"));) {
        p[0] = ' ';
        memmove(p + 1, p + 2, strlen(p + 2) + 1);
        p++;
    }
    /* and tabs are blanks wherever nccl-tests puts a space ("Collective
     * test starting:" retyped with tabs included) */
    for (char *p = line; (p = strchr(p, '\t'));)
        *p = ' ';
    nt_strip_ansi(line);
    for (char *p = line; (p = strchr(p, '['));) {
        char *q = p + 1;
        size_t a = strspn(q, "0123456789");
        size_t len = 0;
        if (a && q[a] == ',') {
            size_t b = strspn(q + a + 1, "0123456789");
            const char *tag = q + a + 1 + b;
            if (b && (!strncmp(tag, "]<stdout>:", 10) || !strncmp(tag, "]<stderr>:", 10)))
                len = (size_t)(tag + 10 - p);
        }
        if (len)
            memmove(p, p + len, strlen(p + len) + 1);
        else
            p++;
    }
    char *s = line + strspn(line, " \t");
    /* a log quoted in a GitHub comment or an e-mail: "> " (or "> > ")
     * before every line; no nccl-tests line starts with '>' */
    while (*s == '>')
        s += 1 + strspn(s + 1, " \t");
    for (int k = 0; k < 2; k++) {
        s += nt_rfc3339_len(s);
        if (!strncmp(s, "[pod/", 5)) {
            char *e = strstr(s, "] ");
            if (e)
                s = e + 2;
        }
    }
    if (*s == '(') {
        char *e = strchr(s, ')');
        if (e && e[1] == ' ')
            s = e + 2 + strspn(e + 2, " \t");
    }
    /* srun -l's task number, or pdsh's host name (DeepSpeed's launcher):
     * one word of a host name's characters, a colon and a blank. No
     * nccl-tests line starts so (its "Collective test starting:" has
     * blanks before the colon; NCCL_DEBUG's "host:pid:tid" no blank after
     * it) */
    size_t k = isalnum((unsigned char)*s)
                   ? strspn(s, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-")
                   : 0;
    if (k && s[k] == ':' && (s[k + 1] == ' ' || s[k + 1] == '\t' || s[k + 1] == '\n'))
        s += k + 1;
    return s;
}

/* Where an NCCL_DEBUG message ("host:pid:tid [dev] NCCL INFO ...") starts
 * in s, or NULL: the start of the blank-free word before " [dev] NCCL". */
static char *nt_debug_start(char *s)
{
    static const char *const marks[] = {"] NCCL INFO", "] NCCL WARN", "] NCCL TRACE"};
    char *m = NULL;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        char *x = strstr(s, marks[i]);
        if (x && (!m || x < m))
            m = x;
    }
    if (!m)
        return NULL;
    char *p = m;
    while (p > s && p[-1] != '[')
        p--;
    if (p == s) /* no "[dev]": take the line as debug output from its start */
        return s;
    p--; /* at '[' */
    while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    while (p > s && p[-1] != ' ' && p[-1] != '\t')
        p--;
    return p;
}

/* The text after '#' of a header line, or of a line that lost its '#'
 * (dstack's rendering drops them): the words nccl-tests starts its header
 * lines with. NULL: not a header line. */
static const char *nt_comment(const char *s)
{
    if (*s == '#')
        return s + 1 + strspn(s + 1, " \t");
    static const char *const words[] = {
        "nThread ",      "Rank ",         "Collective test ",   "size ",
        "bytes ",        "Using devices", "nccl-tests version", "Avg bus bandwidth",
        "Out of bounds", "(B) "};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strncmp(s, words[i], strlen(words[i])))
            return s;
    return NULL;
}

/* Whether body is the title line nccl-tests prints above its header, its
 * words only "out-of-place" and "in-place" (and -I 1's "(+
 * per-iteration)"); *in_place_only: it names in-place alone. */
static bool nt_place_title(const char *body, bool *in_place_only)
{
    char buf[NT_LINE], *tok[NT_MAX_TOK];
    cr_str_copy(buf, sizeof buf, body);
    int n = nt_split(buf, tok);
    bool in = false, out = false;
    for (int i = 0; i < n; i++) {
        if (!strcmp(tok[i], "in-place"))
            in = true;
        else if (!strcmp(tok[i], "out-of-place"))
            out = true;
        else if (strcmp(tok[i], "(+") && strcmp(tok[i], "per-iteration)"))
            return false;
    }
    if (!in && !out)
        return false;
    *in_place_only = in && !out;
    return true;
}

/* The operations one timed loop runs, from nccl-tests' "# nThread" line:
 * "iters: 20" times "agg iters: 4" (1 when absent; older releases print
 * "warmupIters: 5 iters: 20" and no agg), src/common.cu. 0 when the line
 * does not say or says something out of range. */
static int nt_loop_ops(const char *body)
{
    long iters = 0, agg = 1;
    for (const char *p = strstr(body, "iters:"); p; p = strstr(p + 1, "iters:")) {
        char *end;
        long v = strtol(p + 6, &end, 10); /* an overlong number saturates: out of range below */
        if (end == p + 6)
            continue;
        size_t at = (size_t)(p - body);
        bool warm = at >= 7 && !strncmp(p - 7, "warmup ", 7); /* "warmupIters:" never matches */
        bool is_agg = at >= 4 && !strncmp(p - 4, "agg ", 4);
        if (is_agg)
            agg = v;
        else if (!warm)
            iters = v;
    }
    if (iters < 1 || agg < 1 || iters > 1000000 || agg > 1000000 || iters * agg > 1000000)
        return 0;
    return (int)(iters * agg);
}

/* The bounds of a number printed with its rounding: "12.34" is in
 * [12.335, 12.345]. False when tok is not a plain non-negative number. */
static bool nt_printed(const char *tok, double *lo, double *hi)
{
    char *end = NULL;
    double v = cr_strtod_c(tok, &end);
    if (end == tok || *end || !isfinite(v) || v < 0 || strpbrk(tok, "eExXnN"))
        return false;
    const char *dot = strchr(tok, '.');
    double h = 0.5 * pow(10.0, -(double)(dot ? strlen(dot + 1) : 0));
    *lo = v - h > 0 ? v - h : 0;
    *hi = v + h;
    return true;
}

cr_status cr_ntlog_add_row(nt_reader *R, int at, nt_row **row, cr_diag *d)
{
    char where[300];
    if (R->n_rows >= CR_NCCL_LOG_MAX_ROWS)
        return cr_diag_set(d, CR_ERANGE,
                           "%s: more than %d result rows (the limit; an nccl-tests sweep has a "
                           "few thousand at most): split the file, or give the sizes you need",
                           cr_ntlog_at(R, at, where, sizeof where), CR_NCCL_LOG_MAX_ROWS);
    if (cr_grow((void **)&R->rows, &R->cap_rows, R->n_rows + 1, sizeof *R->rows))
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", R->path);
    *row = &R->rows[R->n_rows++];
    memset(*row, 0, sizeof **row);
    (*row)->line = at;
    return CR_OK;
}

bool cr_ntlog_algbw_agrees(double bytes, double t_lo, double t_hi, double a_lo, double a_hi)
{
    /* how far size / time may stray from algbw beyond the two figures'
     * rounding before the row is taken as misread */
    const double slack = 1.01;
    return !(t_lo > 0) ||
           (bytes / t_hi / 1e3 <= a_hi * slack && bytes / t_lo / 1e3 >= a_lo / slack);
}

void cr_ntlog_set_ratio(nt_row *r, double a_lo, double a_hi, double b_lo, double b_hi)
{
    if (!(a_lo > 0))
        return;
    r->has_ratio = true;
    r->r_lo = b_lo / a_hi;
    r->r_hi = b_hi / a_lo;
}

cr_status cr_ntlog_pick_coll(const char *own, const char *opt, const char *file, nt_table *T)
{
    if (own && opt && strcmp(own, opt))
        return CR_EINVAL;
    T->coll = own ? own : opt ? opt : file;
    T->coll_src = own ? "log" : opt ? "--coll" : "file name";
    return T->coll ? CR_OK : CR_ENOTFOUND;
}

const char *cr_ntlog_at(const nt_reader *R, int at, char *buf, size_t n)
{
    if (R->json)
        snprintf(buf, n, "%s: results[%d]", R->path, at);
    else
        snprintf(buf, n, "%s:%d", R->path, at);
    return buf;
}

/* Decides table t's rank count from its rows (see validate.h). */
static cr_status nt_resolve(nt_reader *R, size_t t, cr_diag *d)
{
    nt_table *T = &R->tabs[t];
    char where[300];
    cr_ntlog_at(R, T->first_line, where, sizeof where);
    /* what told the rank count, as the message names it */
    const char *listed = R->json ? "the \"devices\" list gives" : "the rank lines list";
    const char *no_list = R->json ? "no \"devices\" list" : "no \"#  Rank N Group ...\" lines";
    const char *at_w = R->json ? "results[" : "line ", *at_end = R->json ? "]" : "";
    cr_coll c;
    if (cr_coll_parse(T->coll, &c, NULL) != CR_OK)
        return cr_diag_set(d, CR_EPARSE, "%s: unknown collective %s", where, T->coll);
    /* busbw = algbw x k(n-1)/n: k = 2 for allreduce, 1 for the others that
     * depend on n; broadcast, reduce and sendrecv print busbw = algbw */
    double k = 2 * cr_coll_busbw_factor(c, 2);
    bool informs = cr_coll_busbw_factor(c, 2) != cr_coll_busbw_factor(c, 3);
    /* the rows that set the tightest limits: the least n one row allows
     * (lo) and the largest (hi); where they cross, those two rows are the
     * evidence a message names */
    double lo = 1, hi = INFINITY;
    int used = 0, lo_line = 0, hi_line = 0;
    double lo_ratio = 0, hi_ratio = 0;
    for (size_t i = 0; informs && i < R->n_rows; i++) {
        const nt_row *r = &R->rows[i];
        if (r->table != (int)t || !r->has_ratio)
            continue;
        double a = r->r_lo < k ? k / (k - r->r_lo) : INFINITY;
        double b = r->r_hi < k ? k / (k - r->r_hi) : INFINITY;
        used++;
        if (a > lo) {
            lo = a;
            lo_line = r->line;
            lo_ratio = (r->r_lo + r->r_hi) / 2;
        }
        if (b < hi) {
            hi = b;
            hi_line = r->line;
            hi_ratio = (r->r_lo + r->r_hi) / 2;
        }
    }
    bool ratio = informs && used > 0;
    double nmin = ceil(lo - 1e-9), nmax = hi < 1e9 ? floor(hi + 1e-9) : 1e9;
    const char *cn = cr_coll_name(c);
    /* broadcast, reduce and sendrecv print busbw = algbw: a row whose
     * ratio cannot be 1 is another collective's (an all_reduce table
     * under sendrecv_perf.log was predicted as a sendrecv, 41 % off) */
    for (size_t i = 0; !informs && i < R->n_rows; i++) {
        const nt_row *r = &R->rows[i];
        if (r->table != (int)t || !r->has_ratio || (r->r_lo <= 1 + 1e-9 && r->r_hi >= 1 - 1e-9))
            continue;
        return cr_diag_set(d, CR_EPARSE,
                           "%s: the row at %s%d%s has busbw/algbw %.4f, where %s prints busbw = "
                           "algbw: the table is not %s (give --coll) or its rows were edited",
                           where, at_w, r->line, at_end, (r->r_lo + r->r_hi) / 2, cn, cn);
    }
    /* with rank lines or without: rows of another collective would be
     * predicted as this one (a concatenated log, a wrong --coll) */
    if (ratio && nmin > nmax) {
        char at[96];
        if (!hi_line || hi_line == lo_line)
            cr_snprintf_c(at, sizeof at, "%.4f at %s%d%s", lo_ratio, at_w, lo_line, at_end);
        else
            cr_snprintf_c(at, sizeof at, "%.4f at %s%d%s, %.4f at %s%d%s", lo_ratio, at_w, lo_line,
                          at_end, hi_ratio, at_w, hi_line, at_end);
        return cr_diag_set(d, CR_EPARSE,
                           "%s: the rows' busbw/algbw (%s) fit no rank count of %s, whose "
                           "factor is %s: the table is not %s (give --coll) or its rows were "
                           "edited",
                           where, at, cn, k > 1.5 ? "2(n-1)/n" : "(n-1)/n", cn);
    }
    int given = R->o ? R->o->nranks : 0;
    bool given_fits = given > 0 && (!ratio || (given >= nmin && given <= nmax));
    /* the rank lines count the run unless the rows' ratio or the run's own
     * "nGpus" (GPUs one thread drives: at least that many ranks) says
     * their list is cut short */
    bool lines_short = T->rank_lines > 0 && T->rank_lines < T->gpus_per_thread;
    if (T->rank_lines > 0 && !lines_short &&
        (!ratio || (T->rank_lines >= nmin && T->rank_lines <= nmax))) {
        T->nranks = T->rank_lines;
        T->nranks_src = R->json ? "devices" : "rank lines";
    } else if (ratio && nmin == nmax) {
        T->nranks = (int)nmin;
        T->nranks_src = "busbw/algbw";
        /* the rows' own figures: nccl-tests computed busbw from the rank
         * count of the run that timed them */
        if (T->rank_lines > 0 && T->rank_lines < T->nranks)
            snprintf(T->note, sizeof T->note,
                     "%s %d rank%s (a shortened list), busbw/algbw says %d", listed, T->rank_lines,
                     T->rank_lines == 1 ? "" : "s", T->nranks);
        else if (T->rank_lines > 0 && !lines_short && T->rank_list_whole)
            /* a whole list names the run: rows whose ratio says fewer
             * ranks are another collective's, or another run's (a
             * broadcast table under all_reduce_perf.log read as 2 ranks) */
            return cr_diag_set(d, CR_EPARSE,
                               "%s: %s %d rank%s, but the rows' busbw/algbw says %d: they are "
                               "not %s over these ranks (another collective: give --coll; or "
                               "rows of another run)",
                               where, listed, T->rank_lines, T->rank_lines == 1 ? "" : "s",
                               T->nranks, cn);
        else if (T->rank_lines > 0)
            snprintf(T->note, sizeof T->note,
                     "%s %d rank%s, but busbw/algbw says %d (rows of another run?)", listed,
                     T->rank_lines, T->rank_lines == 1 ? "" : "s", T->nranks);
    } else if (given_fits) {
        T->nranks = given;
        T->nranks_src = "--ranks";
    } else if (T->rank_lines > 0) {
        /* the list disagrees and nothing pins the count: a guess would be
         * a silent wrong answer */
        char says[96];
        if (lines_short)
            snprintf(says, sizeof says, "one thread drives %d GPUs (nGpus)", T->gpus_per_thread);
        else if (nmax >= 1e9)
            cr_snprintf_c(says, sizeof says, "busbw/algbw says at least %.0f", nmin);
        else
            cr_snprintf_c(says, sizeof says, "busbw/algbw says %.0f to %.0f", nmin, nmax);
        return cr_diag_set(d, CR_EPARSE,
                           "%s: %s %d rank(s), but %s: the list is cut short; give the rank "
                           "count (--ranks, e.g. --ranks 0-%d)",
                           where, listed, T->rank_lines, says,
                           (lines_short ? T->gpus_per_thread : (int)nmin) - 1);
    } else if (!informs) {
        return cr_diag_set(d, CR_EPARSE,
                           "%s: the number of ranks is unknown: %s, and %s prints busbw = "
                           "algbw whatever the rank count: give it (--ranks, e.g. --ranks 0-7 "
                           "for 8 ranks)",
                           where, no_list, cn);
    } else if (!ratio) {
        return cr_diag_set(d, CR_EPARSE,
                           "%s: the number of ranks is unknown: %s, and no row's algbw is "
                           "large enough to tell it from busbw/algbw: give it (--ranks, e.g. "
                           "--ranks 0-7 for 8 ranks)",
                           where, no_list);
    } else {
        return cr_diag_set(d, CR_EPARSE,
                           "%s: the number of ranks is unknown: %s, and the busbw/algbw ratios "
                           "of the %s rows fit %.0f to %.0f ranks%s: give it (--ranks)",
                           where, no_list, cn, nmin, nmax,
                           given > 0 ? ", not the count of --ranks" : "");
    }
    if (T->nranks < 1 || T->nranks > 1 << 20)
        return cr_diag_set(d, CR_EPARSE, "%s: %d ranks: expected 1 to %d", where, T->nranks,
                           1 << 20);
    /* One thread driving all GPUs (-g 8) launches them one after another:
     * on 8 H100 its small-message floor is twice a process-per-GPU run's
     * (doc/validation.md), and a bare table tells neither */
    if (T->layout_unsaid && T->nranks > 1 && !T->note[0])
        snprintf(T->note, sizeof T->note,
                 "no nThread or rank lines: one process per GPU taken (--ranks-per-process "
                 "G for a -g G run)");
    return CR_OK;
}

/* Table t's NCCL_ALGO / NCCL_PROTO sets from the options, for its
 * collective (once per table, not per row). */
static cr_status nt_selects(nt_reader *R, size_t t, cr_diag *d)
{
    nt_table *T = &R->tabs[t];
    cr_coll c;
    cr_status st = CR_OK;
    if (!R->o || cr_coll_parse(T->coll, &c, NULL) != CR_OK)
        return CR_OK; /* nt_resolve has refused an unknown collective */
    if (R->o->nccl_algo)
        st = cr_nccl_select_parse(R->o->nccl_algo, false, c, &T->nccl_algos, d);
    if (st == CR_OK && R->o->nccl_proto)
        st = cr_nccl_select_parse(R->o->nccl_proto, true, c, &T->nccl_protos, d);
    return st;
}

/* Appends part to the note (size n), after "; " where it holds text
 * already; cut to fit. An empty part adds nothing. */
static void nt_note_add(char *note, size_t n, const char *part)
{
    size_t len = strlen(note);
    if (!part[0] || len + 1 >= n)
        return;
    if (len) {
        cr_str_copy(note + len, n - len, "; ");
        len = strlen(note);
    }
    cr_str_copy(note + len, n - len, part);
}

/* A table that repeats an earlier one of its log row for row (the same
 * collective, sizes and times): pasted twice, its rows would count twice,
 * as a log given twice would (which validate refuses). */
static cr_status nt_twice(const nt_reader *R, cr_diag *d)
{
    if (R->n_tabs < 2)
        return CR_OK;
    /* each table's first row and row count, in one pass: a new run or
     * header starts a new table, so its rows are consecutive */
    size_t *first = calloc(R->n_tabs, sizeof *first), *count = calloc(R->n_tabs, sizeof *count);
    if (!first || !count) {
        free(first);
        free(count);
        return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", R->path);
    }
    for (size_t i = R->n_rows; i-- > 0;) {
        first[R->rows[i].table] = i;
        count[R->rows[i].table]++;
    }
    cr_status st = CR_OK;
    for (size_t t = 1; t < R->n_tabs && st == CR_OK; t++)
        for (size_t u = 0; u < t && st == CR_OK; u++) {
            const nt_table *U = &R->tabs[u], *T = &R->tabs[t];
            /* the same run's header too: two runs (their own nThread and
             * rank lines) may time a size alike */
            if (count[u] != count[t] || count[t] == 0 || strcmp(U->coll, T->coll) ||
                U->rank_lines != T->rank_lines || U->gpus_per_thread != T->gpus_per_thread ||
                U->loop_ops != T->loop_ops || strcmp(U->gpu, T->gpu))
                continue;
            bool same = true;
            for (size_t k = 0; same && k < count[t]; k++)
                same = R->rows[first[u] + k].bytes == R->rows[first[t] + k].bytes &&
                       R->rows[first[u] + k].t_us == R->rows[first[t] + k].t_us;
            if (same) {
                char a[300], b[300];
                cr_ntlog_at(R, R->tabs[t].first_line, a, sizeof a);
                cr_ntlog_at(R, R->tabs[u].first_line, b, sizeof b);
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s: the table repeats the one at %s row for row (%zu rows, the "
                                 "same sizes and times): pasted twice, its rows would count "
                                 "twice; give each run once",
                                 a, b, count[t]);
            }
        }
    free(first);
    free(count);
    return st;
}

/* Decides every table's rank count and NCCL selection, then appends one
 * measurement per row to out. */
static cr_status nt_finish(nt_reader *R, cr_vmeas_list *out, cr_diag *d)
{
    cr_status st = nt_twice(R, d);
    if (st != CR_OK)
        return st;
    for (size_t t = 0; t < R->n_tabs; t++)
        if ((st = nt_resolve(R, t, d)) != CR_OK || (st = nt_selects(R, t, d)) != CR_OK)
            return st;
    for (size_t i = 0; i < R->n_rows; i++) {
        const nt_row *r = &R->rows[i];
        const nt_table *T = &R->tabs[r->table];
        cr_vmeas *m = cr_vlist_push(out);
        if (!m)
            return cr_diag_set(d, CR_ENOMEM, "%s: out of memory", R->path);
        m->measured_s = r->t_us * 1e-6;
        m->samples = 1;
        if (R->json)
            snprintf(m->source, sizeof m->source, "%.100s:results[%d]", cr_vbase_name(R->path),
                     r->line);
        else
            snprintf(m->source, sizeof m->source, "%.100s:%d", cr_vbase_name(R->path), r->line);
        cr_str_copy(m->gpu, sizeof m->gpu, T->gpu);
        m->c.family = CR_VFAM_NCCL;
        m->loop_timed = true;
        m->c.n_keys = 0;
        char num[40];
        cr_snprintf_c(num, sizeof num, "%.0f", r->bytes);
        nt_set(m, "bytes", num);
        nt_set(m, "dtype", r->dtype);
        nt_set(m, "coll", T->coll);
        snprintf(num, sizeof num, "%d", T->nranks);
        nt_set(m, "nranks", num);
        if (T->gpus_per_thread > 1) {
            /* one thread drives several GPUs: the host loop can bind
             * (validate's cr_coll_req host_loop) */
            snprintf(num, sizeof num, "%d", T->gpus_per_thread);
            nt_set(m, "gpus_per_thread", num);
        }
        if (T->loop_ops > 0) {
            /* a pipelined chain's fill is spread over the loop (cr_coll_req loop_ops) */
            snprintf(num, sizeof num, "%d", T->loop_ops);
            nt_set(m, "loop_ops", num);
        }
        if (T->nccl_version > 0) {
            snprintf(num, sizeof num, "%d", T->nccl_version);
            nt_set(m, "nccl_version", num);
        }
        if (T->nccl_algos) {
            snprintf(num, sizeof num, "%u", T->nccl_algos);
            nt_set(m, "nccl_algos", num);
        }
        if (T->nccl_protos) {
            snprintf(num, sizeof num, "%u", T->nccl_protos);
            nt_set(m, "nccl_protos", num);
        }
        cr_str_copy(m->coll_source, sizeof m->coll_source, T->coll_src);
        cr_str_copy(m->nranks_source, sizeof m->nranks_source, T->nranks_src);
        /* what the run's options change, then the table's note (cut to
         * what the case's note holds) */
        m->note[0] = '\0';
        if (r->in_place)
            nt_note_add(m->note, sizeof m->note, "the in-place time (no out-of-place result)");
        if (T->blocking)
            nt_note_add(m->note, sizeof m->note,
                        "blocking run (-z): a host wait per operation, not modelled");
        if (r->wrong > 0) {
            char w[64];
            snprintf(w, sizeof w, "#wrong %ld: nccl-tests found its result wrong", r->wrong);
            nt_note_add(m->note, sizeof m->note, w);
        }
        nt_note_add(m->note, sizeof m->note, T->note);
        cr_vmeas_make_label(m);
    }
    return CR_OK;
}

cr_status cr_validate_read_nccl_tests(const char *path, const cr_nccl_log_opts *o,
                                      cr_vmeas_list *out, cr_diag *d)
{
    FILE *f = NULL;
    if (cr_file_fopen_read(path, "an nccl-tests log", CR_FILE_STREAM, &f, d) != CR_OK)
        return CR_EIO;
    cr_status st = cr_validate_read_nccl_tests_stream(f, path, o, out, d);
    fclose(f);
    return st;
}

/* The message for a row with fewer columns than the layout reads. */
static cr_status nt_short_row(const char *path, int line_no, int nt, const nt_layout *lay,
                              cr_diag *d)
{
    int need_cols = lay->time_col + 3;
    bool type_last = lay->type_col + 1 > need_cols;
    if (lay->line)
        return cr_diag_set(d, CR_EPARSE,
                           "%s:%d: not an nccl-tests result row: %d column(s), the header at "
                           "line %d names %d (the %s is column %d)",
                           path, line_no, nt, lay->line, lay->n_cols,
                           type_last ? "type" : "out-of-place time",
                           type_last ? lay->type_col + 1 : lay->time_col + 1);
    return cr_diag_set(d, CR_EPARSE,
                       "%s:%d: not an nccl-tests result row (expected: size count type "
                       "redop root time algbw busbw #wrong ..., as nccl-tests 2.11+ "
                       "prints when no header line comes first)",
                       path, line_no);
}

/* The release a log line names (nccl-tests' "nccl-library=22304", NCCL's
 * "NCCL version 2.23.4+cuda12.6"), else prev. */
static int nt_version_in(const char *s, int prev)
{
    static const char *const marks[] = {"nccl-library=", "NCCL version "};
    for (int k = 0; k < 2; k++) {
        const char *p = strstr(s, marks[k]);
        if (!p)
            continue;
        char tok[40];
        p += strlen(marks[k]);
        size_t n = strcspn(p, " \t\r\n");
        if (n == 0 || n >= sizeof tok)
            continue;
        memcpy(tok, p, n);
        tok[n] = '\0';
        int code = 0;
        if (cr_nccl_version_parse(tok, &code, NULL) == CR_OK)
            return code;
    }
    return prev;
}

/* The rows and tables of a text log into R (see cr_validate_read_nccl_tests);
 * out only counts the tables of tests left out. */
static cr_status nt_read_text(FILE *f, nt_reader *R, const char *opt_coll, cr_vmeas_list *out,
                              cr_diag *d)
{
    const char *path = R->path;
    const cr_nccl_log_opts *o = R->o;
    const char *log_coll = NULL, *file_coll = cr_ntlog_coll_in(cr_vbase_name(path));
    /* Ranks of the current run: a log may hold several runs one after the
     * other (a job's logs concatenated, or mpirun of a non-MPI build, where
     * every process prints its own one-rank run); each "# nThread" line
     * starts one. */
    int nranks = 0, line_no = R->lines_before, log_coll_line = 0;
    int run_rows = 0; /* rows read since the current run started */
    /* the first line whose nccl-tests header comes after a prefix left in
     * place, and the prefix */
    int behind_line = 0;
    char behind[64] = "";
    /* the current test is not a collective commroof models: its rows are
     * left out (counted once per test in out->nccl_tables_skipped) */
    bool skip_test = false, skip_counted = false;
    char skip_name[48] = "";
    /* GPUs per thread of the current run: the "# nThread T nGpus G" line's
     * G (-g G: one thread drives G GPUs in one group, nccl-tests
     * src/common.cu startColl), else the longest run of consecutive rank
     * lines with one Pid on one host (a process prints its GPUs' lines one
     * after the other) */
    int ngpus_hdr = 0, pid_run = 0, pid_run_max = 0;
    /* the "Group" of the current run's rank lines: NCCL_TESTS_SPLIT(_MASK)
     * splits the ranks into communicators by it, and each runs the
     * collective on its own; the table prints rank 0's (its nProcs and
     * busbw, src/common.cu), so its rank count is rank 0's group's lines.
     * grp0: rank 0's group (-1: no rank 0 line yet) */
    int grp0 = -1, grp0_lines = 0, rank_line_count = 0;
    bool grp_split = false;
    /* the title line before a header said in-place only; the run says
     * "Blocking Enabled" */
    bool title_in_place = false, blocking = false;
    /* the line of the last row read: a line that goes on with figures
     * right after it is its wrapped rest */
    int last_row_line = 0;
    /* the run's timed loop, from the same line (nt_loop_ops) */
    int loop_ops = 0;
    /* the NCCL release the log prints: nccl-tests' "# nccl-tests version
     * ... nccl-library=22304" or NCCL's "NCCL version 2.23.4+cuda12.6"
     * (NCCL_DEBUG=VERSION or INFO); the last one before a table is its */
    int log_version = 0;
    long last_pid = -1;
    char last_host[64] = "";
    char run_gpu[48] = ""; /* the GPU the run's rank lines name */
    long table = -1;       /* the table rows go to; -1: the next row starts one */
    nt_layout lay = {5, 2, 9, 0, false, false, -1};
    cr_status st = CR_OK;
    char line[NT_LINE];
    /* a row cut by NCCL_DEBUG output: its text so far, and its line */
    char pending[NT_LINE];
    int pending_line = 0;
    char *raw = NULL;
    size_t raw_cap = 0;
    for (ssize_t got; (got = getline(&raw, &raw_cap, f)) >= 0;) {
        line_no++;
        /* binary data, or a UTF-16 log (every other byte NUL) */
        if (memchr(raw, '\0', (size_t)got)) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: a NUL byte: not a text log (a UTF-16 log converts with "
                             "iconv -f utf-16 -t utf-8)",
                             path, line_no);
            goto out;
        }
        /* lines ended by a carriage return alone (classic Mac OS, some
         * paste buffers) read as one line, the whole log a comment: say so
         * (two such breaks: a lone one may be a terminal's overwrite) */
        int lone_cr = 0;
        for (ssize_t k = 0; k + 1 < got && lone_cr < 2; k++)
            lone_cr += raw[k] == '\r' && raw[k + 1] != '\n';
        if (lone_cr >= 2) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: lines end in a carriage return alone (\\r, classic Mac "
                             "line endings): convert them first (tr '\\r' '\\n' < LOG > LOG.txt)",
                             path, line_no);
            goto out;
        }
        if ((size_t)got >= sizeof line) {
            /* an overlong comment (an environment dump, say), NCCL_DEBUG
             * line (a channel list of a large job) or shell trace is no
             * row: left out; an overlong row, one that starts with its
             * size, is none nccl-tests prints */
            memcpy(line, raw, sizeof line - 1);
            line[sizeof line - 1] = '\0';
            char *head = nt_strip_prefixes(line);
            head += strspn(head, " \t");
            if (!(*head >= '0' && *head <= '9') || nt_debug_start(head) == head)
                continue;
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: line longer than %zu characters: no nccl-tests row is", path,
                             line_no, sizeof line - 1);
            goto out;
        }
        memcpy(line, raw, (size_t)got + 1);
        char *s = nt_strip_prefixes(line);
        log_version = nt_version_in(s, log_version);
        char *dbg = nt_debug_start(s);
        if (dbg == s + strspn(s, " \t")) /* a whole NCCL_DEBUG line */
            continue;
        bool cut = false;
        if (dbg) { /* a row (or other text) and then a debug message */
            *dbg = '\0';
            cut = true;
        }
        s += strspn(s, " \t");
        const char *body = nt_comment(s);
        if (body) {
            if (pending_line) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: the result row cut by NCCL_DEBUG output is not "
                                 "continued before line %d",
                                 path, pending_line, line_no);
                goto out;
            }
            const char *c = cr_ntlog_coll_in(body);
            bool known = c && strstr(body, "test starting");
            if (known || !strncmp(body, "Collective test starting:", 25)) {
                /* a test that is not a collective commroof models (nccl-tests'
                 * hypercube_perf) has its table left out, never read as the
                 * previous test's or as the file name's collective */
                log_coll = known ? c : NULL;
                log_coll_line = line_no;
                table = -1;
                skip_test = !known;
                skip_counted = false;
                if (!known) {
                    const char *nm = body + 25 + strspn(body + 25, " \t");
                    snprintf(skip_name, sizeof skip_name, "%.*s", (int)strcspn(nm, " \t\r\n"), nm);
                }
            }
            /* rank lines after rows of the run start another run, one
             * pasted below the first without its "# nThread" line (two
             * pastes joined): nccl-tests prints a run's rank lines before
             * its tables, so they are not the first run's, whose rank
             * count they would change (a 4-rank run read as 8). What the
             * missing line says (nGpus, the loop) is then unknown. */
            int rk0;
            bool new_run = !strncmp(body, "nThread", 7);
            if (new_run || (run_rows > 0 && sscanf(body, "Rank %d", &rk0) == 1)) {
                int nth, ng;
                run_rows = 0;
                nranks = 0;
                rank_line_count = 0;
                run_gpu[0] = '\0';
                table = -1;
                ngpus_hdr = new_run && sscanf(body, "nThread %d nGpus %d", &nth, &ng) == 2 &&
                                    ng >= 1 && ng <= 1024
                                ? ng
                                : 0;
                loop_ops = new_run ? nt_loop_ops(body) : 0;
                blocking = false;
                pid_run = pid_run_max = 0;
                grp0 = -1;
                grp0_lines = 0;
                grp_split = false;
                last_pid = -1;
                last_host[0] = '\0';
            }
            int rk, grp;
            long pid;
            char host[64];
            if (sscanf(body, "Rank %d", &rk) == 1 && rk >= 0 && rk < 1 << 20) {
                nranks = rk + 1 > nranks ? rk + 1 : nranks;
                rank_line_count++;
            }
            /* nccl-tests prints the rank lines in rank order (rank 0's
             * process gathers them): rank 0's group is known first */
            if (sscanf(body, "Rank %d Group %d", &rk, &grp) == 2 && rk >= 0 && rk < 1 << 20) {
                if (rk == 0 && grp0 < 0)
                    grp0 = grp;
                if (grp0 >= 0 && grp == grp0)
                    grp0_lines++;
                else if (grp0 >= 0)
                    grp_split = true;
            }
            /* "... device  0 [0x53] NVIDIA H100 80GB HBM3": the first named GPU */
            const char *dv = strstr(body, " device ");
            const char *br = dv ? strstr(dv, "] ") : NULL;
            if (br && !run_gpu[0]) {
                cr_str_copy(run_gpu, sizeof run_gpu, br + 2);
                run_gpu[strcspn(run_gpu, "\r\n")] = '\0';
            }
            if (sscanf(body, "Rank %d Group %d Pid %ld on %63s", &rk, &grp, &pid, host) == 4) {
                bool same = pid == last_pid && !strcmp(host, last_host);
                pid_run = same ? pid_run + 1 : 1;
                pid_run_max = pid_run > pid_run_max ? pid_run : pid_run_max;
                last_pid = pid;
                cr_str_copy(last_host, sizeof last_host, host);
            }
            /* the title line above the header: "out-of-place ... in-place",
             * or rccl-tests -O 0's "in-place" alone, whose one time column
             * is then the in-place time (src/common.cu, enable_out_of_place) */
            if (nt_place_title(body, &title_in_place))
                continue;
            /* "# Blocking Enabled: wait ... after each ..." (-z 1; -z 2 and
             * 3 of later releases alike): each operation of the timed
             * loop is waited for, so the times hold a host sync per
             * operation that the loop's prediction leaves out */
            if (!strncmp(body, "Blocking Enabled", 16))
                blocking = true;
            if (nt_header(body, line_no, &lay)) {
                lay.in_place = title_in_place;
                title_in_place = false;
                table = -1;
            }
            continue;
        }
        char buf[2 * NT_LINE], *tok[NT_MAX_TOK];
        int row_line = line_no;
        if (pending_line) {
            /* the rest of a cut row: the first line after the debug output
             * that is not itself a row */
            cr_str_copy(buf, sizeof buf, s);
            int nc = nt_split(buf, tok);
            if (nc == 0)
                continue;
            if (nc >= 2 && nt_all_digits(tok[0]) && nt_all_digits(tok[1])) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: the result row cut by NCCL_DEBUG output is not "
                                 "continued before line %d",
                                 path, pending_line, line_no);
                goto out;
            }
            char part[NT_LINE];
            cr_str_copy(part, sizeof part, pending);
            int np = nt_split(part, tok);
            /* the debug message may have swallowed the word it was glued
             * to ("-1gcn151:1904979:1905073 [0] NCCL INFO"): the header's
             * column count tells; a column that is read must not be lost */
            int lost = lay.line ? lay.n_cols - np - nc : 0;
            int reads[] = {0, lay.type_col, lay.time_col, lay.time_col + 1, lay.time_col + 2};
            bool lost_read = false;
            for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
                lost_read |= lost == 1 && reads[i] == np;
            if (!lay.line || lost < 0 || lost > 1 || lost_read) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: a result row cut by NCCL_DEBUG output and continued at "
                                 "line %d: %d + %d column(s)%s, the header at line %d names %d",
                                 path, pending_line, line_no, np, nc,
                                 lost == 1 ? " and one lost in the debug message" : "", lay.line,
                                 lay.n_cols);
                goto out;
            }
            snprintf(buf, sizeof buf, "%s%s %s", pending, lost ? " ?" : "", s);
            row_line = pending_line;
            pending_line = 0;
        } else {
            cr_str_copy(buf, sizeof buf, s);
        }
        /* A result row starts with two whole numbers (size, count); other
         * lines (NCCL_DEBUG output, banners, blank lines) are not rows. */
        char copy[2 * NT_LINE];
        cr_str_copy(copy, sizeof copy, buf);
        int nt = nt_split(buf, tok);
        /* under a header, a size not followed by its element count is a row
         * with a column lost (or a signed or hex size), not other text:
         * said, not skipped */
        if (lay.line && !skip_test && nt >= 3 && nt_number_like(tok[0]) &&
            (!nt_all_digits(tok[0]) || !nt_all_digits(tok[1]))) {
            /* figures alone (no type name: not a row that lost its count)
             * right after a row: the rest of that row, wrapped at a
             * terminal's or editor's width (the header too, likely, so its
             * column count cannot tell; a figure may be cut in two: not
             * rejoined) */
            bool figures = true;
            for (int i = 0; i < nt; i++)
                figures &=
                    strspn(tok[i], "0123456789.+-e") == strlen(tok[i]) || !strcmp(tok[i], "N/A");
            if (last_row_line == line_no - 1 && figures)
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: \"%s %s ...\" right after the row at line %d is no size "
                                 "and count but figures: rows wrapped onto two lines (a "
                                 "terminal's or editor's width); join each row onto one line",
                                 path, line_no, tok[0], tok[1], last_row_line);
            else
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: not an nccl-tests result row: \"%s %s\" is no size in "
                                 "bytes and element count (the header at line %d)%s",
                                 path, line_no, tok[0], tok[1], lay.line,
                                 isalpha((unsigned char)tok[0][strlen(tok[0]) - 1])
                                     ? ": a size with a unit; nccl-tests prints bytes (4096, "
                                       "not 4K), give the rows as it printed them"
                                     : "");
            goto out;
        }
        if (nt < 1 || !nt_all_digits(tok[0]) || (nt >= 2 && !nt_all_digits(tok[1]))) {
            /* an nccl-tests header behind a line prefix the reader does
             * not remove (a CI's "[2024-05-01T12:00:00Z] ", a bare
             * "12:00:00 "): the rows behind it go unread too, and a log
             * of no row is refused naming it (below), not only as
             * holding none */
            for (int i = 1; !behind_line && i + 1 < nt; i++)
                if (((!strcmp(tok[i], "#") && !strcmp(tok[i + 1], "size")) ||
                     (!strcmp(tok[i], "size") && !strcmp(tok[i + 1], "count"))) &&
                    nt_header(tok[i][0] == '#' ? copy + (tok[i + 1] - buf) : copy + (tok[i] - buf),
                              line_no, &(nt_layout){0})) {
                    behind_line = line_no;
                    size_t plen = (size_t)(tok[i] - buf);
                    while (plen > 0 && (copy[plen - 1] == ' ' || copy[plen - 1] == '\t'))
                        plen--;
                    snprintf(behind, sizeof behind, "%.*s", (int)(plen < 60 ? plen : 60), copy);
                }
            continue;
        }
        if (skip_test) {
            if (!skip_counted && out->nccl_tables_skipped++ == 0)
                snprintf(out->nccl_skip_why, sizeof out->nccl_skip_why,
                         "%s:%d: %s is not a collective commroof models", path, log_coll_line,
                         skip_name[0] ? skip_name : "the test");
            skip_counted = true;
            continue;
        }
        /* nccl-tests -C 1 prints, for the time, the host's time to enqueue
         * one operation of the timed loop, taken before the loop's wait;
         * algbw and busbw stay the GPU time's (src/common.cu BenchTime).
         * Read as the operation's time, the rows would fall below their
         * bounds or be refused as misread at the algbw check below. */
        if (lay.cpu_time) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: the header at line %d names the time column \"cputime\" "
                             "(nccl-tests -C 1): the host's time to enqueue one operation, not "
                             "the operation's time; give the log of a run without -C 1",
                             path, row_line, lay.line);
            goto out;
        }
        /* Every column the row is read at must be in it: time algbw busbw,
         * and the type wherever the header puts it. */
        int need_cols = lay.time_col + 3;
        if (lay.type_col + 1 > need_cols)
            need_cols = lay.type_col + 1;
        if (nt < need_cols && cut && row_line == line_no) {
            size_t len = strlen(copy) < sizeof pending - 1 ? strlen(copy) : sizeof pending - 1;
            memcpy(pending, copy, len);
            pending[len] = '\0';
            pending_line = line_no;
            continue;
        }
        if (nt < need_cols) {
            st = nt_short_row(path, row_line, nt, &lay, d);
            goto out;
        }
        /* One line holding more than one row would give one case and lose
         * the rest: two tables pasted side by side ("|" between them, as
         * a before/after comparison in a pull request is shown), or rows
         * whose line break was lost (a size and a count, then a type
         * name, past the columns that are read) */
        for (int i = 1; i < nt; i++) {
            if (!strcmp(tok[i], "|")) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: a \"|\" at column %d of a result row: two tables side "
                                 "by side; give each table as a log of its own",
                                 path, row_line, i + 1);
                goto out;
            }
            if (i >= need_cols && i + 2 < nt && nt_all_digits(tok[i]) &&
                nt_all_digits(tok[i + 1]) && isalpha((unsigned char)tok[i + 2][0])) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: a second result row (size %s, count %s, %s) starts at "
                                 "column %d of this one: a line break lost; give each row a "
                                 "line of its own",
                                 path, row_line, tok[i], tok[i + 1], tok[i + 2], i + 1);
                goto out;
            }
        }
        char *end = NULL;
        double size = cr_strtod_c(tok[0], NULL), t_us = cr_strtod_c(tok[lay.time_col], &end);
        if (!(size <= CR_COLL_MAX_BYTES)) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: size \"%s\": more than the %.0f bytes (1 PB) a message may "
                             "have",
                             path, row_line, tok[0], CR_COLL_MAX_BYTES);
            goto out;
        }
        /* a plain decimal, as nccl-tests prints it: strtod alone reads
         * 0x63p0 as 99 (and the algbw check passes over what is not a
         * plain decimal) */
        if (!end || *end || !cr_plain_number(tok[lay.time_col]) ||
            !cr_harness_measured_ok(t_us * 1e-6) || !(size >= 0) || !isfinite(size)) {
            /* rows pasted without their header are read in 2.11+'s
             * layout: a 2.10 row's time is a column earlier, and the
             * algbw read in its place is often 0.00 */
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: size %s, out-of-place time \"%s\" (column %d): need a time "
                             "from %g to %g us%s",
                             path, row_line, tok[0], tok[lay.time_col], lay.time_col + 1,
                             CR_HARNESS_MIN_MEASURED_S * 1e6, CR_HARNESS_MAX_MEASURED_S * 1e6,
                             lay.line ? ""
                                      : " (no header line: nccl-tests 2.11+'s layout assumed, "
                                        "whose time is column 6; 2.10 and earlier print it in "
                                        "column 5: give the table with its \"# size count "
                                        "type ...\" header)");
            goto out;
        }
        /* nccl-tests prints algbw = size / time (GB/s, time in us), both
         * from one measurement: a row read at the wrong columns (one
         * missing, a layout without its header) or with a mistyped size or
         * time disagrees with it beyond the printed rounding */
        double tlo, thi, glo, ghi;
        if (nt_printed(tok[lay.time_col], &tlo, &thi) &&
            nt_printed(tok[lay.time_col + 1], &glo, &ghi) &&
            !cr_ntlog_algbw_agrees(size, tlo, thi, glo, ghi)) {
            char cols[96];
            if (lay.line)
                snprintf(cols, sizeof cols, "the header at line %d names %d column(s)", lay.line,
                         lay.n_cols);
            else
                cr_str_copy(cols, sizeof cols, "no header line: nccl-tests 2.11+'s layout assumed");
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: size %s over out-of-place time %s us (column %d) is %.3g "
                             "GB/s, but the next column, algbw, says %s: a column missing or "
                             "out of place (%s, this row has %d), or a mistyped size or time",
                             path, row_line, tok[0], tok[lay.time_col], lay.time_col + 1,
                             size / t_us / 1e3, tok[lay.time_col + 1], cols, nt);
            goto out;
        }
        if (table < 0) {
            nt_table T = {0};
            T.first_line = row_line;
            T.rank_lines = nranks;
            T.rank_list_whole = nranks > 0 && rank_line_count >= nranks;
            if (grp_split && grp0_lines > 0) {
                T.rank_lines = grp0_lines;
                snprintf(T.note, sizeof T.note,
                         "rank lines in several groups (NCCL_TESTS_SPLIT): rank 0's, %d of %d "
                         "ranks, is the table's",
                         grp0_lines, nranks);
            }
            cr_str_copy(T.gpu, sizeof T.gpu, run_gpu);
            /* the log's nThread line first; then the caller's word; then
             * the ranks sharing a Pid (one thread's -g GPUs, or -t's
             * threads: the caller tells them apart); else one */
            int said = ngpus_hdr > 0                 ? ngpus_hdr
                       : o && o->gpus_per_thread > 0 ? o->gpus_per_thread
                                                     : pid_run_max;
            T.gpus_per_thread = said > 0 ? said : 1;
            T.layout_unsaid = said <= 0;
            /* ranks of one Pid are -g's GPUs of one thread or -t's threads
             * of one process alike: without the nThread line, say which */
            if (ngpus_hdr <= 0 && pid_run_max > 1 && !T.note[0] && !(o && o->gpus_per_thread > 0))
                snprintf(T.note, sizeof T.note,
                         "no nThread line: %d ranks of a Pid read as -g %d; a -t run: "
                         "--ranks-per-process 1",
                         pid_run_max, pid_run_max);
            T.loop_ops = loop_ops;
            T.blocking = blocking;
            T.nccl_version = log_version > 0 ? log_version : o ? o->nccl_version : 0;
            cr_status pick = cr_ntlog_pick_coll(log_coll, opt_coll, file_coll, &T);
            if (pick == CR_EINVAL) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: the log runs %s (\"Collective test starting\"), "
                                 "--coll says %s; --coll applies to every log given: give "
                                 "this log without it, or in a run of its own",
                                 path, log_coll_line, log_coll, opt_coll);
                goto out;
            }
            if (pick != CR_OK) {
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s:%d: cannot tell the collective: no \"# Collective test "
                                 "starting: <name>_perf\" line and no <name>_perf in the file "
                                 "name (e.g. all_reduce_perf.log): give it (--coll all_reduce)",
                                 path, row_line);
                goto out;
            }
            if (cr_grow((void **)&R->tabs, &R->cap_tabs, R->n_tabs + 1, sizeof *R->tabs)) {
                st = cr_diag_set(d, CR_ENOMEM, "%s: out of memory", path);
                goto out;
            }
            R->tabs[R->n_tabs] = T;
            table = (long)R->n_tabs++;
        }
        nt_row *r = NULL;
        if ((st = cr_ntlog_add_row(R, row_line, &r, d)) != CR_OK)
            goto out;
        last_row_line = line_no;
        run_rows++;
        r->table = (int)table;
        r->bytes = size;
        r->t_us = t_us;
        r->in_place = lay.in_place;
        /* nccl-tests checked the result (-c 1) and found elements wrong:
         * the run is broken (a GPU, a link, a driver); its time is kept,
         * said on the case (N/A: not checked) */
        if (lay.wrong_col >= 0 && lay.wrong_col < nt && nt_all_digits(tok[lay.wrong_col]))
            r->wrong = strtol(tok[lay.wrong_col], NULL, 10);
        const char *dt = lay.type_col >= 0 ? cr_ntlog_dtype(tok[lay.type_col]) : "fp32";
        if (!dt) {
            st = cr_diag_set(d, CR_EPARSE,
                             "%s:%d: element type \"%.40s\" is none the model has (nccl-tests' "
                             "float, half, bfloat16, double, int8, uint8, f8e4m3 and f8e5m2 are "
                             "read; int32, uint32, int64 and uint64 have no model type)",
                             path, row_line, tok[lay.type_col]);
            goto out;
        }
        cr_str_copy(r->dtype, sizeof r->dtype, dt);
        double alo, ahi, blo, bhi;
        if (nt_printed(tok[lay.time_col + 1], &alo, &ahi) &&
            nt_printed(tok[lay.time_col + 2], &blo, &bhi))
            cr_ntlog_set_ratio(r, alo, ahi, blo, bhi);
    }
    if (ferror(f)) {
        st = cr_diag_set(d, CR_EIO, "%s: read error", path);
        goto out;
    }
    /* getline's ENOMEM leaves neither flag set: not the end of the log
     * (QA audit of allocation failures: the rows so far, read as all) */
    if (!feof(f)) {
        st = cr_diag_set(d, CR_ENOMEM, "%s:%d: out of memory reading the log", path, line_no + 1);
        goto out;
    }
    if (pending_line) {
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: the result row cut by NCCL_DEBUG output is not continued "
                         "before the end of the log",
                         path, pending_line);
        goto out;
    }
    if (behind_line && R->n_rows == 0)
        st = cr_diag_set(d, CR_EPARSE,
                         "%s:%d: the nccl-tests header follows \"%s\", a line prefix commroof "
                         "does not remove (it removes srun -l's \"0: \", mpirun --tag-output's "
                         "tags, RFC 3339 times, kubectl's pod): no row was read; remove it "
                         "from every line first",
                         path, behind_line, behind);
out:
    free(raw);
    return st;
}

cr_status cr_validate_read_nccl_tests_stream(FILE *f, const char *label, const cr_nccl_log_opts *o,
                                             cr_vmeas_list *out, cr_diag *d)
{
    nt_reader R = {.path = label, .o = o};
    const char *opt_coll = NULL;
    if (o && o->coll && !(opt_coll = cr_nccl_log_coll(o->coll, d)))
        return CR_EINVAL;
    /* nccl-tests -J writes JSON, an object; no text log starts with '{'.
     * A UTF-8 byte-order mark and blank space before it (an editor's, a
     * pasted copy's) are passed over; the newlines among them still count
     * in the text reader's line numbers. */
    int c0 = getc(f);
    if (c0 == 0xef) {
        int c1 = getc(f), c2 = c1 == 0xbb ? getc(f) : EOF;
        if (c1 != 0xbb || c2 != 0xbf)
            return cr_diag_set(d, CR_EPARSE,
                               "%s:1: starts with byte 0xef but no UTF-8 byte-order mark "
                               "(ef bb bf): not a UTF-8 text log",
                               label);
        c0 = getc(f);
    }
    for (; c0 == ' ' || c0 == '\t' || c0 == '\r' || c0 == '\n'; c0 = getc(f))
        R.lines_before += c0 == '\n';
    if (ferror(f) || (c0 != EOF && ungetc(c0, f) == EOF))
        return cr_diag_set(d, CR_EIO, "%s: read error", label);
    R.json = c0 == '{';
    size_t first = out->n;
    cr_status st =
        R.json ? cr_ntlog_read_json(f, &R, opt_coll, d) : nt_read_text(f, &R, opt_coll, out, d);
    if (st == CR_OK)
        st = nt_finish(&R, out, d);
    if (st != CR_OK)
        out->n = first;
    free(R.rows);
    free(R.tabs);
    return st;
}

/* The length of a row's file name in its source ("file.log:12"). */
static size_t source_file_len(const cr_vmeas *m)
{
    const char *colon = strrchr(m->source, ':');
    return colon ? (size_t)(colon - m->source) : strlen(m->source);
}

/* Whether cases a and b give key the same value (a missing key as ""). */
static bool same_key(const cr_vmeas *a, const cr_vmeas *b, const char *key)
{
    const char *x = cr_vcase_get(&a->c, key), *y = cr_vcase_get(&b->c, key);
    return !strcmp(x ? x : "", y ? y : "");
}

/* Whether rows a and b belong to one table: the same file, collective and
 * rank count (consecutive tables of one file that agree on both read as
 * one run, which the containment test below allows for). */
static bool same_run(const cr_vmeas *a, const cr_vmeas *b)
{
    size_t n = source_file_len(a);
    return n == source_file_len(b) && !strncmp(a->source, b->source, n) && same_key(a, b, "coll") &&
           same_key(a, b, "nranks");
}

/* Whether rows [s, s + ns) of l appear, row for row (size and time), as
 * consecutive rows of [b, b + nb). */
static bool run_inside(const cr_vmeas_list *l, size_t s, size_t ns, size_t b, size_t nb)
{
    for (size_t off = 0; off + ns <= nb; off++) {
        bool same = true;
        for (size_t k = 0; same && k < ns; k++) {
            const cr_vmeas *x = &l->v[s + k], *y = &l->v[b + off + k];
            same = x->measured_s == y->measured_s && same_key(x, y, "bytes");
        }
        if (same)
            return true;
    }
    return false;
}

cr_status cr_validate_nccl_logs_distinct(const cr_vmeas_list *l, size_t from, cr_diag *d)
{
    /* the runs: starts of maximal stretches of rows of one table */
    size_t n_runs = 0, *start = NULL;
    for (size_t i = from; i < l->n; i++)
        n_runs += i == from || !same_run(&l->v[i - 1], &l->v[i]);
    if (n_runs < 2)
        return CR_OK;
    if (!(start = malloc((n_runs + 1) * sizeof *start)))
        return cr_diag_set(d, CR_ENOMEM, "out of memory comparing the logs' tables");
    size_t r = 0;
    for (size_t i = from; i < l->n; i++)
        if (i == from || !same_run(&l->v[i - 1], &l->v[i]))
            start[r++] = i;
    start[r] = l->n;
    cr_status st = CR_OK;
    for (size_t u = 1; u < n_runs && st == CR_OK; u++)
        for (size_t v = 0; v < u && st == CR_OK; v++) {
            const cr_vmeas *a = &l->v[start[v]], *b = &l->v[start[u]];
            size_t na = start[v + 1] - start[v], nb = start[u + 1] - start[u];
            size_t fa = source_file_len(a);
            /* one file's own repeats are its reader's (nt_twice); one row
             * alone cannot tell a copy from two runs that timed a size
             * alike */
            if ((fa == source_file_len(b) && !strncmp(a->source, b->source, fa)) ||
                (na < 2 && nb < 2) || !same_key(a, b, "coll") || !same_key(a, b, "nranks"))
                continue;
            bool b_in_a = nb >= 2 && nb <= na && run_inside(l, start[u], nb, start[v], na);
            bool a_in_b =
                !b_in_a && na >= 2 && na <= nb && run_inside(l, start[v], na, start[u], nb);
            if (b_in_a || a_in_b)
                st = cr_diag_set(d, CR_EPARSE,
                                 "%s: its table repeats rows of %s row for row (%zu rows: the "
                                 "same collective, rank count, sizes and times): one run given "
                                 "twice, its rows would count twice (and a cross-check would "
                                 "hold out a copy of what it fitted); give each run once",
                                 b->source, a->source, b_in_a ? nb : na);
        }
    free(start);
    return st;
}

cr_status cr_validate_nccl_log_gave_rows(const char *path, const cr_vmeas_list *l, size_t before,
                                         int skipped_before, cr_diag *d)
{
    if (l->n > before)
        return CR_OK;
    if (l->nccl_tables_skipped > skipped_before)
        return cr_diag_set(d, CR_EPARSE, "%s: no table of a collective commroof models (%s)", path,
                           l->nccl_skip_why);
    return cr_diag_set(d, CR_EPARSE,
                       "%s: no nccl-tests result rows (a line of a size and a count and the times "
                       "after them, under a header \"# size count type ...\")",
                       path);
}
