/* SPDX-License-Identifier: MIT */
/*
 * The report folder and its index.html (see report.h).
 *
 * index.html is self-contained (inline CSS, no scripts, no network) and
 * links only files this function has just written: each chart's PNG (shown),
 * SVG, data file and script, each table's text, CSV and JSON forms.
 */
#include "sbuf.h"
#include "plots/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

#include "fileio.h"
#include "grow.h"
#include "plots/chart.h"
#include "plots/measured_priv.h"
#include "plots/plots.h"
#include "plots/sbuf_priv.h"
#include "plots/table.h"
#include "suite.h"

/* The file that marks a folder as a report's, which the next report may
 * replace whole. */
#define REPORT_MARK ".commroof-report"

static const char *const default_compare[] = {"hgx-h100-8",  "hgx-h200-8", "hgx-b200-8",
                                              "gb200-nvl72", "mi300x-8",   "l40s-pcie-8"};

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static cr_status push(char ***list, int *n, size_t *cap, const char *s)
{
    if (cr_grow((void **)list, cap, (size_t)*n + 1, sizeof **list))
        return CR_ENOMEM;
    (*list)[*n] = dupstr(s);
    if (!(*list)[*n])
        return CR_ENOMEM;
    (*n)++;
    return CR_OK;
}

void cr_report_result_release(cr_report_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_files; i++)
        free(r->files[i]);
    for (int i = 0; i < r->n_skipped; i++)
        free(r->skipped[i]);
    free(r->files);
    free(r->skipped);
    memset(r, 0, sizeof *r);
}

/* State while writing: the folder, the HTML body, what was written. */
typedef struct {
    const char *dir;
    const cr_report_opts *o;
    cr_report_result *r;
    size_t cap_files, cap_skipped; /* of r->files, r->skipped */
    cr_sbuf html;
    cr_sbuf toc;
    int section;
} rep;

static cr_status file_written(rep *p, const char *name)
{
    return push(&p->r->files, &p->r->n_files, &p->cap_files, name);
}

/* A part left out: its heading, anchored at the stem it would have had
 * and named in the contents as skipped, so that a reader of the contents
 * learns of it (it was a heading the contents never named). */
static cr_status skip(rep *p, const char *stem, const char *what, const char *why)
{
    char line[1200];
    snprintf(line, sizeof line, "%s: %s", what, why);
    cr_sbuf_add(&p->toc, "<li><a href=\"#%s\">", stem);
    cr_sbuf_xml(&p->toc, what);
    cr_sbuf_add(&p->toc, "</a> (skipped)</li>\n");
    cr_sbuf_add(&p->html, "<section class=\"skipped\" id=\"%s\"><h2>", stem);
    cr_sbuf_xml(&p->html, what);
    cr_sbuf_add(&p->html, "</h2><p>Not in this report: ");
    cr_sbuf_xml(&p->html, why);
    cr_sbuf_add(&p->html, "</p></section>\n");
    return push(&p->r->skipped, &p->r->n_skipped, &p->cap_skipped, line);
}

static void heading(rep *p, const char *title, const char *anchor)
{
    cr_sbuf_add(&p->toc, "<li><a href=\"#%s\">", anchor);
    cr_sbuf_xml(&p->toc, title);
    cr_sbuf_add(&p->toc, "</a></li>\n");
    cr_sbuf_add(&p->html, "<section id=\"%s\"><h2>", anchor);
    cr_sbuf_xml(&p->html, title);
    cr_sbuf_add(&p->html, "</h2>\n");
}

/* The warning a part opens with when a measured time is below its bound:
 * red, above the part's text (warn_html is trusted markup). */
static void warning(cr_sbuf *b, const char *warn_html)
{
    cr_sbuf_add(b,
                "<p class=\"warning\" style=\"background:#fde8e8;border:2px solid #c00;"
                "padding:.5em .8em;color:#700\">%s</p>\n",
                warn_html);
}

static cr_status add_table_warn(rep *p, const cr_table *t, const char *stem, const char *title,
                                const char *warn_html, const char *about, cr_diag *d)
{
    char path[4200], html_name[300];
    snprintf(path, sizeof path, "%s/%s", p->dir, stem);
    cr_status st = cr_table_write(t, path, d);
    if (st != CR_OK)
        return st;
    const char *ext[3] = {"txt", "csv", "json"};
    for (int i = 0; i < 3; i++) {
        snprintf(html_name, sizeof html_name, "%s.%s", stem, ext[i]);
        if ((st = file_written(p, html_name)) != CR_OK)
            return cr_diag_set(d, st, "out of memory");
    }
    heading(p, title, stem);
    if (warn_html)
        warning(&p->html, warn_html);
    if (about) {
        cr_sbuf_add(&p->html, "<p>");
        cr_sbuf_xml(&p->html, about);
        cr_sbuf_add(&p->html, "</p>\n");
    }
    cr_sbuf_add(&p->html, "<p class=\"files\">");
    for (int i = 0; i < 3; i++)
        cr_sbuf_add(&p->html, "<a href=\"%s.%s\">%s</a> ", stem, ext[i], ext[i]);
    cr_sbuf_add(&p->html, "</p>\n");
    char *h = NULL;
    if (cr_table_html(t, &h) != CR_OK)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    cr_sbuf_add(&p->html, "<div class=\"scroll\">%s</div></section>\n", h);
    free(h);
    return CR_OK;
}

static cr_status add_table(rep *p, const cr_table *t, const char *stem, const char *title,
                           const char *about, cr_diag *d)
{
    return add_table_warn(p, t, stem, title, NULL, about, d);
}

static cr_status add_chart(rep *p, const cr_chart *c, const char *stem, const char *title,
                           const char *about, cr_diag *d)
{
    char path[4200], name[300];
    const char *ext[2] = {"svg", "png"};
    /* render the SVG first so that the .dat/.gp beside them name the PNG,
     * the format the page shows */
    for (int i = p->o->gnuplot ? 0 : 1; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s.%s", p->dir, stem, ext[i]);
        cr_status st = cr_chart_render(c, path, p->o->gnuplot, d);
        if (st != CR_OK)
            return st;
    }
    const char *kinds[4] = {"png", "svg", "dat", "gp"};
    for (int i = p->o->gnuplot ? 0 : 2; i < 4; i++) {
        snprintf(name, sizeof name, "%s.%s", stem, kinds[i]);
        if (file_written(p, name) != CR_OK)
            return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    heading(p, title, stem);
    if (about) {
        cr_sbuf_add(&p->html, "<p>");
        cr_sbuf_xml(&p->html, about);
        cr_sbuf_add(&p->html, "</p>\n");
    }
    if (p->o->gnuplot)
        cr_sbuf_add(&p->html,
                    "<p><a href=\"%s.svg\"><img src=\"%s.png\" alt=\"%s chart\"></a></p>\n"
                    "<p class=\"files\"><a href=\"%s.svg\">svg</a> <a href=\"%s.png\">png</a> ",
                    stem, stem, stem, stem, stem);
    else /* --no-render: say so, and how to draw it */
        cr_sbuf_add(
            &p->html,
            "<p class=\"files\">image not drawn (--no-render): <code>gnuplot %s.gp</code> in "
            "this folder draws %s.png; ",
            stem, stem);
    cr_sbuf_add(&p->html, "<a href=\"%s.dat\">data</a> <a href=\"%s.gp\">gnuplot script</a></p>\n",
                stem, stem);
    char *h = NULL;
    if (cr_chart_html_table(c, &h) != CR_OK)
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    cr_sbuf_add(&p->html,
                "<details open><summary>the numbers behind this chart</summary>\n"
                "<div class=\"scroll\">%s</div></details></section>\n",
                h);
    free(h);
    return CR_OK;
}

/* Runs one chart or table builder: success adds it, CR_EUNSUPPORTED
 * (missing input, a model part not built) skips it, anything else fails. */
static cr_status chart_part(rep *p, cr_status st, cr_chart *c, const char *stem, const char *title,
                            const char *about, cr_diag *bd, cr_diag *d)
{
    if (st == CR_EUNSUPPORTED) {
        cr_chart_free(c);
        return skip(p, stem, title, bd->msg) == CR_OK ? CR_OK
                                                      : cr_diag_set(d, CR_ENOMEM, "no memory");
    }
    if (st != CR_OK) {
        cr_chart_free(c);
        return cr_diag_set(d, st, "%s: %s", title, bd->msg);
    }
    st = add_chart(p, c, stem, title, about, d);
    cr_chart_free(c);
    return st;
}

static cr_status table_part(rep *p, cr_status st, cr_table *t, const char *stem, const char *title,
                            const char *about, cr_diag *bd, cr_diag *d)
{
    if (st == CR_EUNSUPPORTED) {
        cr_table_free(t);
        return skip(p, stem, title, bd->msg) == CR_OK ? CR_OK
                                                      : cr_diag_set(d, CR_ENOMEM, "no memory");
    }
    if (st != CR_OK) {
        cr_table_free(t);
        return cr_diag_set(d, st, "%s: %s", title, bd->msg);
    }
    st = add_table(p, t, stem, title, about, d);
    cr_table_free(t);
    return st;
}

/* table_part for a part whose `below` measured times are under their
 * bound (which: how the table shows them): a red warning atop it, and
 * counted in *violations, which make report exit 3. */
static cr_status measured_part(rep *p, cr_status st, cr_table *t, const char *stem,
                               const char *title, const char *about, int below, const char *which,
                               int *violations, cr_diag *bd, cr_diag *d)
{
    if (st != CR_OK || below <= 0)
        return table_part(p, st, t, stem, title, about, bd, d);
    char warn[300];
    snprintf(warn, sizeof warn,
             "<b>FAILED: %d measured time%s below %s bound</b> (%s): the kernel, its timing "
             "or the bound is wrong. commroof report exits 3.",
             below, below == 1 ? "" : "s", below == 1 ? "its" : "their", which);
    *violations += below;
    st = add_table_warn(p, t, stem, title, warn, about, d);
    cr_table_free(t);
    return st;
}

/* The "Measurement corpus" part (--corpus DIR): every log of the corpus on
 * its own system's topology and rank set (validate/corpus.c), the figures
 * per half, system and size band, and per half the accuracy and the error
 * by message size, one series per system. Nothing without a corpus. */
static cr_status corpus_part(rep *p, cr_diag *d)
{
    if (!p->o->corpus_dir)
        return skip(p, "corpus", "Measurement corpus",
                    "no --corpus given (a folder of nccl-tests logs, as validate/corpus)");
    cr_corpus c = {0};
    cr_diag cd = {{0}};
    cr_status st = cr_corpus_eval(p->o->corpus_dir, NULL, &c, &cd);
    if (st != CR_OK)
        return cr_diag_set(d, st, "corpus: %s", cd.msg);
    cr_table *tb = NULL;
    cr_diag bd = {{0}};
    char about[900];
    snprintf(about, sizeof about,
             "The measurement corpus %s: each system's nccl-tests logs on the topology and rank "
             "set its topologies.txt maps it to (commroof validate --corpus %s gives the same "
             "figures), split by source into a fitting half (the model's latency constants were "
             "fitted on it) and a checking half (never fitted), reported apart. Per half, "
             "system and size band: rows, median and p90 |error| of the prediction against the "
             "measured out-of-place time, and bound violations (measured below the bound).",
             p->o->corpus_dir, p->o->corpus_dir);
    st = cr_plot_corpus_table(&c, &tb, &bd);
    if ((st = table_part(p, st, tb, "corpus", "Measurement corpus", about, &bd, d)) != CR_OK)
        goto out;
    for (int by_size = 0; by_size < 2; by_size++)
        for (int h = 0; h < CR_CORPUS__HALVES; h++) {
            char stem[64], title[160];
            const char *hn = cr_corpus_half_name((cr_corpus_half)h);
            snprintf(stem, sizeof stem, "corpus-%s-%s", hn, by_size ? "error" : "accuracy");
            snprintf(title, sizeof title, "Measurement corpus, %s half: %s",
                     h == CR_CORPUS_FIT ? "fitting" : "checking",
                     by_size ? "error by message size" : "predicted against measured");
            snprintf(about, sizeof about,
                     by_size ? "Predicted / measured time of every row of the %s half against "
                               "its message size, one series per system: 1 is exact, the band "
                               "+/-10%%; the subtitle gives the median |error| per size band."
                             : "Predicted against measured time of every row of the %s half, "
                               "log-log, one series per system; the band is +/-10%%.",
                     hn);
            cr_chart *ch = NULL;
            memset(&bd, 0, sizeof bd);
            st = cr_plot_corpus(&c, (cr_corpus_half)h, by_size, &ch, &bd);
            if ((st = chart_part(p, st, ch, stem, title, about, &bd, d)) != CR_OK)
                goto out;
        }
out:
    cr_corpus_release(&c);
    return st;
}

/* The "Program roofline" part (--trace): the traces' operators against
 * their bounds, the table and totals of `commroof roofline` (one call of
 * cr_roofline_read: the same rows), and the gap chart of the operators
 * with a bound, most time to save first. A time below its bound is said at
 * the part's top and counted in p->r->violations. */
static cr_status program_part(rep *p, cr_diag *d)
{
    const cr_report_opts *o = p->o;
    /* listed as skipped, as every part without its input is (README,
     * --help; it was simply absent: QA audit of the report) */
    if (o->src.n_traces <= 0)
        return skip(p, "program-roofline", "Program roofline",
                    "no --trace given (a program's trace: commroof roofline TRACE's table)");
    const cr_topo *et = o->src.meas_topo ? o->src.meas_topo : o->topo;
    cr_roofline rf = {0};
    cr_diag rd = {{0}}, bd = {{0}};
    cr_status st = cr_roofline_read(et, o->src.traces, o->src.n_traces, &o->roofline, &rf, &rd);
    if (st != CR_OK)
        return cr_diag_set(d, st, "program roofline: %s", rd.msg);
    p->r->violations += rf.violations;
    char about[1800], warn[400], totals[256], extra[1024] = "";
    cr_roofline_totals(&rf, totals, sizeof totals);
    size_t el = 0;
    if (rf.calls_unowned)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d activities were inside no range (listed as kernels).",
                               rf.calls_unowned);
    if (rf.nccl_unpaired && el < sizeof extra)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d NCCL kernels or calls had no partner (not timed).",
                               rf.nccl_unpaired);
    if (rf.nccl_grouped && el < sizeof extra)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d NCCL calls grouped with others of their kind (one kernel; "
                               "not timed).",
                               rf.nccl_grouped);
    if (rf.info.skipped && el < sizeof extra)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d cr: range(s) skipped, neither a catalog operator call nor a "
                               "crbench case validate reads%s%.300s%s.",
                               rf.info.skipped, rf.info.why[0] ? " (first: " : "", rf.info.why,
                               rf.info.why[0] ? ")" : "");
    if (rf.by_start && el < sizeof extra)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d trace(s) recorded without CUDA_LAUNCH_BLOCKING=1 nor their "
                               "CUDA calls: an activity counts for the range open when it starts "
                               "(a later operator's where the GPU ran behind the host).",
                               rf.by_start);
    if (rf.unlinked && el < sizeof extra)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d activities came from CUDA calls the trace did not record: "
                               "each counts for the range open when it starts.",
                               rf.unlinked);
    if (rf.info.incomplete && el < sizeof extra)
        el +=
            (size_t)snprintf(extra + el, sizeof extra - el,
                             " %d trace(s) end before their closing bracket.", rf.info.incomplete);
    if (rf.info.unrecorded && el < sizeof extra)
        el += (size_t)snprintf(extra + el, sizeof extra - el,
                               " %d trace(s) did not record %s (COMMROOF_TRACE_RECORD): "
                               "operators' times leave those out.",
                               rf.info.unrecorded, rf.info.unrecorded_what);
    if (rf.info.not_traces && el < sizeof extra)
        snprintf(extra + el, sizeof extra - el, " %d file(s) were not traces.", rf.info.not_traces);
    snprintf(about, sizeof about,
             "One row per operator of the traced program on %s, longest total time first "
             "(commroof roofline TRACE --topo %s gives the same rows): PyTorch's emit_nvtx "
             "ranges, NCCL's calls and cr: ranges against their bound, other kernels without "
             "one. measured: median device time per call; bound: warm (the strict limit); "
             "cold: every byte from HBM; %% of roofline = bound / measured x 100; save = total "
             "- calls x bound, the most the operator could save. Totals: %s.%s",
             et->name, et->name, totals, extra);
    if (rf.violations)
        snprintf(warn, sizeof warn,
                 "<b>FAILED: %d operator%s with a time below %s bound</b> (verdict "
                 "&quot;impossible&quot;): a timing bug, a wrong attribution of kernels to "
                 "ranges, or a wrong bound. commroof report exits 3.",
                 rf.violations, rf.violations == 1 ? "" : "s",
                 rf.violations == 1 ? "its" : "their");
    cr_table *tb = NULL;
    st = cr_plot_program_table(&rf, et->name, &tb, &bd);
    if (st == CR_EUNSUPPORTED) {
        cr_table_free(tb);
        st = skip(p, "program-roofline", "Program roofline", bd.msg) == CR_OK
                 ? CR_OK
                 : cr_diag_set(d, CR_ENOMEM, "no memory");
        goto out;
    }
    if (st != CR_OK) {
        st = cr_diag_set(d, st, "Program roofline: %s", bd.msg);
        goto out;
    }
    st = add_table_warn(p, tb, "program-roofline", "Program roofline", rf.violations ? warn : NULL,
                        about, d);
    cr_table_free(tb);
    if (st != CR_OK)
        goto out;
    char source[300];
    snprintf(source, sizeof source, "%s%s", o->src.traces[0],
             o->src.n_traces > 1 ? " and more traces" : "");
    cr_chart *c = NULL;
    memset(&bd, 0, sizeof bd);
    st = cr_plot_program_gap(&rf, et->name, source, o->roofline_top, &c, &bd);
    snprintf(about, sizeof about,
             "The program's operators with a bound, the most time to save first (the rest "
             "summed into the last bars): the measured median time per call against the warm "
             "bound (100%%), and where a kernel that streams every byte from HBM would stand "
             "(the cold bound against the warm one). A bar over 100%% is a time below its "
             "bound. Totals: %s.",
             totals);
    st = chart_part(p, st, c, "program-gap", "Program roofline: gap per operator", about, &bd, d);
out:
    cr_roofline_release(&rf);
    return st;
}

static const char css[] =
    "body{font-family:system-ui,sans-serif;max-width:1300px;margin:2em auto;padding:0 1em;"
    "color:#222}\n"
    "h1{font-size:1.6em}h2{font-size:1.25em;border-bottom:1px solid #ccc;padding-bottom:.2em;"
    "margin-top:2em}\n"
    "img{max-width:100%;border:1px solid #ddd}\n"
    "table.numbers{border-collapse:collapse;font-size:.85em}\n"
    "table.numbers td,table.numbers th{border:1px solid #ddd;padding:2px 6px;white-space:nowrap}\n"
    "table.numbers th{background:#f3f3f3}td.n{text-align:right;font-variant-numeric:"
    "tabular-nums}\n"
    ".unit{font-weight:normal;color:#666}.files a{margin-right:.8em}\n"
    ".scroll{overflow-x:auto;max-height:40em;overflow-y:auto}\n"
    ".skipped{color:#777}code{background:#f3f3f3;padding:0 .2em}\n";

/* Writes the report's files into dir, an empty folder. */
static cr_status write_into(const char *dir, const cr_report_opts *o, cr_report_result *r,
                            cr_diag *d)
{
    cr_status st = CR_OK;
    rep p = {.dir = dir, .o = o, .r = r};
    const cr_topo *t = o->topo;
    const char *suite_arg = o->src.suite ? o->src.suite : "pkb";
    /* the suite's own name for the page's title, heading and text, as its
     * tables and the skip reasons give it: --suite FILE put the file's
     * name there (QA audit of the HTML report). One that does not open
     * keeps the argument; the suite's part says why. */
    char suite[128];
    {
        cr_suite *s = NULL;
        cr_diag sd = {{0}};
        cr_str_copy(suite, sizeof suite,
                    cr_suite_open(suite_arg, &s, &sd) == CR_OK && s->name ? s->name : suite_arg);
        cr_suite_free(s);
    }
    /* the traces and logs, read and evaluated once for every part that
     * shows them; one that cannot be read fails the report here, named as
     * itself (it was reported under the first part that read it: "Measured
     * problems: % of roofline: DIR: no trace file ...") */
    cr_plot_sources src = o->src;
    cr_plot_meas meas = {0};
    int valid_violations = 0;
    if (src.n_traces > 0 || src.n_nccl_logs > 0) {
        cr_diag md = {{0}};
        if ((st = cr_plot_meas_load(t, &src, &meas, &md)) != CR_OK) {
            st = cr_diag_set(d, st, "%s", md.msg);
            goto out;
        }
        src.loaded = &meas;
        for (size_t i = 0; i < meas.list.n; i++)
            valid_violations += meas.res[i].violation;
    }
    char about[600];
    cr_diag bd;
    cr_chart *c = NULL;
    cr_table *tb = NULL;

    /* the machine's ceilings */
    memset(&bd, 0, sizeof bd);
    /* among the suite's GPUs, as the communication roofline below (a
     * 2-rank suite's table said the 8-GPU in-switch ceiling) */
    st = cr_plot_ceilings_table(t, 0, o->sweep_ranks, &tb, &bd);
    snprintf(about, sizeof about,
             "Peak figures of GPU 0 of %s and its per-GPU communication ceilings, from the "
             "topology description.",
             t->name);
    if ((st = table_part(&p, st, tb, "ceilings", "Machine ceilings", about, &bd, d)) != CR_OK)
        goto out;

    /* the suite */
    memset(&bd, 0, sizeof bd);
    tb = NULL;
    st = cr_plot_suite_table(t, &src, &tb, &bd);
    snprintf(about, sizeof about,
             "One row per problem of suite %s on %s: bound (no implementation is faster), "
             "baseline (PyTorch + NCCL), headroom = baseline / bound, and the binding resource.",
             suite, t->name);
    if ((st = table_part(&p, st, tb, "suite", "Suite: bound, baseline, headroom", about, &bd, d)) !=
        CR_OK)
        goto out;

    /* measured times of the suite's problems: the numbers behind the gap
     * chart's measured bars */
    memset(&bd, 0, sizeof bd);
    tb = NULL;
    int meas_below = 0;
    st = cr_plot_measured_table(t, &src, &tb, &meas_below, &bd);
    /* as `commroof check` exits 3 on them (QA audit of 2026-12-06: a
     * harness time at 578 % of roofline passed without a word) */
    if ((st = measured_part(&p, st, tb, "measured", "Measured problems: % of roofline",
                            "Each measured time of a problem of the suite (harness results, "
                            "trace cases of the same operator and parameters) against the "
                            "problem's bound: the gap chart's measured bars.",
                            meas_below, "% of roofline above 100", &r->violations, &bd, d)) !=
        CR_OK)
        goto out;

    /* measured traces */
    memset(&bd, 0, sizeof bd);
    tb = NULL;
    st = cr_plot_validation_table(t, &src, &tb, &bd);
    /* as `commroof validate` exits 3 on them */
    if ((st = measured_part(&p, st, tb, "validation", "Validation of measured traces",
                            "Each measured case matched to its model case: bound, prediction, "
                            "measured, % of roofline and prediction error.",
                            valid_violations, "the rows marked VIOLATION", &r->violations, &bd,
                            d)) != CR_OK)
        goto out;

    /* charts */
    /* the suite's roofline, and the measured kernels' roofline on the
     * machine they ran on (one chart each: together they crowd) */
    cr_plot_sources model_src = src, meas_src = src;
    model_src.n_traces = model_src.n_nccl_logs = 0;
    meas_src.suite = NULL;
    memset(&bd, 0, sizeof bd);
    st = cr_plot_roofline_from(t, 0, &model_src, false, &c, &bd);
    if ((st = chart_part(&p, st, c, "roofline", "Roofline",
                         "FLOP/s against FLOP per HBM byte, log-log. Points: the suite's "
                         "problems at their bound, prediction and baseline (labels where they "
                         "fit; the table names every point).",
                         &bd, d)) != CR_OK)
        goto out;
    if (o->src.n_traces > 0) {
        const cr_topo *mt = o->src.meas_topo ? o->src.meas_topo : t;
        memset(&bd, 0, sizeof bd);
        st = cr_plot_roofline_from(mt, 0, &meas_src, false, &c, &bd);
        snprintf(about, sizeof about,
                 "The measured GEMM, HBM and fused kernels of the traces on %s (filled) and their "
                 "predictions (hollow), against its ceilings; dashed: measured ceilings where "
                 "the topology carries them.",
                 mt->name);
        if ((st = chart_part(&p, st, c, "roofline-measured", "Roofline of the measured kernels",
                             about, &bd, d)) != CR_OK)
            goto out;
    } else if ((st = skip(&p, "roofline-measured", "Roofline of the measured kernels",
                          "no --trace given (traces of measured kernels)")) != CR_OK)
        goto out;
    memset(&bd, 0, sizeof bd);
    cr_plot_sources comm_src = src;
    comm_src.ranks = o->sweep_ranks; /* the suite's GPUs: ceilings among them */
    st = cr_plot_roofline_from(t, 0, &comm_src, true, &c, &bd);
    if ((st = chart_part(&p, st, c, "comm-roofline", "Communication roofline",
                         "FLOP/s against FLOP per byte communicated (bus bytes per GPU), with "
                         "one ceiling per fabric.",
                         &bd, d)) != CR_OK)
        goto out;
    memset(&bd, 0, sizeof bd);
    st = cr_plot_gap_suite(t, &src, &c, &bd);
    if ((st = chart_part(&p, st, c, "gap", "Gap to the roofline",
                         "% of roofline (bound / time x 100) of the baseline, the prediction "
                         "and measured kernels, per problem. The bound is 100%.",
                         &bd, d)) != CR_OK)
        goto out;
    {
        /* 8 B to 8 GiB, as the caption says, whatever the logs hold */
        cr_sweep_opts so = {CR_COLL_ALLREDUCE, CR_DT_BF16, 8,    8.0 * 1024 * 1024 * 1024, 2,
                            o->sweep_ranks,    true,       false};
        char who[64];
        if (o->sweep_ranks)
            snprintf(who, sizeof who, "%d of its GPUs", o->sweep_ranks->n);
        else
            cr_str_copy(who, sizeof who, "every GPU");
        memset(&bd, 0, sizeof bd);
        st = cr_plot_sweep_from(t, &so, &src, &c, &bd);
        /* measured points promised only where the chart has some */
        int measured = 0;
        for (int i = 0; st == CR_OK && i < cr_chart_n_series(c); i++)
            if (strncmp(cr_chart_series_name(c, i), "measured: ", 10) == 0)
                measured += cr_chart_n_points(c, i);
        const char *meas_text =
            measured > 0
                ? ", and measured points (NCCL all-reduce cases of the traces and nccl-tests "
                  "logs on as many ranks; the chart's subtitle names their element type "
                  "where it is not bf16)."
            : o->src.n_traces > 0 || o->src.n_nccl_logs > 0
                ? ". No measured point: no trace or nccl-tests log holds an all-reduce on as "
                  "many ranks."
                : ".";
        snprintf(about, sizeof about,
                 "Bus bandwidth of a bf16 all-reduce over %s, 8 B to 8 GiB: bound, NCCL's "
                 "choice, each transfer mechanism%s",
                 who, meas_text);
        if ((st = chart_part(&p, st, c, "sweep-allreduce", "All-reduce size sweep", about, &bd,
                             d)) != CR_OK)
            goto out;
    }
    {
        const char *const *names = o->compare_topos;
        int n = o->n_compare;
        if (!names || n <= 0) {
            names = default_compare;
            n = (int)(sizeof default_compare / sizeof *default_compare);
        }
        static const struct {
            cr_compare_metric m;
            const char *stem, *title, *about;
        } cmp[2] = {
            {CR_COMPARE_BOUND_US, "compare-bound", "Hardware comparison: bound time",
             "The suite's bound on each machine: the least time any implementation could "
             "take."},
            {CR_COMPARE_HEADROOM, "compare-headroom", "Hardware comparison: headroom",
             "Baseline / bound on each machine: how much a custom kernel could gain over "
             "PyTorch + NCCL."},
        };
        for (int i = 0; i < 2; i++) {
            memset(&bd, 0, sizeof bd);
            st = cr_plot_compare_suite(&src, names, n, cmp[i].m, &c, &bd);
            if ((st = chart_part(&p, st, c, cmp[i].stem, cmp[i].title, cmp[i].about, &bd, d)) !=
                CR_OK)
                goto out;
        }
    }
    memset(&bd, 0, sizeof bd);
    st = cr_plot_accuracy_from(t, &src, false, &c, &bd);
    if ((st = chart_part(&p, st, c, "accuracy", "Prediction accuracy",
                         "Predicted against measured time for every validated case, log-log; "
                         "the band is +/-10%.",
                         &bd, d)) != CR_OK)
        goto out;
    memset(&bd, 0, sizeof bd);
    st = cr_plot_accuracy_from(t, &src, true, &c, &bd);
    if ((st = chart_part(&p, st, c, "accuracy-error", "Prediction error",
                         "The same cases as predicted / measured against the measured time: "
                         "1 is exact, the band +/-10% (on the log-log chart above it is a "
                         "hairline).",
                         &bd, d)) != CR_OK)
        goto out;

    if ((st = program_part(&p, d)) != CR_OK)
        goto out;
    if ((st = corpus_part(&p, d)) != CR_OK)
        goto out;

    /* the page */
    {
        cr_sbuf page = {0};
        char when[64];
        time_t now = time(NULL);
        struct tm tmv;
        strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime_r(&now, &tmv));
        cr_sbuf_add(&page, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                           "<title>commroof report: ");
        cr_sbuf_xml(&page, t->name);
        cr_sbuf_add(&page, ", ");
        cr_sbuf_xml(&page, suite);
        cr_sbuf_add(&page,
                    "</title>\n<style>\n%s</style></head><body>\n<h1>commroof report: ", css);
        cr_sbuf_xml(&page, t->name);
        cr_sbuf_add(&page, ", suite ");
        cr_sbuf_xml(&page, suite);
        cr_sbuf_add(&page, "</h1>\n<p>Written %s", when);
        if (o->command) {
            cr_sbuf_add(&page, " by <code>");
            cr_sbuf_xml(&page, o->command);
            cr_sbuf_add(&page, "</code>");
        }
        cr_sbuf_add(&page, ". ");
        if (t->description) {
            cr_sbuf_xml(&page, t->description);
            cr_sbuf_add(&page, ". ");
        }
        cr_sbuf_add(&page,
                    "<b>bound</b>: the least time any correct implementation could take on "
                    "this hardware; <b>baseline</b>: PyTorch + NCCL; <b>headroom</b> = "
                    "baseline / bound; <b>%% of roofline</b> = bound / measured x 100. Every "
                    "chart has its data file and gnuplot script beside it "
                    "(<code>gnuplot NAME.gp</code> in this folder re-renders it).</p>\n");
        if (r->violations > 0) {
            char warn[300];
            snprintf(warn, sizeof warn,
                     "<b>FAILED: %d row%s below %s bound</b> over the parts below (one "
                     "measured time may be a row of more than one), an impossible result; "
                     "the parts that show them say which.",
                     r->violations, r->violations == 1 ? "" : "s",
                     r->violations == 1 ? "its" : "their");
            warning(&page, warn);
        }
        /* the closing list of skipped parts is in the contents too */
        cr_sbuf_add(&page, "<ul>\n%s", p.toc.p ? p.toc.p : "");
        if (r->n_skipped > 0)
            cr_sbuf_add(&page, "<li><a href=\"#skipped\">Skipped</a> (%d part%s)</li>\n",
                        r->n_skipped, r->n_skipped == 1 ? "" : "s");
        cr_sbuf_add(&page, "</ul>\n%s", p.html.p ? p.html.p : "");
        if (r->n_skipped > 0) {
            cr_sbuf_add(&page, "<section id=\"skipped\"><h2>Skipped</h2><ul>\n");
            for (int i = 0; i < r->n_skipped; i++) {
                cr_sbuf_add(&page, "<li>");
                cr_sbuf_xml(&page, r->skipped[i]);
                cr_sbuf_add(&page, "</li>\n");
            }
            cr_sbuf_add(&page, "</ul></section>\n");
        }
        cr_sbuf_add(&page, "</body></html>\n");
        if (page.oom || p.html.oom || p.toc.oom) {
            cr_sbuf_release(&page);
            st = cr_diag_set(d, CR_ENOMEM, "out of memory writing index.html");
            goto out;
        }
        char path[4200];
        snprintf(path, sizeof path, "%s/index.html", dir);
        st = cr_file_write(path, page.p, page.len, d);
        cr_sbuf_release(&page);
        if (st == CR_OK && file_written(&p, "index.html") != CR_OK)
            st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        static const char mark[] = "This folder was written by commroof report; the next report "
                                   "given it replaces it whole.\n";
        snprintf(path, sizeof path, "%s/%s", dir, REPORT_MARK);
        if (st == CR_OK)
            st = cr_file_write(path, mark, sizeof mark - 1, d);
    }
out:
    cr_plot_meas_release(&meas);
    cr_sbuf_release(&p.html);
    cr_sbuf_release(&p.toc);
    return st;
}

/* Whether dir may be replaced by a report: absent, empty, or one a report
 * wrote (its mark, or, from before the mark, an index.html titled "commroof
 * report"): 0. Anything else is the user's, never removed (a report given
 * -o over a source folder deleted it): 1; a folder that cannot be read may
 * hold anything (it was moved aside as if empty): -errno. */
static int replaceable(const char *dir)
{
    DIR *dh = opendir(dir);
    if (!dh) /* absent, or not a folder: staging says which */
        return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
    bool empty = true;
    for (struct dirent *e; (e = readdir(dh));)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
            empty = false;
            break;
        }
    closedir(dh);
    if (empty)
        return 0;
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, REPORT_MARK);
    struct stat sb;
    if (lstat(p, &sb) == 0 && S_ISREG(sb.st_mode))
        return 0;
    snprintf(p, sizeof p, "%s/index.html", dir);
    FILE *f = fopen(p, "r");
    if (!f)
        return 1;
    char head[1024];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = '\0';
    return strstr(head, "<title>commroof report: ") ? 0 : 1;
}

/* The report goes into a fresh folder beside dir and moves into place only
 * once whole: a failure (gnuplot missing, an unreadable input) leaves dir as
 * it was, absent or the earlier report, never half rewritten. */
cr_status cr_report_write(const char *dir, const cr_report_opts *o, cr_report_result *r, cr_diag *d)
{
    memset(r, 0, sizeof *r);
    if (!o->topo || !dir || !dir[0])
        return cr_diag_set(d, CR_EINVAL, "report: no topology or no folder");
    int repl = replaceable(dir);
    if (repl < 0)
        return cr_diag_set(d, CR_EIO,
                           "%s: cannot read the folder to tell whether a report wrote it: %s; "
                           "the report replaces its folder whole, so give a new or empty folder",
                           dir, strerror(-repl));
    if (repl > 0)
        return cr_diag_set(d, CR_EINVAL,
                           "%s holds files that no commroof report wrote (no %s, no report's "
                           "index.html): the report replaces its folder whole, so give a new or "
                           "empty folder",
                           dir, REPORT_MARK);
    /* an earlier report whose folder this user may not empty would stay
     * beside the new one as NAME.oldXXXXXX: refused before anything runs */
    struct stat ds;
    if (stat(dir, &ds) == 0 && S_ISDIR(ds.st_mode) && access(dir, W_OK | X_OK) != 0)
        return cr_diag_set(d, CR_EIO,
                           "%s: cannot replace the earlier report: %s; make it writable or give "
                           "another folder",
                           dir, strerror(errno));
    char stage[4096];
    cr_status st = cr_file_stage_dir(dir, stage, sizeof stage, d);
    if (st != CR_OK)
        return st;
    st = write_into(stage, o, r, d);
    if (st == CR_OK)
        st = cr_file_commit_dir(stage, dir, d);
    if (st != CR_OK) {
        cr_file_remove_tree(stage);
        /* the message names the folder the user gave, not the stage */
        char *at = d ? strstr(d->msg, stage) : NULL;
        if (at) {
            char rest[sizeof d->msg];
            cr_str_copy(rest, sizeof rest, at + strlen(stage));
            snprintf(at, sizeof d->msg - (size_t)(at - d->msg), "%s%s", dir, rest);
        }
    }
    return st;
}
