/* SPDX-License-Identifier: MIT */
/*
 * A chart's data file and gnuplot script (see chart_priv.h): the layout of
 * the image (plot area, key, title lines), where point labels fit, the axes
 * and the script that draws it all. chart.c renders them.
 */
#include "plots/chart_priv.h"
#include "sbuf.h"
#include "plots/sbuf_priv.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- text helpers ---- */

/* A value in a data file: NaN for missing (the script declares it). 15
 * significant digits: a message size of 1048576 or 8589934592 bytes is
 * written whole, as the nccl-tests log printed it (6 made it 1.04858e+06). */
static void sb_num(cr_sbuf *b, double v)
{
    if (isfinite(v))
        cr_sbuf_add(b, "%.15g", v);
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

/* A comment line in a script or data file: no line breaks, and no
 * backslash at its end (gnuplot would read the next line as part of it). */
static void sb_comment(cr_sbuf *b, const char *prefix, const char *s)
{
    cr_sbuf_add(b, "# %s", prefix);
    char last = 0;
    for (; s && *s; s++) {
        last = (*s == '\n' || *s == '\r') ? ' ' : *s;
        cr_sbuf_add(b, "%c", last);
    }
    cr_sbuf_add(b, "%s\n", last == '\\' ? " " : "");
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

/* Bar series i's colour and fill. Past the palette the colours come round
 * again (plot compare takes 16 machines, the palette has 12), so a second
 * round is hatched, a third hatched the other way, and so on: the 13th
 * machine's bars were the 1st's, solid blue beside solid blue. */
static void bar_look(cr_sbuf *b, int i)
{
    cr_sbuf_add(b, " lc rgb \"%s\"", colours[i % N_COLOURS]);
    if (i >= N_COLOURS)
        cr_sbuf_add(b, " fs pattern %d border rgb \"#333333\"", 4 + (i / N_COLOURS - 1) % 4);
}

/* ---- data file and script ---- */

static size_t longest_name(const cr_chart *c);
static void chart_px(const cr_chart *c, int *w, int *h);
static int key_columns(const cr_chart *c);

bool chart_axis_log(const cr_chart *c, int a)
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
                double v = chart_bar_value(c, i, k);
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
bool chart_drawable(const series *s, bool lgx, bool lgy)
{
    for (int j = 0; j < s->n; j++) {
        const pt *p = &s->pts[j];
        if (isfinite(p->x) && isfinite(p->y) && (!lgx || p->x > 0) && (!lgy || p->y > 0))
            return true;
    }
    return false;
}

/* Whether axis a counts bytes (cr_chart_si_ticks "B"): its ticks are
 * powers of two, as the sizes it draws are (nccl-tests and the CLI's K, M,
 * G step by 1024). */
static bool byte_axis(const cr_chart *c, int a)
{
    return c->si_unit[a] && strcmp(c->si_unit[a], "B") == 0;
}

/* Points of s that gnuplot draws: a line through one of them draws
 * nothing (a one-size sweep's bound was invisible). */
static int drawable_points(const series *s, bool lgx, bool lgy)
{
    int n = 0;
    for (int j = 0; j < s->n; j++) {
        const pt *p = &s->pts[j];
        n += isfinite(p->x) && isfinite(p->y) && (!lgx || p->x > 0) && (!lgy || p->y > 0);
    }
    return n;
}

/* The plot area of an XY chart, in pixels, and its axes. The script fixes
 * the margins (set lmargin at screen ...) and the log axes' ranges to
 * these numbers, so that labels are placed on the picture gnuplot draws.
 * Text is estimated at 8 px a character for the 11 pt key and tick font
 * and 7 px for the 9 pt labels (pngcairo Sans; the SVG's Helvetica 13 px
 * is narrower), lines at 18 px. */
typedef struct {
    int pw, ph;                      /* the image */
    double left, right, top, bottom; /* margins */
    double w, h;                     /* the plot area */
    bool lg[2];
    double lo[2], hi[2];
    bool known; /* both ranges positive and non-empty */
    bool oom;   /* memory ran out measuring the title: the margins are not right */
} xy_geom;

#define KEY_RIGHT_MAX_CHARS 34

static int title_lines(const cr_chart *c);

static bool key_right(const cr_chart *c)
{
    return longest_name(c) <= KEY_RIGHT_MAX_CHARS;
}

/* The plot area's margins in px: 90 on the left for the y tick labels and
 * title; on the right the key's longest entry (8 px a character) and its
 * sample when the key is there, else 30. */
#define LEFT_MARGIN_PX 90.0

static double right_margin_px(const cr_chart *c, bool key_on_right)
{
    return key_on_right ? (double)longest_name(c) * 8.0 + 80.0 : 30.0;
}

/* Whether any labelled series has a point to label. */
bool chart_has_labels(const cr_chart *c)
{
    for (int i = 0; i < c->ns; i++)
        if (c->s[i].labelled && c->s[i].style != CR_SERIES_BAND && c->s[i].n > 0)
            return true;
    return false;
}

static int key_entries(const cr_chart *c)
{
    int n = c->nhl;
    bool lg[2] = {chart_axis_log(c, 0), chart_axis_log(c, 1)};
    for (int i = 0; i < c->ns; i++)
        n += chart_drawable(&c->s[i], lg[0], lg[1]);
    return n;
}

/* Pixels a key entry takes (spacing 1.2 at the 11 pt font of both the PNG
 * and the SVG: 20-21 px measured on the rendered charts). */
#define KEY_ROW_PX 21.0

/* Pixels a row of the numbered label list takes (8 pt) under a key that
 * sits under the plot, in TAG_COLUMNS columns. */
#define TAG_ROW_PX 14.0
#define TAG_COLUMNS 3

/* list_rows: rows of the numbered label list under a key under the plot
 * (0 otherwise): the image grows by them, the plot area stays. */
static void xy_geom_of(const cr_chart *c, int list_rows, xy_geom *g)
{
    memset(g, 0, sizeof *g);
    chart_px(c, &g->pw, &g->ph);
    double list_px = list_rows > 0 ? TAG_ROW_PX * list_rows + 12.0 : 0.0;
    g->ph += (int)list_px;
    for (int a = 0; a < 2; a++) {
        g->lg[a] = chart_axis_log(c, a);
        g->lo[a] = INFINITY;
        g->hi[a] = -INFINITY;
        if (c->range_set[a]) {
            g->lo[a] = c->lo[a];
            g->hi[a] = c->hi[a];
            continue;
        }
        for (int i = 0; i < c->ns; i++)
            for (int j = 0; j < c->s[i].n; j++) {
                double vs[2] = {a == 0 ? c->s[i].pts[j].x : c->s[i].pts[j].y,
                                a == 0 ? NAN : c->s[i].pts[j].y2};
                for (int q = 0; q < 2; q++)
                    if (isfinite(vs[q]) && (!g->lg[a] || vs[q] > 0)) {
                        g->lo[a] = fmin(g->lo[a], vs[q]);
                        g->hi[a] = fmax(g->hi[a], vs[q]);
                    }
            }
        /* every point at one x or y (a one-size sweep): a decade each
         * side, so that the points stand in the middle instead of on the
         * left edge of a rounded-up decade */
        if (g->lg[a] && g->hi[a] > 0 && g->hi[a] == g->lo[a]) {
            g->lo[a] /= 10.0;
            g->hi[a] *= 10.0;
        } else if (g->lg[a] && g->hi[a] > 0 && byte_axis(c, a)) {
            /* a byte axis ends a power of two beyond its least and its
             * largest size (byte_tics), so that neither sits on the frame */
            g->lo[a] = ldexp(1.0, (int)floor(log2(g->lo[a]) + 1e-9) - 1);
            g->hi[a] = ldexp(1.0, (int)ceil(log2(g->hi[a]) - 1e-9) + 1);
        } else if (g->lg[a] && g->hi[a] > 0) {
            /* whole decades, as gnuplot's autoscale, but with room: the
             * highest value at least 15% under the top, which ends on 1,
             * 2 or 5 times a power of ten (a 963 GB/s bound ran into the
             * frame at 1000; 2000 leaves the 1000 tick inside), and the
             * least as far over a whole decade */
            double top = g->hi[a] * 1.15, dec = pow(10.0, floor(log10(top) + 1e-9));
            g->hi[a] = top <= dec * (1 + 1e-9) ? dec
                       : top <= 2 * dec        ? 2 * dec
                       : top <= 5 * dec        ? 5 * dec
                                               : 10 * dec;
            g->lo[a] = pow(10.0, floor(log10(g->lo[a] / 1.15) + 1e-9));
            if (!(g->hi[a] > g->lo[a]))
                g->hi[a] = g->lo[a] * 10.0;
        }
    }
    g->known = g->hi[0] > g->lo[0] && g->hi[1] > g->lo[1] && isfinite(g->lo[0]) &&
               isfinite(g->lo[1]) && (!g->lg[0] || g->lo[0] > 0) && (!g->lg[1] || g->lo[1] > 0);
    g->left = LEFT_MARGIN_PX;
    int tl = title_lines(c);
    g->oom = tl < 0;
    g->top = 22 + 18.0 * (tl < 0 ? 1 : tl);
    g->bottom = 62;
    g->right = right_margin_px(c, key_right(c));
    if (!key_right(c)) {
        int cols = key_columns(c);
        g->bottom += 10 + 20.0 * ceil((double)key_entries(c) / cols) + list_px;
    } else {
        /* gnuplot wraps a key taller than the plot area into a second
         * column, which a key on the right puts past the image's edge (the
         * corpus chart's 29 systems showed 12): the image grows until the
         * key fits in one (KEY_ROW_PX a row, one spare) */
        double need = g->top + KEY_ROW_PX * (key_entries(c) + 1) + g->bottom;
        if (g->ph < need)
            g->ph = (int)ceil(need);
    }
    g->w = fmax(200.0, g->pw - g->left - g->right);
    g->h = fmax(150.0, g->ph - g->top - g->bottom);
}

/* A point's position in the plot area, pixels from its bottom-left
 * corner; false outside it or not chart_drawable. */
static bool to_px(const xy_geom *g, double x, double y, double *px, double *py)
{
    double v[2] = {x, y}, f[2];
    for (int a = 0; a < 2; a++) {
        if (!isfinite(v[a]) || (g->lg[a] && !(v[a] > 0)))
            return false;
        f[a] = g->lg[a] ? log10(v[a] / g->lo[a]) / log10(g->hi[a] / g->lo[a])
                        : (v[a] - g->lo[a]) / (g->hi[a] - g->lo[a]);
        if (!isfinite(f[a]))
            return false;
    }
    *px = f[0] * g->w;
    *py = f[1] * g->h;
    return f[0] >= -1e-9 && f[0] <= 1 + 1e-9 && f[1] >= -1e-9 && f[1] <= 1 + 1e-9;
}

/* Whether the segment (ax,ay)-(bx,by) crosses the box (Liang-Barsky). */
static bool seg_hits_box(double ax, double ay, double bx, double by, const double box[4])
{
    double t0 = 0, t1 = 1, dx = bx - ax, dy = by - ay;
    double p[4] = {-dx, dx, -dy, dy};
    double q[4] = {ax - box[0], box[1] - ax, ay - box[2], box[3] - ay};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0)
                return false;
            continue;
        }
        double r = q[i] / p[i];
        if (p[i] < 0)
            t0 = fmax(t0, r);
        else
            t1 = fmin(t1, r);
        if (t0 > t1)
            return false;
    }
    return true;
}

static bool boxes_overlap(const double a[4], const double b[4])
{
    return a[0] < b[1] && b[0] < a[1] && a[2] < b[3] && b[2] < a[3];
}

/* Many filled markers (an accuracy chart of hundreds of cases) hide each
 * other, and a family drawn first can vanish under the later ones: past
 * DENSE_POINTS they are drawn smaller and see-through (alpha 0x60 of 0xff
 * transparent), so overlaps show as darker spots. */
#define DENSE_POINTS 60

static bool dense_points(const cr_chart *c)
{
    int n = 0;
    for (int i = 0; i < c->ns; i++)
        if (c->s[i].style == CR_SERIES_POINTS)
            n += c->s[i].n;
    return n > DENSE_POINTS;
}

/* Marker half-size in pixels for a series style (the script's ps x about
 * 3.5 px, and a pixel to spare); 0 for styles without markers. */
static double marker_half(cr_series_style st, bool dense)
{
    switch (st) {
    case CR_SERIES_POINTS:
        return (dense ? 1.2 : 1.6) * 3.5 + 1;
    case CR_SERIES_OPENPOINTS:
        return 1.7 * 3.5 + 1;
    case CR_SERIES_LINEPOINTS:
        return 1.1 * 3.5 + 1;
    default:
        return 0;
    }
}

/* The places a label may take around its point, in order of preference:
 * on its right above, below and level with it, then the same on its left
 * (the data file's NE, SE, E, NW, SW, W, as on a map; the script draws
 * each with its own offset). */
#define N_PLACES 6
static const char *const place_code[N_PLACES] = {"NE", "SE", "E", "NW", "SW", "W"};
#define LABEL_DX 8.0 /* px between the point and the label's near end */
#define LABEL_DY 8.0 /* px between the point and the label's middle line */
#define LABEL_HALF_H 7.0

static bool place_right(int where)
{
    return where < 3;
}

/* The label's vertical offset from its point in px. */
static double place_dy(int where)
{
    return where % 3 == 0 ? LABEL_DY : where % 3 == 1 ? -LABEL_DY : 0.0;
}

static void label_box(double px, double py, int where, double len, double box[4])
{
    box[0] = place_right(where) ? px + LABEL_DX : px - LABEL_DX - len;
    box[1] = box[0] + len;
    box[2] = py + place_dy(where) - LABEL_HALF_H;
    box[3] = py + place_dy(where) + LABEL_HALF_H;
}

void chart_label_plan_free(label_plan *lp)
{
    free(lp->flag);
    free(lp->tag);
    memset(lp, 0, sizeof *lp);
}

/* Numbers the list may hold: under a key on the right, the rows left
 * below it down to the plot area's bottom (13 px each); under a key under the plot, up to 60 in
 * TAG_COLUMNS columns (the image grows). */
static int tag_capacity(const cr_chart *c, const xy_geom *g)
{
    if (!key_right(c))
        return 60;
    /* from under the key down to the plot area's bottom: lower, the x
     * axis' last tick label reaches into the margin */
    double top = g->top + 20.0 * key_entries(c) + 24.0;
    int n = (int)floor((g->top + g->h - top) / 13.0);
    return n > 0 ? n : 0;
}

/* The first of the six places where a label of len px next to (px, py)
 * covers no placed label, no marker and, if it can, no line; -1: none. */
static int free_place(const xy_geom *g, double px, double py, double len, const double *lab,
                      size_t nl, const double *mk, size_t nmk, const double *seg, size_t nseg)
{
    double box[4];
    for (int pass = 0; pass < 2; pass++)
        for (int w = 0; w < N_PLACES; w++) {
            label_box(px, py, w, len, box);
            bool bad = box[0] < 0 || box[1] > g->w || box[2] < 0 || box[3] > g->h;
            for (size_t q = 0; q < nl && !bad; q++)
                bad = boxes_overlap(box, &lab[4 * q]);
            for (size_t q = 0; q < nmk && !bad; q++)
                bad = boxes_overlap(box, &mk[4 * q]);
            for (size_t q = 0; q < nseg && !bad && pass == 0; q++)
                bad = seg_hits_box(seg[4 * q], seg[4 * q + 1], seg[4 * q + 2], seg[4 * q + 3], box);
            if (!bad)
                return w;
        }
    return -1;
}

/* Places the labels greedily in series order over the plot area
 * xy_geom_of computes: first every label by name where it fits, then, for
 * those left, a number (a few pixels wide, it fits where a name does not)
 * that the list beside the key names, as many as the list holds. A label
 * stays inside the plot area. lp is zeroed when nothing is labelled.
 * Errors: CR_ENOMEM. */
cr_status chart_place_labels(const cr_chart *c, label_plan *lp)
{
    memset(lp, 0, sizeof *lp);
    if (c->kind != CR_CHART_XY || !chart_has_labels(c))
        return CR_OK;
    xy_geom g;
    xy_geom_of(c, 0, &g);
    if (g.oom)
        return CR_ENOMEM;
    size_t total = 0, nmk = 0, nseg = 0;
    for (int i = 0; i < c->ns; i++)
        total += (size_t)c->s[i].n;
    lp->flag = calloc(total + 1, 1);
    lp->tag = calloc(total + 1, sizeof *lp->tag);
    double *lab = malloc((total + 1) * 4 * sizeof *lab); /* placed labels */
    double *mk = malloc((total + 1) * 4 * sizeof *mk);   /* markers */
    double *seg = malloc((total + 1) * 4 * sizeof *seg); /* line segments */
    double *ppx = malloc((total + 1) * 2 * sizeof *ppx); /* points, NAN: no label */
    if (!lp->flag || !lp->tag || !lab || !mk || !seg || !ppx) {
        free(lab);
        free(mk);
        free(seg);
        free(ppx);
        chart_label_plan_free(lp);
        return CR_ENOMEM;
    }
    if (!g.known)
        goto done;
    bool dense = dense_points(c);
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        if (s->style == CR_SERIES_BAND || !chart_drawable(s, g.lg[0], g.lg[1]))
            continue;
        double hm = marker_half(s->style, dense), prev[2] = {NAN, NAN};
        bool lines = s->style == CR_SERIES_LINE || s->style == CR_SERIES_DASHED ||
                     s->style == CR_SERIES_LINEPOINTS;
        for (int j = 0; j < s->n; j++) {
            double px, py;
            bool in = to_px(&g, s->pts[j].x, s->pts[j].y, &px, &py);
            bool finite = isfinite(s->pts[j].x) && isfinite(s->pts[j].y) &&
                          (!g.lg[0] || s->pts[j].x > 0) && (!g.lg[1] || s->pts[j].y > 0);
            if (!finite) {
                prev[0] = prev[1] = NAN;
                continue;
            }
            if (hm > 0 && in) {
                double *b = &mk[4 * nmk++];
                b[0] = px - hm, b[1] = px + hm, b[2] = py - hm, b[3] = py + hm;
            }
            if (lines && isfinite(prev[0])) {
                double *q = &seg[4 * nseg++];
                q[0] = prev[0], q[1] = prev[1], q[2] = px, q[3] = py;
            }
            prev[0] = px;
            prev[1] = py;
        }
    }
    size_t nl = 0;
    /* names first */
    for (int i = 0, k = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        bool labelled = s->labelled && s->style != CR_SERIES_BAND;
        for (int j = 0; j < s->n; j++, k++) {
            const pt *p = &s->pts[j];
            double *pp = &ppx[2 * k];
            pp[0] = pp[1] = NAN;
            if (!labelled || !p->label || !p->label[0] || !to_px(&g, p->x, p->y, &pp[0], &pp[1])) {
                pp[0] = NAN;
                continue;
            }
            lp->eligible++;
            double len = 7.0 * (double)strlen(p->label) + 4.0;
            int w = free_place(&g, pp[0], pp[1], len, lab, nl, mk, nmk, seg, nseg);
            if (w < 0)
                continue;
            lp->flag[k] = (char)(w + 1);
            label_box(pp[0], pp[1], w, len, &lab[4 * nl++]);
        }
    }
    /* then numbers for the rest, as many as the list holds */
    int cap = tag_capacity(c, &g);
    for (size_t k = 0; k < total; k++) {
        if (!isfinite(ppx[2 * k]) || lp->flag[k])
            continue;
        if (lp->ntags == cap) {
            lp->dropped++;
            continue;
        }
        int t = lp->ntags + 1;
        double len = 7.0 * (t < 10 ? 1 : t < 100 ? 2 : 3) + 4.0;
        int w = free_place(&g, ppx[2 * k], ppx[2 * k + 1], len, lab, nl, mk, nmk, seg, nseg);
        if (w < 0) {
            lp->dropped++;
            continue;
        }
        lp->flag[k] = (char)(w + 1);
        lp->tag[k] = t;
        lp->ntags++;
        label_box(ppx[2 * k], ppx[2 * k + 1], w, len, &lab[4 * nl++]);
    }
done:
    free(lab);
    free(mk);
    free(seg);
    free(ppx);
    return CR_OK;
}

/* Rows of the numbered list under a key under the plot. */
static int tag_rows(const cr_chart *c, const label_plan *lp)
{
    return !lp || key_right(c) || lp->ntags == 0 ? 0 : (lp->ntags + TAG_COLUMNS - 1) / TAG_COLUMNS;
}

void chart_write_data(const cr_chart *c, cr_sbuf *b, const label_plan *lp)
{
    sb_comment(b, "commroof chart: ", c->title);
    if (c->subtitle)
        sb_comment(b, "", c->subtitle);
    for (int i = 0; i < c->nn; i++)
        sb_comment(b, "", c->notes[i]);
    if (c->kind == CR_CHART_BARS) {
        /* the values' unit, where the axis leaves it to its ticks ("1 ms") */
        char vl[400];
        sb_comment(b, "columns: 1 = category; then one column per series, in ",
                   chart_data_label(c, 1, vl, sizeof vl));
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
                sb_num(b, chart_bar_value(c, i, k));
            }
            cr_sbuf_add(b, "\n");
        }
        return;
    }
    char lab[2][400];
    sb_comment(b, "x: ", chart_data_label(c, 0, lab[0], sizeof lab[0]));
    sb_comment(b, "y: ", chart_data_label(c, 1, lab[1], sizeof lab[1]));
    cr_sbuf_add(b, "# One block per series (gnuplot `index N`), columns x y \"label\" placement\n"
                   "# \"drawn\": placement is the side of the point the label takes, as on a map\n"
                   "# (NE, SE, E, NW, SW, W), or - where it would cover another label or a\n"
                   "# marker; drawn is the text drawn there: the label, or its number in the\n"
                   "# list beside the key where the name has no room. Band series have\n"
                   "# columns x y_low y_high.\n");
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
                /* where the script draws the label (place_code), or -, and
                 * what it draws */
                size_t q = k + (size_t)j;
                char f = lp && lp->flag ? lp->flag[q] : 0;
                int t = lp && lp->tag ? lp->tag[q] : 0;
                cr_sbuf_add(b, " %s ", f ? place_code[f - 1] : "-");
                if (t > 0)
                    cr_sbuf_add(b, "\"%d\"", t);
                else
                    sb_datastr(b, f && s->pts[j].label ? s->pts[j].label : "");
            }
            cr_sbuf_add(b, "\n");
        }
        k += (size_t)s->n;
        if (s->n == 0) /* keep the index numbering when a series is empty */
            cr_sbuf_add(b, "NaN NaN \"\"\n");
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
            double v = chart_bar_value(c, i, k);
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

/* "set AXtics (...)": one label per decade from lo to hi, in unit (times
 * given in us read in their own unit: 1 us, 10 ms, 1 s), plain below 1000
 * (0.1, not 100m), SI prefixes above (1k, 10M); never 1e+06. An axis of
 * two decades or less also gets 2 and 5 in each decade: a compare chart
 * from 0.9 to 10 us had two labels, neither near a bar's top. */
static void decade_tics(cr_sbuf *b, const char *ax, double lo, double hi, const char *unit)
{
    static const char pre[] = "kMGTPE";
    static const double steps[3] = {1, 2, 5};
    int nsteps = hi <= lo * 100.0 * 1.0001 ? 3 : 1;
    cr_sbuf_add(b, "set %stics (", ax);
    bool first = true;
    for (double dec = pow(10.0, floor(log10(lo) + 1e-9)); dec <= hi * 1.0001; dec *= 10.0)
        for (int st = 0; st < nsteps; st++) {
            double v = dec * steps[st];
            if (v > hi * 1.0001 || (st > 0 && v < lo))
                continue;
            char lab[48];
            int e3 = v >= 1000.0 ? (int)floor(log10(v) / 3.0 + 1e-9) : 0;
            if (e3 > 6)
                e3 = 6;
            if (strcmp(unit, "us") == 0) {
                static const char *const tu[] = {"ns", "us", "ms", "s"};
                int k = v < 1.0 ? 0 : v < 1e3 ? 1 : v < 1e6 ? 2 : 3;
                cr_snprintf_c(lab, sizeof lab, "%g %s", v * pow(1000.0, 1 - k), tu[k]);
            } else if (e3 > 0)
                cr_snprintf_c(lab, sizeof lab, "%.0f%c%s", v / pow(1000.0, e3), pre[e3 - 1], unit);
            else
                cr_snprintf_c(lab, sizeof lab, "%g%s", v, unit);
            cr_sbuf_add(b, "%s", first ? "" : ", ");
            cr_sbuf_gnuplot(b, lab);
            cr_sbuf_add(b, " %.6g", v);
            first = false;
        }
    cr_sbuf_add(b, ")\n");
}

/* "set AXtics (...)" for a byte axis from lo to hi: labels at powers of
 * 1024 (1 KiB, 1 MiB, ...), and at every power of two, every second or
 * every fifth (32 KiB) where the span leaves room (at most 9 labels: "512 KiB" is 7 characters,
 * about 60 px, and a sweep's plot area is 500 px wide beside its key). The
 * powers of two between labels get unlabelled minor ticks, so that every
 * sample of a doubling sweep has a grid line. Decimal ticks (1kB at 1000)
 * put the 1 MiB points right of the "1MB" line. */
static void byte_tics(cr_sbuf *b, const char *ax, double lo, double hi)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int e0 = (int)ceil(log2(lo) - 1e-9), e1 = (int)floor(log2(hi) + 1e-9);
    if (e0 < 0)
        e0 = 0; /* a fraction of a byte is no size */
    if (e1 > 69)
        e1 = 69;
    int span = e1 - e0;
    int step = span <= 8 ? 1 : span <= 16 ? 2 : span <= 40 ? 5 : 10 * (int)ceil(span / 80.0);
    cr_sbuf_add(b, "set %stics (", ax);
    bool first = true;
    for (int e = e0; e <= e1; e++) {
        bool major = e % step == 0;
        if (!major && span > 48)
            continue; /* minor ticks closer than 10 px apart: none */
        cr_sbuf_add(b, "%s", first ? "" : ", ");
        if (major) {
            char lab[32];
            snprintf(lab, sizeof lab, "%d %s", 1 << (e % 10), unit[e / 10]);
            cr_sbuf_gnuplot(b, lab);
            cr_sbuf_add(b, " %.17g", ldexp(1.0, e));
        } else {
            cr_sbuf_add(b, "\"\" %.17g 1", ldexp(1.0, e));
        }
        first = false;
    }
    cr_sbuf_add(b, ")\n");
}

static void write_axis(const cr_chart *c, cr_sbuf *b, int a, const xy_geom *g)
{
    const char *ax = a == 0 ? "x" : "y";
    if (c->label[a]) {
        cr_sbuf_add(b, "set %slabel ", ax);
        cr_sbuf_gnuplot(b, c->label[a]);
        cr_sbuf_add(b, "\n");
    }
    bool lg = chart_axis_log(c, a) && !(a == 0 && c->kind == CR_CHART_BARS);
    if (lg && byte_axis(c, a) && (c->range_set[a] ? c->lo[a] > 0 : g && g->known)) {
        cr_sbuf_add(b, "set logscale %s 2\n", ax);
        byte_tics(b, ax, c->range_set[a] ? c->lo[a] : g->lo[a],
                  c->range_set[a] ? c->hi[a] : g->hi[a]);
    } else if (lg) {
        cr_sbuf_add(b, "set logscale %s 10\nset m%stics 10\n", ax, ax);
        double blo = 0, bhi = 0; /* a bar chart's value range, from its bars */
        bool bars = a == 1 && c->kind == CR_CHART_BARS && !c->range_set[a] &&
                    bar_range(c, true, &blo, &bhi) && blo > 0;
        if (c->si_unit[a] && c->range_set[a] && c->lo[a] > 0 && c->hi[a] / c->lo[a] < 1e30) {
            decade_tics(b, ax, c->lo[a], c->hi[a], c->si_unit[a]);
        } else if (c->si_unit[a] && bars) {
            decade_tics(b, ax, blo, bhi, c->si_unit[a]);
        } else if (c->si_unit[a]) {
            /* %.0s%c prints 1k, 10M ...: readable where 1e+06 is not */
            cr_sbuf_add(b, "set format %s ", ax);
            char fmt[64];
            snprintf(fmt, sizeof fmt, "%%.0s%%c%s", c->si_unit[a]);
            cr_sbuf_gnuplot(b, fmt);
            cr_sbuf_add(b, "\n");
        } else {
            cr_sbuf_add(b, "set format %s \"%%g\"\n", ax);
        }
    }
    if (c->range_set[a]) {
        /* a log axis' end ticks sit on its ends: gnuplot drops a tick that
         * rounds outside the range, so the range gives them a millionth */
        double pad = lg ? 1e-6 : 0.0;
        cr_sbuf_add(b, "set %srange [%.7g:%.7g]\n", ax, c->lo[a] * (1 - pad), c->hi[a] * (1 + pad));
    } else if (a == 1 && c->kind == CR_CHART_BARS) {
        double lo = 0, hi = 1;
        if (bar_range(c, lg, &lo, &hi))
            cr_sbuf_add(b, "set yrange [%.6g:%.6g]\n", lo, hi);
    }
}

/* Longest series name: long legends go under the plot, not beside it. */
static size_t longest_name(const cr_chart *c)
{
    size_t m = 0;
    for (int i = 0; i < c->ns; i++)
        if ((c->s[i].n > 0 || c->kind == CR_CHART_BARS) && strlen(c->s[i].name) > m)
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

/* Characters a title line may hold: gnuplot centres the title over the
 * plot area, so a line may reach as far on each side as the nearer image
 * edge (the key, on the right, shifts the centre left). 8 px a character
 * at the 11 pt title font. */
static size_t title_chars(const cr_chart *c)
{
    int pw, ph;
    chart_px(c, &pw, &ph);
    double key = right_margin_px(c, c->kind == CR_CHART_BARS || key_right(c));
    double centre = LEFT_MARGIN_PX + (pw - LEFT_MARGIN_PX - key) / 2.0;
    double half = fmin(centre, pw - centre) - 10.0;
    return half > 160.0 ? (size_t)(2.0 * half / 8.0) : 40;
}

/* Appends text to b broken into lines of at most width characters: at
 * "; " where it can, else at a space; a word longer than a line stays
 * whole. */
static void add_wrapped(cr_sbuf *b, const char *text, size_t width)
{
    size_t line = 0; /* characters on the current line */
    const char *p = text;
    while (*p) {
        /* the next piece: up to and including the next "; " */
        const char *sc = strstr(p, "; ");
        size_t n = sc ? (size_t)(sc - p) : strlen(p);
        const char *piece = p;
        p += n + (sc ? 2 : 0);
        size_t need = line ? line + 2 + n : n;
        if (line && need > width) {
            cr_sbuf_add(b, "\n");
            line = 0;
        } else if (line) {
            cr_sbuf_add(b, "; ");
            line += 2;
        }
        /* a piece longer than a line breaks at spaces */
        while (n > width - line && line + n > width) {
            size_t cut = width - line;
            while (cut > 0 && piece[cut] != ' ')
                cut--;
            if (cut == 0)
                break;
            cr_sbuf_add(b, "%.*s\n", (int)cut, piece);
            piece += cut + 1;
            n -= cut + 1;
            line = 0;
        }
        cr_sbuf_add(b, "%.*s", (int)n, piece);
        line += n;
    }
}

/* The title, then the subtitle and note (NULL: none) wrapped to the width
 * the title has (title_chars). Returns a new string, NULL when memory runs
 * out. */
static char *title_text(const cr_chart *c, const char *note)
{
    cr_sbuf b = {0};
    size_t width = title_chars(c);
    cr_sbuf_add(&b, "%s", c->title);
    if (c->subtitle) {
        cr_sbuf_add(&b, "\n");
        add_wrapped(&b, c->subtitle, width);
    }
    if (note) {
        cr_sbuf_add(&b, "\n");
        add_wrapped(&b, note, width);
    }
    if (b.oom) {
        cr_sbuf_release(&b);
        return NULL;
    }
    return b.p;
}

/* Lines the title takes (with the label note XY charts with labels get);
 * -1 when memory runs out. */
static int title_lines(const cr_chart *c)
{
    /* the longest label note render writes, for the lines it may take */
    char *t = title_text(c, c->kind == CR_CHART_XY && chart_has_labels(c)
                                ? "labels: 9999 of 9999 points, 999 by number: see the list; the "
                                  "rest would overlap (a-long-chart-name.dat names all)"
                                : NULL);
    if (!t)
        return -1;
    int n = 1;
    for (const char *q = t; *q; q++)
        n += *q == '\n';
    free(t);
    return n;
}

/* Columns of a key under the plot: two where two of the longest entry fit
 * (8 px a character and the sample). */
static int key_columns(const cr_chart *c)
{
    int colw = (int)longest_name(c) * 8 + 70;
    return (c->w - 100) / colw >= 2 ? 2 : 1;
}

/* The image size in pixels. */
static void chart_px(const cr_chart *c, int *w, int *h)
{
    *w = c->w;
    *h = c->h;
    if (c->kind == CR_CHART_XY && !key_right(c)) {
        /* a key under the plot: grow the image by its rows so the plot
         * area keeps its height (20 px a row) */
        int cols = key_columns(c), entries = key_entries(c);
        *h += 20 * ((entries + cols - 1) / cols);
    }
    if (bars_horizontal(c)) {
        *w = 1150;
        *h = 190 + c->nc * (c->ns * 10 + 9);
        if (*h < 500)
            *h = 500;
    }
    if (c->kind == CR_CHART_BARS && !key_right(c)) {
        /* the key under the bars: its rows added to the height, and the
         * image as wide as its longest entry (8 px a character and the
         * sample), so that the name is whole */
        int cols = key_columns(c), entries = c->ns + c->nhl;
        *h += 21 * ((entries + cols - 1) / cols);
        int need = (int)longest_name(c) * 8 + 200;
        if (*w < need)
            *w = need < 30000 ? need : 30000;
    }
    /* cairo draws nothing past 32767 px a side ("invalid value (typically
     * too big)"): a suite of ~500 problems made the compare bars taller
     * (QA audit of 2026-12-06); above the cap the bars get thinner */
    if (*h > 30000)
        *h = 30000;
}

/* Whether series i has a bar gnuplot draws (a finite value, > 0 on a log
 * axis) in any category. */
static bool bar_series_drawable(const cr_chart *c, int i, bool lg)
{
    for (int k = 0; k < c->nc; k++) {
        double v = chart_bar_value(c, i, k);
        if (isfinite(v) && (!lg || v > 0))
            return true;
    }
    return false;
}

/* Horizontal grouped bars: boxxyerror boxes, one per series and category,
 * from the value axis' base to the value. */
/* The category tick list "(label 0, label 1, ...)\n" after a "set xtics ("
 * or "set ytics ... (": each category's name shortened to what a chart
 * draws (cr_chart_short_label; the data files keep it whole). reach, when
 * given, gets each label's length in pixels rotated 45 degrees at 11 pt
 * (8.2 px a character, measured on program-gap.png). */
static void write_category_tics(cr_sbuf *b, const cr_chart *c, double *reach)
{
    for (int k = 0; k < c->nc; k++) {
        char lab[CR_CHART_LABEL_CHARS * 4 + 1];
        cr_chart_short_label(c->cats[k], CR_CHART_LABEL_CHARS, lab, sizeof lab);
        cr_sbuf_add(b, "%s", k ? ", " : "");
        cr_sbuf_gnuplot(b, lab);
        cr_sbuf_add(b, " %d", k);
        if (reach) {
            size_t len = 0;
            for (const char *q = lab; *q; q++) /* characters, not bytes */
                len += ((unsigned char)*q & 0xC0) != 0x80;
            reach[k] = (double)len * 8.2 * 0.7071;
        }
    }
    cr_sbuf_add(b, ")\n");
}

/* A bar chart's key: right of the plot, or under it where a name is too
 * long for the right (KEY_RIGHT_MAX_CHARS), as the XY charts place it. On
 * the right a machine named by a long path pushed the key off the image,
 * and the chart named no machine at all. */
static void write_bar_key(const cr_chart *c, cr_sbuf *b)
{
    if (key_right(c))
        cr_sbuf_add(b, "set key outside right top vertical Left reverse samplen 2 spacing 1.2\n");
    else
        cr_sbuf_add(b,
                    "set key outside center bottom horizontal Left reverse samplen 2 spacing 1.2 "
                    "maxcols %d\n",
                    key_columns(c));
}

static void write_hbars(const cr_chart *c, cr_sbuf *b, const char *dat)
{
    bool lg = chart_axis_log(c, 1);
    double lo = 0, hi = 1;
    bool have = bar_range(c, lg, &lo, &hi);
    if (c->label[1]) {
        cr_sbuf_add(b, "set xlabel ");
        cr_sbuf_gnuplot(b, c->label[1]);
        cr_sbuf_add(b, "\n");
    }
    if (c->label[0]) {
        cr_sbuf_add(b, "set ylabel ");
        cr_sbuf_gnuplot(b, c->label[0]);
        cr_sbuf_add(b, "\n");
    }
    /* the value axis repeats on top (x2): with dozens of categories the
     * bottom one is a long way down. A log axis gets one label per decade
     * in the series' unit where it has one (1 us .. 1 s), else plain
     * numbers: never 1e+06. */
    if (lg)
        cr_sbuf_add(b, "set logscale x 10\nset mxtics 10\nset logscale x2 10\nset mx2tics 10\n");
    if (have)
        cr_sbuf_add(b, "set xrange [%.6g:%.6g]\nset x2range [%.6g:%.6g]\n", lo, hi, lo, hi);
    if (lg && have && lo > 0) {
        decade_tics(b, "x", lo, hi, c->si_unit[1] ? c->si_unit[1] : "");
        decade_tics(b, "x2", lo, hi, c->si_unit[1] ? c->si_unit[1] : "");
    } else {
        cr_sbuf_add(b, "set format x \"%%g\"\nset x2tics\nset format x2 \"%%g\"\n");
    }
    double base = lg ? lo : 0;
    write_bar_key(c, b);
    cr_sbuf_add(b,
                "set style fill solid 0.85 border rgb \"#333333\"\n"
                "set grid xtics mxtics noytics nomytics\n"
                "set yrange [%.1f:-0.6]\nset ytics nomirror scale 0 font \",9\" (",
                (double)c->nc - 0.4);
    write_category_tics(b, c, NULL);
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
        if (!bar_series_drawable(c, i, lg)) {
            /* no bar at all: gnuplot would skip the data and its key
             * entry, leaving an unnamed gap in every group */
            char name[300];
            snprintf(name, sizeof name, "%s (no bar: none of these)", c->s[i].name);
            cr_sbuf_add(b, "NaN with boxes");
            bar_look(b, i);
            cr_sbuf_add(b, " title ");
            cr_sbuf_gnuplot(b, name);
            continue;
        }
        cr_sbuf_gnuplot(b, dat);
        cr_sbuf_add(b, " using (%.6g):($0%+.4f):(%.6g):%d:($0%+.4f):($0%+.4f) with boxxyerror",
                    base, off, base, i + 2, off - half, off + half);
        bar_look(b, i);
        cr_sbuf_add(b, " title ");
        cr_sbuf_gnuplot(b, c->s[i].name);
    }
    /* the reference lines are arrows; NaN plots give them a legend entry */
    for (int i = 0; i < c->nhl; i++) {
        cr_sbuf_add(b, "%sNaN with lines lw 2 dt 2 lc rgb \"#000000\" title ",
                    c->ns ? ", \\\n     " : "");
        cr_sbuf_gnuplot(b, c->hl_name[i]);
    }
    cr_sbuf_add(b, "\n");
}

/* The numbered labels' names: beside a key on the right, under it; under
 * a key under the plot, in TAG_COLUMNS columns under it. One gnuplot
 * label per column, 8 pt, each line "N name" (names cut to the column). */
static void write_tag_list(const cr_chart *c, cr_sbuf *b, const label_plan *lp, const xy_geom *g)
{
    if (!lp || lp->ntags == 0)
        return;
    bool right = key_right(c);
    int cols = right ? 1 : TAG_COLUMNS, rows = right ? lp->ntags : tag_rows(c, lp);
    double colw = right ? g->right - 20.0 : (g->pw - 60.0) / cols;
    size_t maxc = colw > 60 ? (size_t)((colw - 24.0) / 6.0) : 8;
    double x0 = right ? g->left + g->w + 12.0 : 30.0;
    double y0 = right ? g->top + 20.0 * key_entries(c) + 24.0
                      : g->ph - (g->bottom - 52.0 -
                                 20.0 * ceil((double)key_entries(c) / key_columns(c)) - 8.0);
    for (int col = 0; col < cols; col++) {
        cr_sbuf text = {0};
        int first = col * rows + 1, last = first + rows - 1;
        size_t k = 0;
        for (int i = 0; i < c->ns; i++)
            for (int j = 0; j < c->s[i].n; j++, k++) {
                int t = lp->tag[k];
                if (t < first || t > last)
                    continue;
                const char *nm = c->s[i].pts[j].label;
                cr_sbuf_add(&text, "%s%d %.*s", text.len ? "\n" : "", t, (int)maxc, nm);
            }
        if (text.len) {
            cr_sbuf_add(b, "set label ");
            cr_sbuf_gnuplot(b, text.p);
            cr_sbuf_add(b,
                        " at screen %.5f, screen %.5f left front font \",8\" tc rgb \"#333333\"\n",
                        (x0 + col * colw) / g->pw, 1.0 - y0 / g->ph);
        }
        b->oom = b->oom || text.oom;
        cr_sbuf_release(&text);
    }
}

void chart_write_script(const cr_chart *c, cr_sbuf *b, const char *stem, const char *ext,
                        const char *label_note, const label_plan *lp)
{
    sb_comment(b, "commroof chart: ", c->title);
    /* the commands as they paste into a shell: the script's name one
     * shell word, and inside the -e argument's double quotes $ and `
     * escaped (a name "r`id`" ran id when pasted); the stem holds no
     * quote, backslash nor control character (cr_chart_render) */
    char gp[1100];
    snprintf(gp, sizeof gp, "%s.gp", stem);
    cr_sbuf_add(b, "# Re-render in this folder: gnuplot ");
    cr_sbuf_shell(b, gp);
    cr_sbuf_add(b, "   (writes %s.%s; another name or\n# format: gnuplot -e \"outfile='", stem,
                ext);
    for (const char *q = stem; *q; q++)
        cr_sbuf_add(b, *q == '$' || *q == '`' ? "\\%c" : "%c", *q);
    cr_sbuf_add(b, ".svg'\" ");
    cr_sbuf_shell(b, gp);
    cr_sbuf_add(b, "). Data: %s.dat\n", stem);
    cr_sbuf_add(b, "if (!exists(\"outfile\")) outfile = ");
    char def[1100];
    snprintf(def, sizeof def, "%s.%s", stem, ext);
    cr_sbuf_gnuplot(b, def);
    cr_sbuf_add(b, "\n");
    int pw, ph;
    chart_px(c, &pw, &ph);
    /* an XY chart's plot area: the one chart_place_labels placed the labels on,
     * the numbered list under the key growing the image */
    xy_geom g = {0};
    if (c->kind == CR_CHART_XY) {
        xy_geom_of(c, tag_rows(c, lp), &g);
        ph = g.ph;
        if (g.oom) /* the caller sees the script's out of memory */
            b->oom = true;
    }
    /* The layout (margins, key rows, the numbered list) is computed in
     * pixels for the PNG's 11 pt font and markers; the SVG gets the same
     * font size, and its markers, which gnuplot's svg terminal draws about
     * twice as large at one point size, are scaled by ps_x (at 13 pt and
     * full size its key ran into the list under it). The format is the
     * name's ending: a name holding ".svg" elsewhere (the hidden stage
     * ".svglayout.tmp123.png") was drawn as SVG into a .png. */
    cr_sbuf_add(b,
                "ps_x = 1.0\n"
                "if (strlen(outfile) >= 4 && outfile[strlen(outfile)-3:strlen(outfile)] eq "
                "\".svg\") {\n"
                "    set terminal svg size %d,%d dynamic noenhanced font \"Helvetica,11\" "
                "background \"white\"\n"
                "    ps_x = 0.6\n"
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
    char *tt = title_text(c, label_note);
    if (tt)
        cr_sbuf_gnuplot(b, tt);
    else
        b->oom = true;
    free(tt);
    cr_sbuf_add(b, "\nset grid xtics ytics mxtics mytics lc rgb \"#d0d0d0\" lw 1, lc rgb "
                   "\"#ececec\" lw 1\nset border lw 1.2\n");
    char dat[1100];
    /* gnuplot reads a name that starts with '$' as a datablock ("no
     * datablock named $x.dat" on re-rendering $x.gp): ./ makes it a file */
    snprintf(dat, sizeof dat, "%s%s.dat", stem[0] == '$' ? "./" : "", stem);
    if (bars_horizontal(c)) {
        write_hbars(c, b, dat);
        return;
    }
    write_axis(c, b, 0, c->kind == CR_CHART_XY ? &g : NULL);
    write_axis(c, b, 1, c->kind == CR_CHART_XY ? &g : NULL);

    if (c->kind == CR_CHART_BARS) {
        write_bar_key(c, b);
        cr_sbuf_add(b, "set style data histogram\n"
                       "set style histogram clustered gap 1\n"
                       "set style fill solid 0.85 border rgb \"#333333\"\n"
                       "set boxwidth 0.9\n"
                       "set xtics rotate by 45 right nomirror\n"
                       "set grid noxtics nomxtics\n");
        if (c->nc > 0) {
            /* Tick labels shortened (cr_chart_short_label; the data file
             * keeps the whole names): a 100-character name squeezed the
             * plot to a strip. Each label, rotated and right-aligned under
             * its bars, reaches left of its tick by its length (8.2 px a
             * character at 11 pt, measured on program-gap.png, x cos 45);
             * category k's tick is k + 0.6 categories from the frame. The
             * margin is the furthest any label reaches (not only the
             * first's: a long third label ran off the image), where that
             * is past the automatic margin's 70 px, at most a third of the
             * image. Three passes: a wider margin makes narrower categories. */
            double *reach = malloc((size_t)c->nc * sizeof *reach);
            if (!reach) {
                b->oom = true;
                return;
            }
            cr_sbuf_add(b, "set xtics (");
            write_category_tics(b, c, reach);
            /* gnuplot's key took 386 px where right_margin_px says 342
             * (program-gap.png): 15% more, and 16 px to the image edge */
            double margin = 70.0, cap = pw / 3.0, right = right_margin_px(c, key_right(c)) * 1.15;
            for (int pass = 0; pass < 3; pass++) {
                double cat = (pw - margin - right) / c->nc, over = 0;
                for (int k = 0; k < c->nc; k++)
                    over = fmax(over, reach[k] - (k + 0.6) * cat + 16.0);
                margin = fmin(fmax(70.0, over), cap);
            }
            free(reach);
            if (margin > 70.0)
                cr_sbuf_add(b, "set lmargin at screen %.5f\n", margin / pw);
            cr_sbuf_add(b, "set xrange [-0.6:%.1f]\n", (double)c->nc - 0.4);
        }
        cr_sbuf_add(b, "plot ");
        bool first = true;
        for (int i = 0; i < c->ns; i++) {
            cr_sbuf_add(b, "%s", first ? "" : ", \\\n     ");
            if (first) {
                cr_sbuf_gnuplot(b, dat);
                cr_sbuf_add(b, " using %d", i + 2);
            } else {
                cr_sbuf_add(b, "'' using %d", i + 2);
            }
            bar_look(b, i);
            cr_sbuf_add(b, " title ");
            cr_sbuf_gnuplot(b, c->s[i].name);
            first = false;
        }
        for (int i = 0; i < c->nhl; i++) {
            cr_sbuf_add(b, "%s%.6g with lines lw 2 dt 2 lc rgb \"#000000\" title ",
                        first ? "" : ", \\\n     ", c->hl_y[i]);
            cr_sbuf_gnuplot(b, c->hl_name[i]);
            first = false;
        }
        cr_sbuf_add(b, "\n");
        return;
    }

    /* fixed margins and ranges: the plot area g */
    write_tag_list(c, b, lp, &g);
    for (int a = 0; a < 2; a++)
        if (!c->range_set[a] && g.lg[a] && g.known)
            cr_sbuf_add(b, "set %srange [%.7g:%.7g]\n", a ? "y" : "x", g.lo[a] * (1 - 1e-6),
                        g.hi[a] * (1 + 1e-6));
    cr_sbuf_add(b,
                "set lmargin at screen %.5f\nset rmargin at screen %.5f\n"
                "set tmargin at screen %.5f\nset bmargin at screen %.5f\n",
                g.left / g.pw, 1.0 - g.right / g.pw, 1.0 - g.top / g.ph, g.bottom / g.ph);
    if (key_right(c))
        cr_sbuf_add(b,
                    "set key at screen %.5f, screen %.5f left top vertical Left reverse samplen 3 "
                    "spacing 1.2\n",
                    (g.left + g.w + 12.0) / g.pw, 1.0 - g.top / g.ph);
    else
        cr_sbuf_add(b,
                    "set key at screen 0.5, screen %.5f center top horizontal Left reverse "
                    "samplen 3 spacing 1.2 maxcols %d\n",
                    (g.bottom - 52.0) / g.ph, key_columns(c));
    cr_sbuf_add(b, "plot ");
    bool first = true;
    int colour = 0, ptype = 0, ndashed = 0, optype = 0;
    bool lgx = chart_axis_log(c, 0), lgy = chart_axis_log(c, 1);
    for (int i = 0; i < c->ns; i++) {
        const series *s = &c->s[i];
        if (!chart_drawable(s, lgx, lgy))
            continue;
        const char *col =
            s->look >= 0 ? colours[s->look % N_COLOURS] : colours[colour++ % N_COLOURS];
        /* a fixed look takes its own marker; the counter serves the rest */
        int ptsave = ptype;
        if (s->look >= 0)
            ptype = s->look;
        cr_sbuf_add(b, "%s", first ? "" : ", \\\n     ");
        cr_sbuf_gnuplot(b, dat);
        cr_sbuf_add(b, " index %d ", i);
        switch (s->style) {
        case CR_SERIES_LINE:
            if (drawable_points(s, lgx, lgy) == 1) /* a marker, or nothing shows */
                cr_sbuf_add(b, "using 1:2 with linespoints lw 2.5 pt 5 ps 1.6*ps_x lc rgb \"%s\"",
                            col);
            else
                cr_sbuf_add(b, "using 1:2 with lines lw 2.5 lc rgb \"%s\"", col);
            break;
        case CR_SERIES_DASHED:
            /* dashed lines often coincide (two mechanisms at the same rate):
             * a dash pattern and sparse markers of their own keep each visible */
            cr_sbuf_add(
                b, "using 1:2 with linespoints lw 2 dt %d pt %d ps 0.9*ps_x pi %d lc rgb \"%s\"",
                2 + ndashed % 4, point_types[(ndashed + 3) % N_POINT_TYPES],
                s->n > 12 ? 3 + ndashed % 3 : 1, col);
            ndashed++;
            break;
        case CR_SERIES_POINTS:
            if (dense_points(c))
                cr_sbuf_add(b, "using 1:2 with points pt %d ps 1.2*ps_x lc rgb \"#60%s\"",
                            point_types[ptype++ % N_POINT_TYPES], col + 1);
            else
                cr_sbuf_add(b, "using 1:2 with points pt %d ps 1.6*ps_x lc rgb \"%s\"",
                            point_types[ptype++ % N_POINT_TYPES], col);
            break;
        case CR_SERIES_OPENPOINTS:
            cr_sbuf_add(b, "using 1:2 with points pt %d ps 1.7*ps_x lw 1.5 lc rgb \"%s\"",
                        open_types[optype++ % N_OPEN_TYPES], col);
            break;
        case CR_SERIES_LINEPOINTS:
            cr_sbuf_add(b, "using 1:2 with linespoints lw 1.8 pt %d ps 1.1*ps_x lc rgb \"%s\"",
                        point_types[ptype++ % N_POINT_TYPES], col);
            break;
        case CR_SERIES_BAND:
            cr_sbuf_add(b,
                        "using 1:2:3 with filledcurves fs transparent solid 0.3 noborder "
                        "lc rgb \"%s\"",
                        col);
            break;
        }
        if (s->look >= 0)
            ptype = ptsave;
        cr_sbuf_add(b, " title ");
        cr_sbuf_gnuplot(b, s->name);
        if (s->labelled && s->style != CR_SERIES_BAND) {
            /* column 4 says where each label fits (chart_place_labels); the
             * offsets are the pixels it assumed, as fractions of the image */
            for (int w = 0; w < N_PLACES; w++) {
                bool right = place_right(w);
                cr_sbuf_add(b, ", \\\n     ");
                cr_sbuf_gnuplot(b, dat);
                cr_sbuf_add(b,
                            " index %d using 1:2:(strcol(4) eq \"%s\" ? strcol(5) : \"\") with "
                            "labels %s offset screen %.5f, screen %.5f font \",9\" tc rgb \"%s\" "
                            "notitle",
                            i, place_code[w], right ? "left" : "right",
                            (right ? LABEL_DX : -LABEL_DX) / g.pw, place_dy(w) / g.ph, col);
            }
        }
        first = false;
    }
    for (int i = 0; i < c->nhl; i++) {
        cr_sbuf_add(b, "%s%.6g with lines lw 2 dt 3 lc rgb \"#444444\" title ",
                    first ? "" : ", \\\n     ", c->hl_y[i]);
        cr_sbuf_gnuplot(b, c->hl_name[i]);
        first = false;
    }
    cr_sbuf_add(b, "\n");
}
