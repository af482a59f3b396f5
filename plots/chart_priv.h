/* SPDX-License-Identifier: MIT */
/*
 * Internals of plots/chart.c (building, rendering, the HTML and JSON views)
 * and plots/chart_gnuplot.c (the data file and gnuplot script): the chart's
 * representation and the script side's entry points. Nothing outside
 * plots/chart*.c includes this.
 */
#ifndef CR_CHART_PRIV_H
#define CR_CHART_PRIV_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "plots/chart.h"
#include "sbuf.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

#define MAX_HLINES 4

typedef struct {
    double x, y, y2;
    char *label;
} pt;

typedef struct {
    char *name;
    cr_series_style style;
    bool labelled;
    int look; /* cr_chart_series_look: fixed colour and marker; -1: the next in turn */
    pt *pts;
    int n;
    size_t cap;
    double *bars; /* bar charts: one value per category, NAN where none */
    int nbars;
    size_t cap_bars;
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
    int ns;
    size_t cap_s;
    char **cats;
    int nc;
    size_t cap_c;
    double hl_y[MAX_HLINES];
    char *hl_name[MAX_HLINES];
    int nhl;
    char **notes;
    int nn;
    size_t cap_n;
};

/* Series si's bar for category k; NAN where it has none. */
static inline double chart_bar_value(const cr_chart *c, int si, int k)
{
    const series *s = &c->s[si];
    return k < s->nbars ? s->bars[k] : NAN;
}

/* An axis' label as the numbers' readers need it: where the tick labels
 * carry the unit ("1 ms"), the data file, JSON and HTML still say what
 * unit the numbers are in. */
static inline const char *chart_data_label(const cr_chart *c, int a, char *buf, size_t n)
{
    const char *l = c->label[a] ? c->label[a] : "";
    if (c->si_unit[a] && strcmp(c->si_unit[a], "us") == 0)
        snprintf(buf, n, "%s (us)", l);
    else
        snprintf(buf, n, "%s", l);
    return buf;
}

/* Where the labels go. flag[k], per point of every series in order: one
 * of place_code (index + 1), or 0 (not drawn; the data file, the JSON and
 * the HTML table still name every point). tag[k] > 0: the label is drawn
 * as that number, and the list beside or under the key names it. */
typedef struct {
    char *flag;
    int *tag;
    int eligible; /* points with a label to draw */
    int dropped;  /* of those, drawn neither by name nor by number */
    int ntags;
} label_plan;

/* Does axis a (0 = x, 1 = y) run on a log scale: as set, or under
 * CR_AXIS_AUTO where its positive values span more than a factor of 100? */
bool chart_axis_log(const cr_chart *c, int a);

/* Can gnuplot draw any point of s on these axes? (A series it cannot draw
 * stays in the data file and out of the plot.) */
bool chart_drawable(const series *s, bool lgx, bool lgy);

/* Does any labelled series have a point to label? */
bool chart_has_labels(const cr_chart *c);

/* Plans where the labels go (see label_plan); release with
 * chart_label_plan_free. Errors: CR_ENOMEM. */
cr_status chart_place_labels(const cr_chart *c, label_plan *lp);
void chart_label_plan_free(label_plan *lp);

/* Appends the chart's data file (NAME.dat) to b. */
void chart_write_data(const cr_chart *c, cr_sbuf *b, const label_plan *lp);

/* Appends the gnuplot script that draws the data file stem.dat into
 * stem.ext (label_note: a line under the title, NULL for none). */
void chart_write_script(const cr_chart *c, cr_sbuf *b, const char *stem, const char *ext,
                        const char *label_note, const label_plan *lp);

#pragma GCC visibility pop

#endif
