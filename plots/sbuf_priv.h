/* SPDX-License-Identifier: MIT */
/*
 * The gnuplot quoting plots/ adds to the library's string (model/sbuf.h).
 * Internal to plots/: nothing outside the folder includes this header but
 * plots/' unit test (tests/unit/test_plots.c).
 */
#ifndef CR_PLOTS_SBUF_PRIV_H
#define CR_PLOTS_SBUF_PRIV_H

#include "sbuf.h"

/* Library internals: not exported from libcommroof.so (README, Layout). */
#pragma GCC visibility push(hidden)

/* Appends s as a gnuplot string that gnuplot takes as text and never
 * evaluates: the one way plots/ puts a string into a gnuplot script. A
 * double-quoted string, " and \ escaped, a line break as \n, and ` ' @ as
 * octal escapes (\140 \047 \100), so that none of them is in the script:
 * gnuplot 5 runs `command` inside double quotes (a backslash before it
 * stops that), expands @name outside the quotes its macro pass sees, and
 * that pass counts every ' as a quote, also inside "..." (gnuplot 5.4:
 * after "it's", the 'x @name' on the same line is expanded; single quotes
 * are no way out either: their '' escape is misread at a string's start).
 * Other control characters are left out (a raw one could end the script's
 * line). NULL appends "". */
void cr_sbuf_gnuplot(cr_sbuf *b, const char *s);

#pragma GCC visibility pop

#endif
