/* SPDX-License-Identifier: MIT */
/*
 * Charts: a small description of a chart (series of points, or grouped bars)
 * that renders through gnuplot.
 *
 * cr_chart_render() writes three files side by side: STEM.dat (the numbers,
 * readable by people and by gnuplot), STEM.gp (a gnuplot script users can
 * restyle and re-run with `cd DIR && gnuplot STEM.gp`) and the image STEM.png
 * or STEM.svg. The data file and the script are written atomically (a
 * temporary file renamed over the target); the image is rendered under a
 * temporary name, checked (PNG signature, SVG root element) and renamed, so
 * a failure never leaves a half-written chart behind.
 *
 * Values are stored as given: builders scale them to the unit the axis label
 * names ("TFLOP/s", "GB/s", "us") before adding them.
 */
#ifndef CR_CHART_H
#define CR_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include "status.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

typedef enum {
    CR_CHART_XY,   /* points and lines over numeric x and y */
    CR_CHART_BARS, /* categories on x, one bar per series in each category */
} cr_chart_kind;

typedef enum {
    CR_AXIS_LINEAR,
    CR_AXIS_LOG,
    CR_AXIS_AUTO, /* log when the positive data span more than two decades */
} cr_axis_scale;

typedef enum {
    CR_SERIES_LINE,       /* solid line (ceilings, bounds) */
    CR_SERIES_DASHED,     /* dashed line (attainable ceilings, predictions) */
    CR_SERIES_POINTS,     /* filled markers only (measured points) */
    CR_SERIES_OPENPOINTS, /* hollow markers only (model points beside measured ones) */
    CR_SERIES_LINEPOINTS, /* line with markers (predictions over a sweep) */
    CR_SERIES_BAND,       /* filled band between ylo and yhi (error bands) */
} cr_series_style;

typedef struct cr_chart cr_chart;

/* A new empty chart. title is the chart's title (copied). Returns NULL on
 * allocation failure. Free with cr_chart_free(). */
cr_chart *cr_chart_new(cr_chart_kind kind, const char *title);

/* Frees c; cr_chart_free(NULL) is a no-op. */
void cr_chart_free(cr_chart *c);

/* Names an axis ('x' or 'y') with its unit, e.g. "message size (bytes)", and
 * its scale. Bar charts ignore the x scale. Errors: CR_EINVAL for another
 * axis letter, CR_ENOMEM. */
cr_status cr_chart_axis(cr_chart *c, char axis, const char *label, cr_axis_scale scale);

/* Fixes an axis range (both ends > 0 on a log axis); otherwise gnuplot
 * chooses. Errors: CR_EINVAL. */
cr_status cr_chart_range(cr_chart *c, char axis, double lo, double hi);

/* Makes log axes print tick labels with SI prefixes and this unit suffix
 * (1k, 1M, ...). "B" marks byte counts instead, ticked at powers of two
 * and labelled 1 KiB, 1 MiB, ... at powers of 1024 (the sizes nccl-tests
 * and the CLI's K, M, G step through). "us" marks values in microseconds,
 * labelled 100 ns, 1 us, 1 ms, 1 s where the range is fixed. */
cr_status cr_chart_si_ticks(cr_chart *c, char axis, const char *unit);

/* A line of text under the title (topology, suite, data source). */
cr_status cr_chart_subtitle(cr_chart *c, const char *text);
/* Adds a line under the subtitle (the subtitle itself where there is none). */
cr_status cr_chart_subtitle_add(cr_chart *c, const char *text);

/* Requests an image size in pixels (defaults 1000 x 650). */
void cr_chart_size(cr_chart *c, int width_px, int height_px);

/* Adds a series named for the legend. labelled: the points' labels are
 * drawn beside them. Returns the series index, or -1 on allocation
 * failure. */
int cr_chart_series(cr_chart *c, const char *name, cr_series_style style, bool labelled);

/* Gives series s of an XY chart a fixed look: colour and marker number
 * look of the renderer's lists (cycling), instead of the next ones in turn,
 * so that a thing keeps its look from one chart to the next (a corpus's
 * systems over four charts). Series without one take the next in turn.
 * Errors: CR_EINVAL (bad series, look < 0). */
cr_status cr_chart_series_look(cr_chart *c, int s, int look);

/* Series s's name (borrowed), NULL when out of range. */
const char *cr_chart_series_name(const cr_chart *c, int s);

/* Adds a point to series s of an XY chart; label may be NULL. Points with a
 * non-finite coordinate, or a non-positive one on a log axis, are kept in
 * the data file but gnuplot skips them. Errors: CR_EINVAL (bad series, or a
 * bar chart), CR_ENOMEM. */
cr_status cr_chart_point(cr_chart *c, int s, double x, double y, const char *label);

/* Adds a band point (x, ylo, yhi) to a CR_SERIES_BAND series. */
cr_status cr_chart_band(cr_chart *c, int s, double x, double ylo, double yhi);

/* Characters a category's tick label shows at most (cr_chart_short_label). */
#define CR_CHART_LABEL_CHARS 40

/* Writes name into out (size bytes) shortened for a tick label: at most
 * max_chars characters (CR_CHART_LABEL_CHARS for the charts' own; UTF-8
 * sequences count once and are never cut), the last of them "\u2026" (an
 * ellipsis) where name is longer.
 * The chart keeps the whole name for its data file, tables and JSON; only
 * the drawn label is short, so that a 100-character problem name cannot
 * squeeze the plot to a strip. Returns true when name was shortened. */
bool cr_chart_short_label(const char *name, size_t max_chars, char *out, size_t size);

/* Adds a category to a bar chart; returns its index or -1. */
int cr_chart_category(cr_chart *c, const char *name);

/* Sets series s's bar in category k; NAN (the default) draws no bar.
 * Errors: CR_EINVAL. */
cr_status cr_chart_bar(cr_chart *c, int s, int k, double value);

/* Draws a horizontal reference line at y with a legend entry (bar charts:
 * "bound = 100%"). At most 4. Errors: CR_EINVAL, CR_ENOMEM. */
cr_status cr_chart_hline(cr_chart *c, double y, const char *name);

/* Adds a comment line to the data file's header (the command that made
 * it, what each column means). */
cr_status cr_chart_note(cr_chart *c, const char *text);

/* Number of series, categories and points in series s. */
int cr_chart_n_series(const cr_chart *c);
int cr_chart_n_categories(const cr_chart *c);
int cr_chart_n_points(const cr_chart *c, int s);

/* Writes STEM.dat and STEM.gp beside out_path (STEM is out_path without its
 * ".png" or ".svg") and, when gnuplot is not NULL, renders out_path by
 * running that program ("gnuplot", or a path) in out_path's directory.
 * Errors: CR_EINVAL (out_path does not end in .png or .svg; the chart has
 * no data), CR_EIO (a file cannot be written; gnuplot cannot be started,
 * fails, or writes no valid image: d holds gnuplot's own message),
 * CR_ENOMEM. */
cr_status cr_chart_render(const cr_chart *c, const char *out_path, const char *gnuplot, cr_diag *d);

/* The chart's numbers as an HTML table (escaped), for reports. *html is
 * NUL-terminated and freed with free(). Errors: CR_ENOMEM. */
cr_status cr_chart_html_table(const cr_chart *c, char **html);

/* The chart as a JSON document: {"title", "x_label", "y_label", "series":
 * [{"name", "points": [{"x", "y", "label"}]}]} (bar charts: "categories" and
 * per series "values"). *json is freed with free(). Errors: CR_ENOMEM. */
cr_status cr_chart_json(const cr_chart *c, char **json);

/* Checks that path holds a complete image of its extension's format: PNG
 * signature and IHDR chunk, or an SVG document with an <svg> root element
 * and its closing tag. Errors: CR_EIO (unreadable), CR_EPARSE (not such an
 * image) with the reason in d. */
cr_status cr_image_check(const char *path, cr_diag *d);

#pragma GCC visibility pop

#endif
