/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plot: histograms (log y-axis, as the thesis draws them) and P-P plots.
 * A path ending in ".svg" gets an SVG picture; any other path gets the
 * numbers as text columns (for gnuplot, a spreadsheet or a test).
 */
#ifndef PLOT_H
#define PLOT_H

#include <stddef.h>
#include <stdint.h>

/* Histogram of v[0..n) with bins of bin_ns. -1 with a message in err. */
int hist_write(const char *path, const int64_t *v, size_t n, int64_t bin_ns,
	       const char *title, char *err, size_t errlen);

/*
 * P-P plot: for points x of sorted sample a, (F_a(x), F_b(x)) where F_b is
 * the empirical CDF of sorted sample b, or, when b is NULL, the normal CDF
 * with a's mean and standard deviation.
 */
int pp_write(const char *path, const int64_t *a, size_t na, const int64_t *b,
	     size_t nb, double mean, double sd, const char *title,
	     const char *label_a, const char *label_b, char *err, size_t errlen);

#endif
