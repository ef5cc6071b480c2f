// SPDX-License-Identifier: GPL-2.0-or-later
/* stats: moments and percentiles of nanosecond samples. See stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int samples_push(struct samples *s, int64_t x)
{
	if (s->n == s->cap) {
		size_t c = s->cap ? s->cap * 2 : 4096;
		int64_t *v = realloc(s->v, c * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = c;
	}
	s->v[s->n++] = x;
	return 0;
}

void samples_free(struct samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void baseline_min(struct samples *s)
{
	if (!s->n)
		return;
	int64_t m = s->v[0];
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i] < m)
			m = s->v[i];
	for (size_t i = 0; i < s->n; i++)
		s->v[i] -= m;
}

int baseline_sliding(struct samples *s, size_t window)
{
	/* monotonic deque of (index, value), values increasing front to back */
	struct ent { size_t i; int64_t x; } *dq;
	if (window == 0)
		window = 1;
	size_t cap = window < s->n ? window + 1 : s->n + 1;
	dq = malloc(cap * sizeof(*dq));
	if (!dq)
		return -1;
	size_t head = 0, count = 0;
	for (size_t i = 0; i < s->n; i++) {
		int64_t x = s->v[i];
		while (count && dq[(head + count - 1) % cap].x >= x)
			count--;
		dq[(head + count) % cap] = (struct ent){ i, x };
		count++;
		while (dq[head].i + window <= i) {
			head = (head + 1) % cap;
			count--;
		}
		s->v[i] = x - dq[head].x;
	}
	free(dq);
	return 0;
}

static void swap64(int64_t *a, int64_t *b)
{
	int64_t t = *a;
	*a = *b;
	*b = t;
}

/*
 * Put the k-th smallest of v[lo..hi) at v[k], smaller ones before, larger
 * after. Three-way partitioning: stamps are quantised, duplicates are the
 * rule, and a two-way quickselect degrades to quadratic time on them.
 */
static void select_k(int64_t *v, size_t lo, size_t hi, size_t k)
{
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t a = v[lo], b = v[mid], c = v[hi - 1];
		int64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (v[i] < pivot)
				swap64(&v[lt++], &v[i++]);
			else if (v[i] > pivot)
				swap64(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return;
	}
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

void sort_samples(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp64);
}

double quantile_sorted(const int64_t *v, size_t n, double p)
{
	if (n == 0)
		return NAN;
	double h = (double)(n - 1) * p;
	size_t lo = (size_t)h;
	if (lo + 1 >= n)
		return (double)v[n - 1];
	return (double)v[lo] + (h - (double)lo) * (double)(v[lo + 1] - v[lo]);
}

void summarize(struct samples *s, struct summary *out)
{
	uint64_t unmatched = out->unmatched;
	memset(out, 0, sizeof(*out));
	out->unmatched = unmatched;
	out->n = s->n;
	size_t n = s->n;
	if (n == 0) {
		out->mean = out->variance = out->skewness = out->kurtosis = NAN;
		out->p25 = out->p50 = out->p75 = out->p99 = NAN;
		return;
	}
	int64_t mn = s->v[0], mx = s->v[0];
	long double sum = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t x = s->v[i];
		sum += x;
		mn = x < mn ? x : mn;
		mx = x > mx ? x : mx;
	}
	long double mean = sum / n, m2 = 0, m3 = 0, m4 = 0;
	for (size_t i = 0; i < n; i++) {
		long double d = s->v[i] - mean, d2 = d * d;
		m2 += d2;
		m3 += d2 * d;
		m4 += d2 * d2;
	}
	out->min = mn;
	out->max = mx;
	out->mean = (double)mean;
	out->variance = n > 1 ? (double)(m2 / (n - 1)) : 0;
	m2 /= n;
	m3 /= n;
	m4 /= n;
	out->skewness = m2 > 0 ? (double)(m3 / powl(m2, 1.5L)) : NAN;
	out->kurtosis = m2 > 0 ? (double)(m4 / (m2 * m2)) : NAN;

	/* percentiles: select the two ranks around each, in increasing order */
	static const double ps[4] = { 0.25, 0.50, 0.75, 0.99 };
	double *dst[4] = { &out->p25, &out->p50, &out->p75, &out->p99 };
	size_t from = 0;
	for (int j = 0; j < 4; j++) {
		double h = (double)(n - 1) * ps[j];
		size_t lo = (size_t)h;
		select_k(s->v, from, n, lo);
		double x = (double)s->v[lo];
		if (lo + 1 < n) {
			select_k(s->v, lo + 1, n, lo + 1);
			x += (h - (double)lo) * (double)(s->v[lo + 1] - s->v[lo]);
		}
		*dst[j] = x;
		from = lo;
	}
}

void summary_table(FILE *f, const struct summary *s, int unit_ns, const char *title)
{
	const char *u = unit_ns == 1 ? "ns" : "us";
	double k = unit_ns;
	if (title)
		fprintf(f, "%s\n", title);
	fprintf(f, "  %-10s %14llu\n", "samples", (unsigned long long)s->n);
	if (s->n) {
		fprintf(f, "  %-10s %14.3f %s\n", "mean", s->mean / k, u);
		fprintf(f, "  %-10s %14.3f %s^2\n", "variance", s->variance / (k * k), u);
		fprintf(f, "  %-10s %14.3f\n", "skewness", s->skewness);
		fprintf(f, "  %-10s %14.3f\n", "kurtosis", s->kurtosis);
		fprintf(f, "  %-10s %14.3f %s\n", "min", (double)s->min / k, u);
		fprintf(f, "  %-10s %14.3f %s\n", "p25", s->p25 / k, u);
		fprintf(f, "  %-10s %14.3f %s\n", "p50", s->p50 / k, u);
		fprintf(f, "  %-10s %14.3f %s\n", "p75", s->p75 / k, u);
		fprintf(f, "  %-10s %14.3f %s\n", "p99", s->p99 / k, u);
		fprintf(f, "  %-10s %14.3f %s\n", "max", (double)s->max / k, u);
	}
}

static void jnum(FILE *f, const char *key, double x, const char *sep)
{
	if (isfinite(x))
		fprintf(f, "\"%s\": %.17g%s", key, x, sep);
	else
		fprintf(f, "\"%s\": null%s", key, sep);
}

void summary_json(FILE *f, const struct summary *s)
{
	fprintf(f, "{\"samples\": %llu, ", (unsigned long long)s->n);
	jnum(f, "mean_ns", s->mean, ", ");
	jnum(f, "variance_ns2", s->variance, ", ");
	jnum(f, "skewness", s->skewness, ", ");
	jnum(f, "kurtosis", s->kurtosis, ", ");
	/* min and max are integers: exact below 2^53 with %.17g as well */
	jnum(f, "min_ns", s->n ? (double)s->min : NAN, ", ");
	jnum(f, "p25_ns", s->p25, ", ");
	jnum(f, "p50_ns", s->p50, ", ");
	jnum(f, "p75_ns", s->p75, ", ");
	jnum(f, "p99_ns", s->p99, ", ");
	jnum(f, "max_ns", s->n ? (double)s->max : NAN, ", ");
	fprintf(f, "\"unmatched\": %llu}", (unsigned long long)s->unmatched);
}
