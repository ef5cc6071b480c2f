/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stats: the thesis table of a set of nanosecond samples.
 *
 * Definitions (the same in every tool, --help and the measurement guide):
 *   variance  sample variance, sum((x-mean)^2) / (n-1)
 *   skewness  m3 / m2^1.5 with population central moments m_k
 *   kurtosis  m4 / m2^2 (Pearson; a normal distribution gives 3)
 *   pXX       linear interpolation between closest ranks:
 *             h = (n-1)p, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])
 */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct samples {
	int64_t *v;
	size_t n, cap;
};

/* Append; -1 when out of memory. */
int samples_push(struct samples *s, int64_t x);
void samples_free(struct samples *s);

/* Subtract the minimum of all samples. */
void baseline_min(struct samples *s);
/*
 * Subtract the minimum of the last WINDOW samples (the current one
 * included): follows a drifting clock, as seed 004 tracks the baseline.
 * Samples must be in arrival order. -1 when out of memory.
 */
int baseline_sliding(struct samples *s, size_t window);

struct summary {
	uint64_t n;
	double mean, variance, skewness, kurtosis;
	int64_t min, max;
	double p25, p50, p75, p99;
	uint64_t unmatched;
};

/* Fill *out from s; reorders s->v (selection, not a full sort). */
void summarize(struct samples *s, struct summary *out);
/* Value at probability p of n sorted-or-selected values (type 7). */
double quantile_sorted(const int64_t *v, size_t n, double p);
void sort_samples(int64_t *v, size_t n);

/* The thesis table; unit_ns is 1 (ns) or 1000 (µs). */
void summary_table(FILE *f, const struct summary *s, int unit_ns, const char *title);
/* One JSON object, no newline. */
void summary_json(FILE *f, const struct summary *s);

#endif
