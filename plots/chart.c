/* SPDX-License-Identifier: MIT */
/*
 * Charts rendered through gnuplot (see chart.h).
 *
 * gnuplot runs as a child process (fork + exec) in the image's directory, so
 * the script names its data file without a path and users can re-run it
 * there. The image is rendered to a temporary name passed as the variable
 * `outfile`, checked, then renamed: the script's own default output is the
 * final name.
 */
#include "chart.h"
#include "plots/sbuf_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_HLINES 4

typedef struct {
    double x, y, y2;
    char *label;
} pt;

typedef struct {
    char *name;
    cr_series_style style;
    bool labelled;
    pt *pts;
    int n, cap;
    double *bars; /* bar charts: one value per category */
    int nbars;
} series;

struct cr_chart {
    cr_chart_kind kind;
    char *title, *subtitle;
    char *label[2];
    cr_axis_scale scale[2];
    bool range_set[2];
    double lo[2], hi[2];
    char *si_unit[2];
    int w, h;
    series *s;
    int ns, cap_s;
    char **cats;
    int nc, cap_c;
    double hl_y[MAX_HLINES];
    char *hl_name[MAX_HLINES];
    int nhl;
    char **notes;
    int nn, cap_n;
};

static char *dupstr(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- building ---- */

cr_chart *cr_chart_new(cr_chart_kind kind, const char *title)
{
    cr_chart *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->kind = kind;
    c->title = dupstr(title ? title : "");
    c->w = 1000;
    c->h = 650;
    c->scale[0] = c->scale[1] = CR_AXIS_LINEAR;
    if (!c->title) {
        free(c);
        return NULL;
    }
    return c;
}

void cr_chart_free(cr_chart *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->ns; i++) {
        for (int j = 0; j < c->s[i].n; j++)
            free(c->s[i].pts[j].label);
        free(c->s[i].pts);
        free(c->s[i].bars);
        free(c->s[i].name);
    }
    free(c->s);
    for (int i = 0; i < c->nc; i++)
        free(c->cats[i]);
    free(c->cats);
    for (int i = 0; i < c->nhl; i++)
        free(c->hl_name[i]);
    for (int i = 0; i < c->nn; i++)
        free(c->notes[i]);
    free(c->notes);
    for (int i = 0; i < 2; i++) {
        free(c->label[i]);
        free(c->si_unit[i]);
    }
    free(c->title);
    free(c->subtitle);
    free(c);
}

static int axis_index(char axis)
{
    return axis == 'x' ? 0 : axis == 'y' ? 1 : -1;
}

static cr_status replace_str(char **dst, const char *src)
{
    char *n = dupstr(src);
    if (src && !n)
        return CR_ENOMEM;
    free(*dst);
    *dst = n;
    return CR_OK;
}

cr_status cr_chart_axis(cr_chart *c, char axis, const char *label, cr_axis_scale scale)
{
    int a = axis_index(axis);
    if (!c || a < 0)
        return CR_EINVAL;
    c->scale[a] = scale;
    return replace_str(&c->label[a], label);
}

cr_status cr_chart_range(cr_chart *c, char axis, double lo, double hi)
{
    int a = axis_index(axis);
    if (!c || a < 0 || !isfinite(lo) || !isfinite(hi) || !(lo < hi))
        return CR_EINVAL;
    c->range_set[a] = true;
    c->lo[a] = lo;
    c->hi[a] = hi;
    return CR_OK;
}

cr_status cr_chart_si_ticks(cr_chart *c, char axis, const char *unit)
{
    int a = axis_index(axis);
    if (!c || a < 0)
        return CR_EINVAL;
    return replace_str(&c->si_unit[a], unit ? unit : "");
}

cr_status cr_chart_subtitle(cr_chart *c, const char *text)
{
    if (!c)
        return CR_EINVAL;
    return replace_str(&c->subtitle, text);
}

void cr_chart_size(cr_chart *c, int width_px, int height_px)
{
    if (!c)
        return;
    if (width_px >= 200 && width_px <= 10000)
        c->w = width_px;
    if (height_px >= 200 && height_px <= 10000)
        c->h = height_px;
}

int cr_chart_series(cr_chart *c, const char *name, cr_series_style style, bool labelled)
{
    if (!c)
        return -1;
    if (c->ns == c->cap_s) {
        int ncap = c->cap_s ? 2 * c->cap_s : 8;
        series *ns = realloc(c->s, (size_t)ncap * sizeof *ns);
        if (!ns)
            return -1;
        c->s = ns;
        c->cap_s = ncap;
    }
    series *s = &c->s[c->ns];
    memset(s, 0, sizeof *s);
    s->name = dupstr(name ? name : "");
    if (!s->name)
        return -1;
    s->style = style;
    s->labelled = labelled;
    return c->ns++;
}

static cr_status add_pt(cr_chart *c, int si, double x, double y, double y2, const char *label)
{
    if (!c || c->kind != CR_CHART_XY || si < 0 || si >= c->ns)
        return CR_EINVAL;
    series *s = &c->s[si];
    if (s->n == s->cap) {
        int ncap = s->cap ? 2 * s->cap : 16;
        pt *np = realloc(s->pts, (size_t)ncap * sizeof *np);
        if (!np)
            return CR_ENOMEM;
        s->pts = np;
        s->cap = ncap;
    }
    pt *p = &s->pts[s->n];
    p->x = x;
    p->y = y;
    p->y2 = y2;
    p->label = NULL;
    if (label && label[0]) {
        p->label = dupstr(label);
        if (!p->label)
            return CR_ENOMEM;
    }
    s->n++;
    return CR_OK;
}

cr_status cr_chart_point(cr_chart *c, int s, double x, double y, const char *label)
{
    if (c && s >= 0 && s < c->ns && c->s[s].style == CR_SERIES_BAND)
        return CR_EINVAL;
    return add_pt(c, s, x, y, NAN, label);
}

cr_status cr_chart_band(cr_chart *c, int s, double x, double ylo, double yhi)
{
    if (!c || s < 0 || s >= c->ns || c->s[s].style != CR_SERIES_BAND)
        return CR_EINVAL;
    return add_pt(c, s, x, ylo, yhi, NULL);
}

int cr_chart_category(cr_chart *c, const char *name)
{
    if (!c || c->kind != CR_CHART_BARS)
        return -1;
    if (c->nc == c->cap_c) {
        int ncap = c->cap_c ? 2 * c->cap_c : 16;
        char **nc = realloc(c->cats, (size_t)ncap * sizeof *nc);
        if (!nc)
            return -1;
        c->cats = nc;
        c->cap_c = ncap;
    }
    c->cats[c->nc] = dupstr(name ? name : "");
    if (!c->cats[c->nc])
        return -1;
    return c->nc++;
}

cr_status cr_chart_bar(cr_chart *c, int si, int k, double value)
{
    if (!c || c->kind != CR_CHART_BARS || si < 0 || si >= c->ns || k < 0 || k >= c->nc)
        return CR_EINVAL;
    series *s = &c->s[si];
    if (k >= s->nbars) {
        int n = c->cap_c > k ? c->cap_c : k + 1;
        double *nb = realloc(s->bars, (size_t)n * sizeof *nb);
        if (!nb)
            return CR_ENOMEM;
        for (int i = s->nbars; i < n; i++)
            nb[i] = NAN;
        s->bars = nb;
        s->nbars = n;
    }
    s->bars[k] = value;
    return CR_OK;
}

cr_status cr_chart_hline(cr_chart *c, double y, const char *name)
{
    if (!c || c->nhl >= MAX_HLINES || !isfinite(y))
        return CR_EINVAL;
    c->hl_name[c->nhl] = dupstr(name ? name : "");
    if (!c->hl_name[c->nhl])
        return CR_ENOMEM;
    c->hl_y[c->nhl++] = y;
    return CR_OK;
}

cr_status cr_chart_note(cr_chart *c, const char *text)
{
    if (!c || !text)
        return CR_EINVAL;
    if (c->nn == c->cap_n) {
        int ncap = c->cap_n ? 2 * c->cap_n : 8;
        char **nn = realloc(c->notes, (size_t)ncap * sizeof *nn);
        if (!nn)
            return CR_ENOMEM;
        c->notes = nn;
        c->cap_n = ncap;
    }
    c->notes[c->nn] = dupstr(text);
    if (!c->notes[c->nn])
        return CR_ENOMEM;
    c->nn++;
    return CR_OK;
}

int cr_chart_n_series(const cr_chart *c)
{
    return c ? c->ns : 0;
}

int cr_chart_n_categories(const cr_chart *c)
{
    return c ? c->nc : 0;
}

int cr_chart_n_points(const cr_chart *c, int s)
{
    return (c && s >= 0 && s < c->ns) ? c->s[s].n : 0;
}

static double bar_value(const cr_chart *c, int si, int k)
{
    const series *s = &c->s[si];
    return k < s->nbars ? s->bars[k] : NAN;
}

/* ---- text helpers ---- */

/* A value in a data file: NaN for missing (the script declares it). */
static void sb_num(cr_sbuf *b, double v)
{
    if (isfinite(v))
        cr_sbuf_add(b, "%.6g", v);
    else
        cr_sbuf_add(b, "NaN");
}

/* A string in a data file: double-quoted, inner quotes and line breaks
 * replaced so one record stays one line and one column. */
static void sb_datastr(cr_sbuf *b, const char *s)
{
    cr_sbuf_add(b, "\"");
    for (; s && *s; s++) {
        char ch = *s;
        if (ch == '"')
            ch = '\'';
        else if (ch == '\n' || ch == '\r' || ch == '\t')
            ch = ' ';
        cr_sbuf_add(b, "%c", ch);
    }
    cr_sbuf_add(b, "\"");
}

/* A string literal in a gnuplot script (double quotes: backslash escapes
 * apply, so escape backslash and quote; a line break becomes \n). */
static void sb_gpstr(cr_sbuf *b, const char *s)
{
    cr_sbuf_add(b, "\"");
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            cr_sbuf_add(b, "\\%c", *s);
        else if (*s == '\n')
            cr_sbuf_add(b, "\\n");
        else if ((unsigned char)*s >= 0x20)
            cr_sbuf_add(b, "%c", *s);
    }
    cr_sbuf_add(b, "\"");
}

/* A comment line in a script or data file: no line breaks. */
static void sb_comment(cr_sbuf *b, const char *prefix, const char *s)
{
    cr_sbuf_add(b, "# %s", prefix);
    for (; s && *s; s++)
        cr_sbuf_add(b, "%c", (*s == '\n' || *s == '\r') ? ' ' : *s);
    cr_sbuf_add(b, "\n");
}

/* Colours that stay distinct in print and for common colour blindness
 * (Okabe-Ito order, then darker tones). */
static const char *const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                      "#E69F00", "#56B4E9", "#000000", "#8B0000",
                                      "#4B0082", "#556B2F", "#B8860B", "#708090"};
static const int point_types[] = {7, 5, 9, 13, 11, 15, 6, 4, 8, 12};
static const int open_types[] = {4, 6, 8, 12, 10, 14}; /* hollow square, circle, ... */

#define N_COLOURS ((int)(sizeof colours / sizeof colours[0]))
#define N_POINT_TYPES ((int)(sizeof point_types / sizeof point_types[0]))
#define N_OPEN_TYPES ((int)(sizeof open_types / sizeof open_types[0]))

/* An axis' label as the numbers' readers need it: where the tick labels
 * carry the unit ("1 ms"), the data file, JSON and HTML still say what
 * unit the numbers are in. */
static const char *data_label(const cr_chart *c, int a, char *buf, size_t n)
{
    const char *l = c->label[a] ? c->label[a] : "";
    if (c->si_unit[a] && strcmp(c->si_unit[a], "us") == 0)
        snprintf(buf, n, "%s (us)", l);
    else
        snprintf(buf, n, "%s", l);
    return buf;
}

/* ---- data file and script ---- */

static size_t longest_name(const cr_chart *c);
static void chart_px(const cr_chart *c, int *w, int *h);

static bool axis_log(const cr_chart *c, int a)
{
    if (c->scale[a] == CR_AXIS_LOG)
        return true;
    if (c->scale[a] == CR_AXIS_LINEAR)
        return false;
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        if (c->kind == CR_CHART_BARS) {
            if (a == 0)
                return false;
            for (int k = 0; k < c->nc; k++) {
                double v = bar_value(c, i, k);
                if (isfinite(v) && v > 0) {
                    lo = fmin(lo, v);
                    hi = fmax(hi, v);
                }
            }
            continue;
        }
        for (int j = 0; j < s->n; j++) {
            double vs[2] = {a == 0 ? s->pts[j].x : s->pts[j].y, a == 0 ? NAN : s->pts[j].y2};
            for (int q = 0; q < 2; q++)
                if (isfinite(vs[q]) && vs[q] > 0) {
                    lo = fmin(lo, vs[q]);
                    hi = fmax(hi, vs[q]);
                }
        }
    }
    return hi > 0 && hi / lo > 100.0;
}

/* Whether gnuplot can draw any point of s: a series with none (all its
 * values zero on a log axis, say) would make gnuplot stop with "all points
 * undefined", so it is left out of the plot (its numbers stay in the data
 * file). */
static bool drawable(const series *s, bool lgx, bool lgy)
{
    for (int j = 0; j < s->n; j++) {
        const pt *p = &s->pts[j];
        if (isfinite(p->x) && isfinite(p->y) && (!lgx || p->x > 0) && (!lgy || p->y > 0))
            return true;
    }
    return false;
}

/* Where each point's label goes: 'L' (right of the point, left-aligned),
 * 'R' (left of the point, near the right edge) or 0 (not drawn: it would
 * overlap a label already placed; the data file and the HTML table still
 * name every point). Greedy in series order on an estimate of the plot
 * area in pixels; labels are about 6.5 px per character and 13 px tall at
 * the 9 pt font the script uses. Returns one flag per point of every
 * series in order, or NULL when nothing is labelled or memory runs out. */
static char *place_labels(const cr_chart *c)
{
    size_t total = 0;
    bool any = false;
    for (int i = 0; i < c->ns; i++) {
        total += (size_t)c->s[i].n;
        any = any || (c->s[i].labelled && c->s[i].style != CR_SERIES_BAND && c->s[i].n > 0);
    }
    if (!any || c->kind != CR_CHART_XY)
        return NULL;
    char *flag = calloc(total + 1, 1);
    double *bx = malloc((total + 1) * 4 * sizeof *bx); /* placed boxes: x0 x1 y0 y1 */
    if (!flag || !bx) {
        free(flag);
        free(bx);
        return NULL;
    }
    double lo[2], hi[2];
    bool lg[2];
    for (int a = 0; a < 2; a++) {
        lg[a] = axis_log(c, a);
        lo[a] = INFINITY;
        hi[a] = -INFINITY;
        if (c->range_set[a]) {
            lo[a] = c->lo[a];
            hi[a] = c->hi[a];
            continue;
        }
        for (int i = 0; i < c->ns; i++)
            for (int j = 0; j < c->s[i].n; j++) {
                double v = a == 0 ? c->s[i].pts[j].x : c->s[i].pts[j].y;
                if (isfinite(v) && (!lg[a] || v > 0)) {
                    lo[a] = fmin(lo[a], v);
                    hi[a] = fmax(hi[a], v);
                }
            }
    }
    double key_px = longest_name(c) <= 34 ? (double)longest_name(c) * 7.0 + 70.0 : 0.0;
    int shown = 0;
    for (int i = 0; i < c->ns; i++)
        shown += drawable(&c->s[i], lg[0], lg[1]);
    /* a key under the plot takes a row per two entries */
    double key_rows = key_px > 0 ? 0.0 : ceil((shown + c->nhl) / 2.0);
    int pw, ph;
    chart_px(c, &pw, &ph);
    double wpx = fmax(200.0, pw - 90.0 - key_px);
    double hpx = fmax(150.0, ph - 170.0 - 20.0 * key_rows);
    size_t k = 0, nb = 0;
    int nlab = 0;
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        bool lab = s->labelled && s->style != CR_SERIES_BAND;
        /* the script alternates labelled series above and below their
         * points (offset 0.7 character, about 9 px) */
        double dy = 0;
        if (lab && drawable(s, lg[0], lg[1]))
            dy = (nlab++ % 2) ? -9.0 : 9.0;
        for (int j = 0; j < s->n; j++, k++) {
            const pt *p = &s->pts[j];
            if (!lab || !p->label || !(hi[0] > lo[0]) || !(hi[1] > lo[1]))
                continue;
            double fx = lg[0] ? log10(p->x / lo[0]) / log10(hi[0] / lo[0])
                              : (p->x - lo[0]) / (hi[0] - lo[0]);
            double fy = lg[1] ? log10(p->y / lo[1]) / log10(hi[1] / lo[1])
                              : (p->y - lo[1]) / (hi[1] - lo[1]);
            if (!isfinite(fx) || !isfinite(fy) || fx < 0 || fx > 1 || fy < 0 || fy > 1)
                continue;
            double px = fx * wpx, py = fy * hpx, len = 7.0 * (double)strlen(p->label) + 10.0;
            char side = px + len <= wpx ? 'L' : 'R';
            double x0 = side == 'L' ? px + 7 : px - 7 - len, x1 = x0 + len;
            double y0 = py + dy - 7.5, y1 = py + dy + 7.5;
            bool clash = false;
            for (size_t q = 0; q < nb && !clash; q++)
                clash = x0 < bx[4 * q + 1] && bx[4 * q] < x1 && y0 < bx[4 * q + 3] &&
                        bx[4 * q + 2] < y1;
            if (clash)
                continue;
            flag[k] = side;
            bx[4 * nb] = x0;
            bx[4 * nb + 1] = x1;
            bx[4 * nb + 2] = y0;
            bx[4 * nb + 3] = y1;
            nb++;
        }
    }
    free(bx);
    return flag;
}

static void write_data(const cr_chart *c, cr_sbuf *b, const char *flag)
{
    sb_comment(b, "commroof chart: ", c->title);
    if (c->subtitle)
        sb_comment(b, "", c->subtitle);
    for (int i = 0; i < c->nn; i++)
        sb_comment(b, "", c->notes[i]);
    if (c->kind == CR_CHART_BARS) {
        sb_comment(b, "columns: 1 = category; then one column per series, in ",
                   c->label[1] ? c->label[1] : "");
        cr_sbuf_add(b, "#   1 category\n");
        for (int i = 0; i < c->ns; i++) {
            char head[32];
            snprintf(head, sizeof head, "  %d ", i + 2);
            sb_comment(b, head, c->s[i].name);
        }
        for (int k = 0; k < c->nc; k++) {
            sb_datastr(b, c->cats[k]);
            for (int i = 0; i < c->ns; i++) {
                cr_sbuf_add(b, " ");
                sb_num(b, bar_value(c, i, k));
            }
            cr_sbuf_add(b, "\n");
        }
        return;
    }
    char lab[2][400];
    sb_comment(b, "x: ", data_label(c, 0, lab[0], sizeof lab[0]));
    sb_comment(b, "y: ", data_label(c, 1, lab[1], sizeof lab[1]));
    cr_sbuf_add(b, "# One block per series (gnuplot `index N`), columns x y \"label\" placement\n"
                   "# (L: label drawn right of the point, R: left of it, -: not drawn, it would\n"
                   "# overlap another); band series have columns x y_low y_high.\n");
    size_t k = 0;
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        char head[32];
        snprintf(head, sizeof head, "index %d: ", i);
        cr_sbuf_add(b, "\n\n");
        sb_comment(b, head, s->name);
        for (int j = 0; j < s->n; j++) {
            sb_num(b, s->pts[j].x);
            cr_sbuf_add(b, " ");
            sb_num(b, s->pts[j].y);
            cr_sbuf_add(b, " ");
            if (s->style == CR_SERIES_BAND) {
                sb_num(b, s->pts[j].y2);
            } else {
                sb_datastr(b, s->pts[j].label ? s->pts[j].label : "");
                /* where the script draws the label: L, R, or - (not drawn) */
                char f = flag ? flag[k + (size_t)j] : 0;
                cr_sbuf_add(b, " %c", f ? f : '-');
            }
            cr_sbuf_add(b, "\n");
        }
        k += (size_t)s->n;
        if (s->n == 0) /* keep the index numbering when a series is empty */
            cr_sbuf_add(b, "NaN NaN \"\"\n");
    }
}

static void write_axis(const cr_chart *c, cr_sbuf *b, int a)
{
    const char *ax = a == 0 ? "x" : "y";
    if (c->label[a]) {
        cr_sbuf_add(b, "set %slabel ", ax);
        sb_gpstr(b, c->label[a]);
        cr_sbuf_add(b, "\n");
    }
    bool lg = axis_log(c, a) && !(a == 0 && c->kind == CR_CHART_BARS);
    if (lg) {
        cr_sbuf_add(b, "set logscale %s 10\nset m%stics 10\n", ax, ax);
        if (c->si_unit[a] && c->range_set[a] && c->lo[a] > 0 && c->hi[a] / c->lo[a] < 1e30) {
            /* a known range: one label per decade, plain below 1000 (0.1,
             * not 100m), SI prefixes above (1k, 10M) */
            static const char pre[] = "kMGTPE";
            cr_sbuf_add(b, "set %stics (", ax);
            bool first = true;
            for (double v = pow(10.0, floor(log10(c->lo[a]) + 1e-9)); v <= c->hi[a] * 1.0001;
                 v *= 10.0) {
                char lab[48];
                int e3 = v >= 1000.0 ? (int)floor(log10(v) / 3.0 + 1e-9) : 0;
                if (e3 > 6)
                    e3 = 6;
                if (strcmp(c->si_unit[a], "us") == 0) {
                    /* times given in us read best in their own unit */
                    static const char *const tu[] = {"ns", "us", "ms", "s"};
                    int k = v < 1.0 ? 0 : v < 1e3 ? 1 : v < 1e6 ? 2 : 3;
                    snprintf(lab, sizeof lab, "%g %s", v * pow(1000.0, 1 - k), tu[k]);
                } else if (e3 > 0)
                    snprintf(lab, sizeof lab, "%.0f%c%s", v / pow(1000.0, e3), pre[e3 - 1],
                             c->si_unit[a]);
                else
                    snprintf(lab, sizeof lab, "%g%s", v, c->si_unit[a]);
                cr_sbuf_add(b, "%s\"%s\" %.6g", first ? "" : ", ", lab, v);
                first = false;
            }
            cr_sbuf_add(b, ")\n");
        } else if (c->si_unit[a]) {
            /* %.0s%c prints 1k, 10M ...: readable where 1e+06 is not */
            cr_sbuf_add(b, "set format %s ", ax);
            char fmt[64];
            snprintf(fmt, sizeof fmt, "%%.0s%%c%s", c->si_unit[a]);
            sb_gpstr(b, fmt);
            cr_sbuf_add(b, "\n");
        } else {
            cr_sbuf_add(b, "set format %s \"%%g\"\n", ax);
        }
    }
    if (c->range_set[a]) {
        cr_sbuf_add(b, "set %srange [%.6g:%.6g]\n", ax, c->lo[a], c->hi[a]);
    } else if (a == 1 && c->kind == CR_CHART_BARS) {
        /* bars start at 0 (or a decade under the least value on a log axis)
         * and the tallest stays clear of the frame */
        double lo = INFINITY, hi = 0;
        for (int i = 0; i < c->ns; i++)
            for (int k = 0; k < c->nc; k++) {
                double v = bar_value(c, i, k);
                if (isfinite(v) && v > 0) {
                    lo = fmin(lo, v);
                    hi = fmax(hi, v);
                }
            }
        for (int i = 0; i < c->nhl; i++)
            hi = fmax(hi, c->hl_y[i]);
        if (hi > 0 && lg)
            cr_sbuf_add(b, "set yrange [%.6g:%.6g]\n", pow(10.0, floor(log10(lo))) * 0.9,
                        pow(10.0, ceil(log10(hi * 1.5))));
        else if (hi > 0)
            cr_sbuf_add(b, "set yrange [0:%.6g]\n", hi * 1.12);
    }
}

/* Longest series name: long legends go under the plot, not beside it. */
static size_t longest_name(const cr_chart *c)
{
    size_t m = 0;
    for (int i = 0; i < c->ns; i++)
        if (c->s[i].n > 0 && strlen(c->s[i].name) > m)
            m = strlen(c->s[i].name);
    for (int i = 0; i < c->nhl; i++)
        if (strlen(c->hl_name[i]) > m)
            m = strlen(c->hl_name[i]);
    return m;
}

/* Many bars read better lying down: categories down the page, values
 * across, the image growing in height instead of width. */
static bool bars_horizontal(const cr_chart *c)
{
    return c->kind == CR_CHART_BARS && c->nc * (c->ns > 0 ? c->ns : 1) > 48;
}

/* The image size in pixels. */
static void chart_px(const cr_chart *c, int *w, int *h)
{
    *w = c->w;
    *h = c->h;
    if (c->kind == CR_CHART_XY && longest_name(c) > 34) {
        /* a key under the plot: grow the image by its rows so the plot
         * area keeps its height (about 7 px per character, 20 px a row) */
        int entries = c->nhl;
        for (int i = 0; i < c->ns; i++)
            entries += c->s[i].n > 0;
        int colw = (int)longest_name(c) * 7 + 70;
        int cols = (*w - 100) / colw >= 2 ? 2 : 1;
        *h += 20 * ((entries + cols - 1) / cols);
    }
    if (bars_horizontal(c)) {
        *w = 1150;
        *h = 190 + c->nc * (c->ns * 10 + 9);
        if (*h < 500)
            *h = 500;
    }
}

/* The value range of a bar chart: the set range, else from 0 (linear) or
 * a decade under the least bar (log) to clear of the tallest bar. */
static bool bar_range(const cr_chart *c, bool lg, double *lo_out, double *hi_out)
{
    if (c->range_set[1]) {
        *lo_out = c->lo[1];
        *hi_out = c->hi[1];
        return true;
    }
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < c->ns; i++)
        for (int k = 0; k < c->nc; k++) {
            double v = bar_value(c, i, k);
            if (isfinite(v) && v > 0) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    for (int i = 0; i < c->nhl; i++)
        hi = fmax(hi, c->hl_y[i]);
    if (!(hi > 0))
        return false;
    if (lg) {
        *lo_out = pow(10.0, floor(log10(lo))) * 0.9;
        *hi_out = pow(10.0, ceil(log10(hi * 1.5)));
    } else {
        *lo_out = 0;
        *hi_out = hi * 1.12;
    }
    return true;
}

/* Horizontal grouped bars: boxxyerror boxes, one per series and category,
 * from the value axis' base to the value. */
static void write_hbars(const cr_chart *c, cr_sbuf *b, const char *dat)
{
    bool lg = axis_log(c, 1);
    double lo = 0, hi = 1;
    bool have = bar_range(c, lg, &lo, &hi);
    if (c->label[1]) {
        cr_sbuf_add(b, "set xlabel ");
        sb_gpstr(b, c->label[1]);
        cr_sbuf_add(b, "\n");
    }
    if (c->label[0]) {
        cr_sbuf_add(b, "set ylabel ");
        sb_gpstr(b, c->label[0]);
        cr_sbuf_add(b, "\n");
    }
    if (lg)
        cr_sbuf_add(b, "set logscale x 10\nset mxtics 10\nset format x \"%%g\"\n");
    /* the value axis repeats on top: with dozens of categories the
     * bottom one is a long way down */
    if (lg)
        cr_sbuf_add(b, "set logscale x2 10\nset mx2tics 10\n");
    if (have)
        cr_sbuf_add(b, "set xrange [%.6g:%.6g]\nset x2range [%.6g:%.6g]\n", lo, hi, lo, hi);
    double base = lg ? lo : 0;
    cr_sbuf_add(b,
                "set key outside right top vertical Left reverse samplen 2 spacing 1.2\n"
                "set style fill solid 0.85 border rgb \"#333333\"\n"
                "set grid xtics mxtics noytics nomytics\n"
                "set x2tics\nset format x2 \"%%g\"\n"
                "set yrange [%.1f:-0.6]\nset ytics nomirror font \",9\" (",
                (double)c->nc - 0.4);
    for (int k = 0; k < c->nc; k++) {
        cr_sbuf_add(b, "%s", k ? ", " : "");
        sb_gpstr(b, c->cats[k]);
        cr_sbuf_add(b, " %d", k);
    }
    cr_sbuf_add(b, ")\n");
    for (int i = 0; i < c->nhl; i++) {
        cr_sbuf_add(
            b,
            "set arrow from %.6g, graph 0 to %.6g, graph 1 nohead lw 2 dt 2 lc rgb \"#000000\" "
            "front\n",
            c->hl_y[i], c->hl_y[i]);
    }
    double step = 0.8 / (c->ns > 0 ? c->ns : 1), half = step * 0.45;
    cr_sbuf_add(b, "plot ");
    for (int i = 0; i < c->ns; i++) {
        double off = -0.4 + (i + 0.5) * step;
        cr_sbuf_add(b, "%s", i ? ", \\\n     " : "");
        sb_gpstr(b, dat);
        cr_sbuf_add(b,
                    " using (%.6g):($0%+.4f):(%.6g):%d:($0%+.4f):($0%+.4f) with boxxyerror "
                    "lc rgb \"%s\" title ",
                    base, off, base, i + 2, off - half, off + half, colours[i % N_COLOURS]);
        sb_gpstr(b, c->s[i].name);
    }
    /* the reference lines are arrows; NaN plots give them a legend entry */
    for (int i = 0; i < c->nhl; i++) {
        cr_sbuf_add(b, "%sNaN with lines lw 2 dt 2 lc rgb \"#000000\" title ",
                    c->ns ? ", \\\n     " : "");
        sb_gpstr(b, c->hl_name[i]);
    }
    cr_sbuf_add(b, "\n");
}

static void write_script(const cr_chart *c, cr_sbuf *b, const char *stem, const char *ext)
{
    sb_comment(b, "commroof chart: ", c->title);
    cr_sbuf_add(b,
                "# Re-render in this folder: gnuplot %s.gp   (writes %s.%s; another name or\n"
                "# format: gnuplot -e \"outfile='%s.svg'\" %s.gp). Data: %s.dat\n",
                stem, stem, ext, stem, stem, stem);
    cr_sbuf_add(b, "if (!exists(\"outfile\")) outfile = ");
    char def[1100];
    snprintf(def, sizeof def, "%s.%s", stem, ext);
    sb_gpstr(b, def);
    cr_sbuf_add(b, "\n");
    int pw, ph;
    chart_px(c, &pw, &ph);
    cr_sbuf_add(b,
                "if (strstrt(outfile, \".svg\") > 0) {\n"
                "    set terminal svg size %d,%d dynamic noenhanced font \"Helvetica,13\" "
                "background \"white\"\n"
                "} else {\n"
                "    if (strstrt(GPVAL_TERMINALS, \" pngcairo \") > 0) {\n"
                "        set terminal pngcairo size %d,%d noenhanced font \"Sans,11\" "
                "background \"white\"\n"
                "    } else {\n"
                "        set terminal png size %d,%d noenhanced\n"
                "    }\n"
                "}\n"
                "set output outfile\n"
                "set datafile missing \"NaN\"\n",
                pw, ph, pw, ph, pw, ph);
    cr_sbuf_add(b, "set title ");
    if (c->subtitle) {
        size_t n = strlen(c->title) + strlen(c->subtitle) + 2;
        char *t = malloc(n);
        if (t) {
            snprintf(t, n, "%s\n%s", c->title, c->subtitle);
            /* the title is centred over the plot area: a long subtitle
             * breaks at the "; " nearest its middle rather than run off */
            size_t tl = strlen(c->title) + 1, sl = strlen(c->subtitle);
            if (sl > 64) {
                char *best = NULL;
                for (char *q = strstr(t + tl, "; "); q; q = strstr(q + 1, "; "))
                    if (!best || labs((long)(q - (t + tl)) - (long)sl / 2) <
                                     labs((long)(best - (t + tl)) - (long)sl / 2))
                        best = q;
                if (best) {
                    best[0] = '\n';
                    memmove(best + 1, best + 2, strlen(best + 2) + 1);
                }
            }
            sb_gpstr(b, t);
            free(t);
        } else {
            b->oom = true;
        }
    } else {
        sb_gpstr(b, c->title);
    }
    cr_sbuf_add(b, "\nset grid xtics ytics mxtics mytics lc rgb \"#d0d0d0\" lw 1, lc rgb "
                   "\"#ececec\" lw 1\nset border lw 1.2\n");
    char dat[1100];
    snprintf(dat, sizeof dat, "%s.dat", stem);
    if (bars_horizontal(c)) {
        write_hbars(c, b, dat);
        return;
    }
    write_axis(c, b, 0);
    write_axis(c, b, 1);

    if (c->kind == CR_CHART_BARS) {
        cr_sbuf_add(b, "set key outside right top vertical Left reverse samplen 2 spacing 1.2\n"
                       "set style data histogram\n"
                       "set style histogram clustered gap 1\n"
                       "set style fill solid 0.85 border rgb \"#333333\"\n"
                       "set boxwidth 0.9\n"
                       "set xtics rotate by 45 right nomirror\n"
                       "set grid noxtics nomxtics\n");
        if (c->nc > 0)
            cr_sbuf_add(b, "set xrange [-0.6:%.1f]\n", (double)c->nc - 0.4);
        cr_sbuf_add(b, "plot ");
        bool first = true;
        for (int i = 0; i < c->ns; i++) {
            cr_sbuf_add(b, "%s", first ? "" : ", \\\n     ");
            if (first) {
                sb_gpstr(b, dat);
                cr_sbuf_add(b, " using %d:xtic(1)", i + 2);
            } else {
                cr_sbuf_add(b, "'' using %d", i + 2);
            }
            cr_sbuf_add(b, " lc rgb \"%s\" title ", colours[i % N_COLOURS]);
            sb_gpstr(b, c->s[i].name);
            first = false;
        }
        for (int i = 0; i < c->nhl; i++) {
            cr_sbuf_add(b, "%s%.6g with lines lw 2 dt 2 lc rgb \"#000000\" title ",
                        first ? "" : ", \\\n     ", c->hl_y[i]);
            sb_gpstr(b, c->hl_name[i]);
            first = false;
        }
        cr_sbuf_add(b, "\n");
        return;
    }

    if (longest_name(c) <= 34)
        cr_sbuf_add(b, "set key outside right top vertical Left reverse samplen 3 spacing 1.2\n");
    else
        cr_sbuf_add(b,
                    "set key outside bottom center horizontal Left reverse samplen 3 spacing 1.2 "
                    "maxcols 2\n");
    cr_sbuf_add(b, "plot ");
    bool first = true;
    int colour = 0, ptype = 0, nlabelled = 0, ndashed = 0, optype = 0;
    bool lgx = axis_log(c, 0), lgy = axis_log(c, 1);
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        if (!drawable(s, lgx, lgy))
            continue;
        const char *col = colours[colour++ % N_COLOURS];
        cr_sbuf_add(b, "%s", first ? "" : ", \\\n     ");
        sb_gpstr(b, dat);
        cr_sbuf_add(b, " index %d ", i);
        switch (s->style) {
        case CR_SERIES_LINE:
            cr_sbuf_add(b, "using 1:2 with lines lw 2.5 lc rgb \"%s\"", col);
            break;
        case CR_SERIES_DASHED:
            /* dashed lines often coincide (two mechanisms at the same rate):
             * a dash pattern and sparse markers of their own keep each visible */
            cr_sbuf_add(b, "using 1:2 with linespoints lw 2 dt %d pt %d ps 0.9 pi %d lc rgb \"%s\"",
                        2 + ndashed % 4, point_types[(ndashed + 3) % N_POINT_TYPES],
                        s->n > 12 ? 3 + ndashed % 3 : 1, col);
            ndashed++;
            break;
        case CR_SERIES_POINTS:
            cr_sbuf_add(b, "using 1:2 with points pt %d ps 1.6 lc rgb \"%s\"",
                        point_types[ptype++ % N_POINT_TYPES], col);
            break;
        case CR_SERIES_OPENPOINTS:
            cr_sbuf_add(b, "using 1:2 with points pt %d ps 1.7 lw 1.5 lc rgb \"%s\"",
                        open_types[optype++ % N_OPEN_TYPES], col);
            break;
        case CR_SERIES_LINEPOINTS:
            cr_sbuf_add(b, "using 1:2 with linespoints lw 1.8 pt %d ps 1.1 lc rgb \"%s\"",
                        point_types[ptype++ % N_POINT_TYPES], col);
            break;
        case CR_SERIES_BAND:
            cr_sbuf_add(b,
                        "using 1:2:3 with filledcurves fs transparent solid 0.3 noborder "
                        "lc rgb \"%s\"",
                        col);
            break;
        }
        cr_sbuf_add(b, " title ");
        sb_gpstr(b, s->name);
        if (s->labelled && s->style != CR_SERIES_BAND) {
            /* column 4 says where each label fits (see place_labels) */
            const char *dy = (nlabelled++ % 2) ? "-0.7" : "0.7";
            cr_sbuf_add(b, ", \\\n     ");
            sb_gpstr(b, dat);
            cr_sbuf_add(b,
                        " index %d using 1:2:(strcol(4) eq \"L\" ? strcol(3) : \"\") with labels "
                        "left offset char 0.8,%s font \",9\" tc rgb \"%s\" notitle, \\\n     ",
                        i, dy, col);
            sb_gpstr(b, dat);
            cr_sbuf_add(b,
                        " index %d using 1:2:(strcol(4) eq \"R\" ? strcol(3) : \"\") with labels "
                        "right offset char -0.8,%s font \",9\" tc rgb \"%s\" notitle",
                        i, dy, col);
        }
        first = false;
    }
    for (int i = 0; i < c->nhl; i++) {
        cr_sbuf_add(b, "%s%.6g with lines lw 2 dt 3 lc rgb \"#444444\" title ",
                    first ? "" : ", \\\n     ", c->hl_y[i]);
        sb_gpstr(b, c->hl_name[i]);
        first = false;
    }
    cr_sbuf_add(b, "\n");
}

/* ---- files ---- */

cr_status cr_write_file_atomic(const char *path, const char *data, size_t len, cr_diag *d)
{
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp)
        return cr_diag_set(d, CR_ENOMEM, "out of memory writing %s", path);
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    cr_status st = CR_OK;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = cr_diag_set(d, CR_EIO, "cannot create %s: %s", tmp, strerror(errno));
        goto out;
    }
    (void)fchmod(fd, 0644);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            st = cr_diag_set(d, CR_EIO, "cannot write %s: %s", path, strerror(errno));
            close(fd);
            unlink(tmp);
            goto out;
        }
        off += (size_t)w;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        st = cr_diag_set(d, CR_EIO, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        goto out;
    }
    if (rename(tmp, path) != 0) {
        st = cr_diag_set(d, CR_EIO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        unlink(tmp);
    }
out:
    free(tmp);
    return st;
}

static cr_status read_head(const char *path, unsigned char *buf, size_t cap, size_t *got,
                           long *size, cr_diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_diag_set(d, CR_EIO, "cannot read %s: %s", path, strerror(errno));
    *got = fread(buf, 1, cap, f);
    if (fseek(f, 0, SEEK_END) == 0)
        *size = ftell(f);
    else
        *size = -1;
    fclose(f);
    return CR_OK;
}

cr_status cr_image_check(const char *path, cr_diag *d)
{
    size_t n = strlen(path);
    bool svg = n > 4 && strcmp(path + n - 4, ".svg") == 0;
    bool png = n > 4 && strcmp(path + n - 4, ".png") == 0;
    if (!svg && !png)
        return cr_diag_set(d, CR_EINVAL, "%s: image name must end in .png or .svg", path);
    if (png) {
        unsigned char h[32];
        size_t got = 0;
        long size = 0;
        cr_status st = read_head(path, h, sizeof h, &got, &size, d);
        if (st != CR_OK)
            return st;
        static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
        if (got < 24 || memcmp(h, sig, 8) != 0 || memcmp(h + 12, "IHDR", 4) != 0)
            return cr_diag_set(d, CR_EPARSE, "%s: not a PNG image (no PNG signature and IHDR)",
                               path);
        uint32_t w = (uint32_t)h[16] << 24 | (uint32_t)h[17] << 16 | (uint32_t)h[18] << 8 | h[19];
        uint32_t ht = (uint32_t)h[20] << 24 | (uint32_t)h[21] << 16 | (uint32_t)h[22] << 8 | h[23];
        if (w == 0 || ht == 0 || size < 1000)
            return cr_diag_set(d, CR_EPARSE, "%s: PNG image is empty (%ux%u, %ld bytes)", path, w,
                               ht, size);
        return CR_OK;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        return cr_diag_set(d, CR_EIO, "cannot read %s: %s", path, strerror(errno));
    cr_sbuf b = {0};
    char chunk[8192];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0 && !b.oom) {
        if (b.len + r + 1 > b.cap) {
            size_t ncap = b.cap ? b.cap : 65536;
            while (ncap < b.len + r + 1)
                ncap *= 2;
            char *np = realloc(b.p, ncap);
            if (!np) {
                b.oom = true;
                break;
            }
            b.p = np;
            b.cap = ncap;
        }
        memcpy(b.p + b.len, chunk, r);
        b.len += r;
        b.p[b.len] = '\0';
    }
    fclose(f);
    cr_status st = CR_OK;
    if (b.oom)
        st = cr_diag_set(d, CR_ENOMEM, "out of memory reading %s", path);
    else if (!b.p || !strstr(b.p, "<svg") || !strstr(b.p, "</svg>"))
        st = cr_diag_set(d, CR_EPARSE, "%s: not an SVG document (no <svg> root element)", path);
    else if (!strstr(b.p, "<path") && !strstr(b.p, "<text"))
        st = cr_diag_set(d, CR_EPARSE, "%s: SVG document draws nothing", path);
    cr_sbuf_release(&b);
    return st;
}

/* Reads up to cap-1 bytes of a small text file (gnuplot's stderr). */
static void slurp(const char *path, char *buf, size_t cap)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
    /* one line per message is enough; trailing whitespace adds nothing */
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\r'))
        buf[--n] = '\0';
}

static cr_status run_gnuplot(const char *gnuplot, const char *dir, const char *script,
                             const char *tmp_image, cr_diag *d)
{
    char errpath[4200];
    snprintf(errpath, sizeof errpath, "%s/.gnuplot-err.XXXXXX", dir);
    int efd = mkstemp(errpath);
    if (efd < 0)
        return cr_diag_set(d, CR_EIO, "cannot create a file in %s: %s", dir, strerror(errno));
    size_t an = strlen(tmp_image) + 32;
    char *assign = malloc(an);
    if (!assign) {
        close(efd);
        unlink(errpath);
        return cr_diag_set(d, CR_ENOMEM, "out of memory");
    }
    snprintf(assign, an, "outfile='%s'", tmp_image);
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(efd);
        unlink(errpath);
        free(assign);
        return cr_diag_set(d, CR_EIO, "cannot start gnuplot: %s", strerror(e));
    }
    if (pid == 0) {
        int nul = open("/dev/null", O_RDWR);
        if (nul >= 0) {
            dup2(nul, STDIN_FILENO);
            dup2(nul, STDOUT_FILENO);
        }
        dup2(efd, STDERR_FILENO);
        if (chdir(dir) != 0)
            _exit(126);
        char *argv[] = {(char *)(uintptr_t)gnuplot, (char *)(uintptr_t) "-e", assign,
                        (char *)(uintptr_t)script, NULL};
        execvp(gnuplot, argv);
        dprintf(STDERR_FILENO, "exec: %s", strerror(errno));
        _exit(127);
    }
    close(efd);
    free(assign);
    int wst = 0;
    while (waitpid(pid, &wst, 0) < 0) {
        if (errno != EINTR) {
            unlink(errpath);
            return cr_diag_set(d, CR_EIO, "waiting for gnuplot: %s", strerror(errno));
        }
    }
    char msg[700];
    slurp(errpath, msg, sizeof msg);
    unlink(errpath);
    if (WIFEXITED(wst) && WEXITSTATUS(wst) == 127 && strncmp(msg, "exec:", 5) == 0)
        return cr_diag_set(d, CR_EIO,
                           "cannot run \"%s\" (%s): install gnuplot (apt-get install "
                           "gnuplot-nox) or set COMMROOF_GNUPLOT to its path",
                           gnuplot, msg + 6);
    if (!WIFEXITED(wst) || WEXITSTATUS(wst) != 0) {
        if (WIFSIGNALED(wst))
            return cr_diag_set(d, CR_EIO, "gnuplot (%s) was killed by signal %d rendering %s/%s",
                               gnuplot, WTERMSIG(wst), dir, script);
        return cr_diag_set(d, CR_EIO, "gnuplot (%s) failed with status %d rendering %s/%s%s%s",
                           gnuplot, WEXITSTATUS(wst), dir, script, msg[0] ? ": " : "", msg);
    }
    return CR_OK;
}

cr_status cr_chart_render(const cr_chart *c, const char *out_path, const char *gnuplot, cr_diag *d)
{
    if (!c || !out_path)
        return cr_diag_set(d, CR_EINVAL, "no chart or output path");
    size_t n = strlen(out_path);
    const char *ext = n > 4 ? out_path + n - 3 : "";
    if (n <= 4 || out_path[n - 4] != '.' || (strcmp(ext, "png") != 0 && strcmp(ext, "svg") != 0))
        return cr_diag_set(d, CR_EINVAL,
                           "output \"%s\" must end in .png or .svg (e.g. -o roofline.png)",
                           out_path);
    bool any = false;
    for (int i = 0; i < c->ns; i++)
        if ((c->kind == CR_CHART_XY && drawable(&c->s[i], axis_log(c, 0), axis_log(c, 1))) ||
            (c->kind == CR_CHART_BARS && c->nc > 0))
            any = true;
    if (!any)
        return cr_diag_set(d, CR_EINVAL, "chart \"%s\" has no data to draw", c->title);

    cr_status st = CR_OK;
    char *dir = NULL, *stem = NULL, *path = NULL, *tmp_image = NULL, *final_base = NULL;
    cr_sbuf data = {0}, script = {0};
    const char *slash = strrchr(out_path, '/');
    if (slash) {
        dir = malloc((size_t)(slash - out_path) + 2);
        if (dir) {
            size_t dl = (size_t)(slash - out_path);
            if (dl == 0)
                dl = 1; /* "/x.png" lives in "/" */
            memcpy(dir, out_path, dl);
            dir[dl] = '\0';
        }
        stem = dupstr(slash + 1);
    } else {
        dir = dupstr(".");
        stem = dupstr(out_path);
    }
    path = malloc(n + 16);
    tmp_image = malloc(n + 64);
    if (!dir || !stem || !path || !tmp_image) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    stem[strlen(stem) - 4] = '\0';
    if (!stem[0]) {
        st = cr_diag_set(d, CR_EINVAL, "output \"%s\" has no file name before .%s", out_path, ext);
        goto out;
    }
    /* the name goes into gnuplot strings and the data file's name into the
     * script: quotes or control characters there would break them */
    for (const char *q = stem; *q; q++)
        if (*q == '\'' || *q == '"' || *q == '\\' || (unsigned char)*q < 0x20) {
            st = cr_diag_set(d, CR_EINVAL,
                             "output \"%s\": the file name may not hold quotes, backslashes or "
                             "control characters",
                             out_path);
            goto out;
        }

    char *flags = place_labels(c);
    write_data(c, &data, flags);
    free(flags);
    write_script(c, &script, stem, ext);
    if (data.oom || script.oom) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    snprintf(path, n + 16, "%.*s.dat", (int)(n - 4), out_path);
    st = cr_write_file_atomic(path, data.p, data.len, d);
    if (st != CR_OK)
        goto out;
    snprintf(path, n + 16, "%.*s.gp", (int)(n - 4), out_path);
    st = cr_write_file_atomic(path, script.p, script.len, d);
    if (st != CR_OK || !gnuplot)
        goto out;

    /* gnuplot writes a temporary image that becomes out_path only once it
     * passes the check */
    snprintf(tmp_image, n + 64, ".%s.tmp%ld.%s", stem, (long)getpid(), ext);
    char script_name[1100];
    snprintf(script_name, sizeof script_name, "%s.gp", stem);
    st = run_gnuplot(gnuplot, dir, script_name, tmp_image, d);
    final_base = malloc(strlen(dir) + strlen(tmp_image) + 2);
    if (!final_base) {
        st = cr_diag_set(d, CR_ENOMEM, "out of memory");
        goto out;
    }
    sprintf(final_base, "%s/%s", dir, tmp_image);
    if (st == CR_OK) {
        cr_diag id = {{0}};
        cr_status ist = cr_image_check(final_base, &id);
        if (ist != CR_OK)
            st =
                cr_diag_set(d, CR_EIO, "gnuplot wrote no valid image for %s: %s", out_path, id.msg);
        else if (rename(final_base, out_path) != 0)
            st = cr_diag_set(d, CR_EIO, "cannot rename %s to %s: %s", final_base, out_path,
                             strerror(errno));
    }
    if (st != CR_OK)
        unlink(final_base);
out:
    cr_sbuf_release(&data);
    cr_sbuf_release(&script);
    free(dir);
    free(stem);
    free(path);
    free(tmp_image);
    free(final_base);
    return st;
}

/* ---- HTML and JSON views of the numbers ---- */

static void sb_htmlnum(cr_sbuf *b, double v)
{
    if (isfinite(v))
        cr_sbuf_add(b, "%.4g", v);
    else
        cr_sbuf_add(b, "&ndash;");
}

cr_status cr_chart_html_table(const cr_chart *c, char **html)
{
    *html = NULL;
    cr_sbuf b = {0};
    cr_sbuf_add(&b, "<table class=\"numbers\">\n");
    if (c->kind == CR_CHART_BARS) {
        cr_sbuf_add(&b, "<tr><th>category</th>");
        for (int i = 0; i < c->ns; i++) {
            cr_sbuf_add(&b, "<th>");
            cr_sbuf_html(&b, c->s[i].name);
            cr_sbuf_add(&b, "</th>");
        }
        cr_sbuf_add(&b, "</tr>\n");
        for (int k = 0; k < c->nc; k++) {
            cr_sbuf_add(&b, "<tr><td>");
            cr_sbuf_html(&b, c->cats[k]);
            cr_sbuf_add(&b, "</td>");
            for (int i = 0; i < c->ns; i++) {
                cr_sbuf_add(&b, "<td>");
                sb_htmlnum(&b, bar_value(c, i, k));
                cr_sbuf_add(&b, "</td>");
            }
            cr_sbuf_add(&b, "</tr>\n");
        }
        if (c->label[1]) {
            cr_sbuf_add(&b, "<tr><td colspan=\"%d\" class=\"unit\">values: ", c->ns + 1);
            cr_sbuf_html(&b, c->label[1]);
            cr_sbuf_add(&b, "</td></tr>\n");
        }
    } else {
        cr_sbuf_add(&b, "<tr><th>series</th><th>label</th><th>");
        char lab[400];
        cr_sbuf_html(&b, c->label[0] ? data_label(c, 0, lab, sizeof lab) : "x");
        cr_sbuf_add(&b, "</th><th>");
        cr_sbuf_html(&b, c->label[1] ? data_label(c, 1, lab, sizeof lab) : "y");
        cr_sbuf_add(&b, "</th></tr>\n");
        for (int i = 0; i < c->ns; i++) {
            const series *s = &c->s[i];
            for (int j = 0; j < s->n; j++) {
                cr_sbuf_add(&b, "<tr><td>");
                cr_sbuf_html(&b, s->name);
                cr_sbuf_add(&b, "</td><td>");
                cr_sbuf_html(&b, s->pts[j].label ? s->pts[j].label : "");
                cr_sbuf_add(&b, "</td><td>");
                sb_htmlnum(&b, s->pts[j].x);
                cr_sbuf_add(&b, "</td><td>");
                sb_htmlnum(&b, s->pts[j].y);
                if (s->style == CR_SERIES_BAND) {
                    cr_sbuf_add(&b, " &ndash; ");
                    sb_htmlnum(&b, s->pts[j].y2);
                }
                cr_sbuf_add(&b, "</td></tr>\n");
            }
        }
    }
    cr_sbuf_add(&b, "</table>\n");
    if (b.oom) {
        cr_sbuf_release(&b);
        return CR_ENOMEM;
    }
    *html = b.p;
    return CR_OK;
}

static json_t *jnum(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

cr_status cr_chart_json(const cr_chart *c, char **out)
{
    *out = NULL;
    json_t *root = json_object();
    json_t *arr = json_array();
    if (!root || !arr) {
        json_decref(root);
        json_decref(arr);
        return CR_ENOMEM;
    }
    json_object_set_new(root, "title", json_string(c->title));
    if (c->subtitle)
        json_object_set_new(root, "subtitle", json_string(c->subtitle));
    json_object_set_new(root, "kind", json_string(c->kind == CR_CHART_BARS ? "bars" : "xy"));
    char lab[400];
    json_object_set_new(root, "x_label",
                        c->label[0] ? json_string(data_label(c, 0, lab, sizeof lab)) : json_null());
    json_object_set_new(root, "y_label",
                        c->label[1] ? json_string(data_label(c, 1, lab, sizeof lab)) : json_null());
    json_object_set_new(root, "y_log", json_boolean(axis_log(c, 1)));
    if (c->kind == CR_CHART_XY)
        json_object_set_new(root, "x_log", json_boolean(axis_log(c, 0)));
    if (c->kind == CR_CHART_BARS) {
        json_t *cats = json_array();
        for (int k = 0; k < c->nc; k++)
            json_array_append_new(cats, json_string(c->cats[k]));
        json_object_set_new(root, "categories", cats);
    }
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        json_t *js = json_object();
        json_object_set_new(js, "name", json_string(s->name));
        json_t *pts = json_array();
        if (c->kind == CR_CHART_BARS) {
            for (int k = 0; k < c->nc; k++)
                json_array_append_new(pts, jnum(bar_value(c, i, k)));
            json_object_set_new(js, "values", pts);
        } else {
            for (int j = 0; j < s->n; j++) {
                json_t *p = json_object();
                json_object_set_new(p, "x", jnum(s->pts[j].x));
                if (s->style == CR_SERIES_BAND) {
                    json_object_set_new(p, "y_low", jnum(s->pts[j].y));
                    json_object_set_new(p, "y_high", jnum(s->pts[j].y2));
                } else {
                    json_object_set_new(p, "y", jnum(s->pts[j].y));
                }
                if (s->pts[j].label)
                    json_object_set_new(p, "label", json_string(s->pts[j].label));
                json_array_append_new(pts, p);
            }
            json_object_set_new(js, "points", pts);
        }
        json_array_append_new(arr, js);
    }
    json_object_set_new(root, "series", arr);
    if (c->nhl > 0) {
        json_t *hl = json_array();
        for (int i = 0; i < c->nhl; i++) {
            json_t *h = json_object();
            json_object_set_new(h, "name", json_string(c->hl_name[i]));
            json_object_set_new(h, "y", json_real(c->hl_y[i]));
            json_array_append_new(hl, h);
        }
        json_object_set_new(root, "reference_lines", hl);
    }
    *out = json_dumps(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
    json_decref(root);
    return *out ? CR_OK : CR_ENOMEM;
}
