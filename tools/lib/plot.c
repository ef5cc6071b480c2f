// SPDX-License-Identifier: GPL-2.0-or-later
/* plot: histogram and P-P plot writers (SVG or text). See plot.h. */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SVG beyond this many bars is unreadable and huge; text has no such limit. */
#define SVG_MAX_BINS 20000
#define TEXT_MAX_BINS 10000000

#define W 900
#define H 480
#define ML 80
#define MR 30
#define MT 40
#define MB 60

static int is_svg(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcmp(path + n - 4, ".svg") == 0;
}

static void xml_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

static int finish(FILE *f, const char *path, char *err, size_t errlen)
{
	int bad = ferror(f);
	bad |= fclose(f) != 0;
	if (bad) {
		snprintf(err, errlen, "%s: write error: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int hist_write(const char *path, const int64_t *v, size_t n, int64_t bin_ns,
	       const char *title, char *err, size_t errlen)
{
	if (bin_ns <= 0) {
		snprintf(err, errlen, "histogram bin width must be positive");
		return -1;
	}
	if (n == 0) {
		snprintf(err, errlen, "%s: no samples to draw", path);
		return -1;
	}
	int64_t mn = v[0], mx = v[0];
	for (size_t i = 1; i < n; i++) {
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
	}
	int64_t b0 = floor_div(mn, bin_ns), b1 = floor_div(mx, bin_ns);
	uint64_t nb = (uint64_t)(b1 - b0) + 1;
	int svg = is_svg(path);
	if (nb > (svg ? SVG_MAX_BINS : TEXT_MAX_BINS)) {
		snprintf(err, errlen, "%s: %llu bins of %lld ns is too many; choose a wider --bin",
			 path, (unsigned long long)nb, (long long)bin_ns);
		return -1;
	}
	uint64_t *cnt = calloc(nb, sizeof(*cnt));
	if (!cnt) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	uint64_t cmax = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = (uint64_t)(floor_div(v[i], bin_ns) - b0);
		if (++cnt[k] > cmax)
			cmax = cnt[k];
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		free(cnt);
		return -1;
	}
	if (!svg) {
		fprintf(f, "# %s\n# bin_start_ns count (bin width %lld ns)\n", title, (long long)bin_ns);
		for (uint64_t k = 0; k < nb; k++)
			if (cnt[k])
				fprintf(f, "%lld %llu\n", (long long)((b0 + (int64_t)k) * bin_ns),
					(unsigned long long)cnt[k]);
		free(cnt);
		return finish(f, path, err, errlen);
	}
	/* log y from 0.5 (so a single count shows) to the next power of ten */
	double ytop = ceil(log10((double)cmax));
	if (ytop < 1)
		ytop = 1;
	double ybot = log10(0.5);
	double pw = W - ML - MR, ph = H - MT - MB;
	double x0 = (double)(b0 * bin_ns), x1 = (double)((b1 + 1) * bin_ns);
	double us = (x1 - x0) >= 10000 ? 1000.0 : 1.0;
	const char *unit = us > 1 ? "µs" : "ns";
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"sans-serif\" font-size=\"12\">\n", W, H);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n<text x=\"%d\" y=\"24\" "
		"font-size=\"15\">", W, H, ML);
	xml_text(f, title);
	fprintf(f, "</text>\n");
	for (int e = 0; e <= (int)ytop; e++) {
		double y = MT + ph * (1 - (e - ybot) / (ytop - ybot));
		fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n",
			ML, W - MR, y, y, ML - 6, y + 4, e);
	}
	double bw = pw / (double)nb;
	for (uint64_t k = 0; k < nb; k++) {
		if (!cnt[k])
			continue;
		double hgt = ph * (log10((double)cnt[k]) - ybot) / (ytop - ybot);
		fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#3465a4\"/>\n",
			ML + bw * (double)k, MT + ph - hgt, bw > 1.5 ? bw - 0.5 : bw, hgt);
	}
	for (int t = 0; t <= 10; t++) {
		double x = ML + pw * t / 10.0;
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.6g</text>\n",
			x, H - MB + 18, (x0 + (x1 - x0) * t / 10.0) / us);
	}
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		ML, W - MR, H - MB, H - MB);
	fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		ML, ML, MT, H - MB);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">value (%s), bin %lld ns, "
		"%zu samples</text>\n", ML + (int)pw / 2, H - 18, unit, (long long)bin_ns, n);
	fprintf(f, "<text x=\"18\" y=\"%d\" transform=\"rotate(-90 18 %d)\" "
		"text-anchor=\"middle\">count (log)</text>\n</svg>\n", MT + (int)ph / 2, MT + (int)ph / 2);
	free(cnt);
	return finish(f, path, err, errlen);
}

/* number of elements of sorted v that are <= x */
static size_t count_le(const int64_t *v, size_t n, int64_t x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (v[m] <= x)
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

int pp_write(const char *path, const int64_t *a, size_t na, const int64_t *b,
	     size_t nb, double mean, double sd, const char *title,
	     const char *label_a, const char *label_b, char *err, size_t errlen)
{
	if (na == 0 || (b && nb == 0)) {
		snprintf(err, errlen, "%s: no samples for a P-P plot", path);
		return -1;
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	int svg = is_svg(path);
	double pw = W - ML - MR, ph = H - MT - MB;
	if (svg) {
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
			"font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"%d\" height=\"%d\" "
			"fill=\"white\"/>\n<text x=\"%d\" y=\"24\" font-size=\"15\">", W, H, W, H, ML);
		xml_text(f, title);
		fprintf(f, "</text>\n<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#aaa\" "
			"stroke-dasharray=\"4\"/>\n<polyline fill=\"none\" stroke=\"#cc0000\" points=\"",
			ML, H - MB, W - MR, MT);
	} else {
		fprintf(f, "# %s\n# F_%s F_%s\n", title, label_a, label_b);
	}
	/* at most ~2000 points: every step-th order statistic */
	size_t step = na > 2000 ? na / 2000 : 1;
	for (size_t i = 0; i < na;) {
		size_t j = i;
		while (j + 1 < na && a[j + 1] == a[i])
			j++;
		double fa = (double)(j + 1) / (double)na, fb;
		if (b)
			fb = (double)count_le(b, nb, a[i]) / (double)nb;
		else
			fb = sd > 0 ? 0.5 * erfc(-((double)a[i] - mean) / (sd * sqrt(2.0)))
				    : ((double)a[i] >= mean ? 1.0 : 0.0);
		if (svg)
			fprintf(f, "%.1f,%.1f ", ML + pw * fa, MT + ph * (1 - fb));
		else
			fprintf(f, "%.6f %.6f\n", fa, fb);
		i = i + step > j + 1 ? i + step : j + 1;        /* past the ties */
	}
	if (svg) {
		fprintf(f, "\"/>\n<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n"
			"<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
			ML, W - MR, H - MB, H - MB, ML, ML, MT, H - MB);
		for (int t = 0; t <= 10; t++) {
			fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1f</text>"
				"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n",
				ML + pw * t / 10, H - MB + 18, t / 10.0, ML - 6, MT + ph * (1 - t / 10.0) + 4,
				t / 10.0);
		}
		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + (int)pw / 2, H - 18);
		xml_text(f, label_a);
		fprintf(f, " (CDF)</text>\n<text x=\"18\" y=\"%d\" transform=\"rotate(-90 18 %d)\" "
			"text-anchor=\"middle\">", MT + (int)ph / 2, MT + (int)ph / 2);
		xml_text(f, label_b);
		fprintf(f, " (CDF)</text>\n</svg>\n");
	}
	return finish(f, path, err, errlen);
}
