// SPDX-License-Identifier: GPL-2.0-or-later
/* util: argument parsing and messages shared by the tools. */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *progname = "tool";

static void vwarn(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", progname);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void warnmsg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

int64_t parse_int(const char *opt, const char *s, int64_t min, int64_t max)
{
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	if (errno || end == s || *end || v < min || v > max)
		die(2, "%s: '%s' is not an integer in %lld..%lld", opt, s,
		    (long long)min, (long long)max);
	return v;
}

double parse_double(const char *opt, const char *s, double min, double max)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		die(2, "%s: '%s' is not a number in %g..%g", opt, s, min, max);
	return v;
}

int64_t parse_ns(const char *opt, const char *s)
{
	static const struct { const char *u; double k; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1 },
	};
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v))
		die(2, "%s: '%s' is not a duration (like 500ns, 1us, 2ms, 1s)", opt, s);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].u) == 0) {
			double ns = v * units[i].k;
			if (ns < -9e18 || ns > 9e18)
				die(2, "%s: '%s' is out of range", opt, s);
			return (int64_t)llround(ns);
		}
	}
	die(2, "%s: '%s': unknown unit '%s' (ns, us, ms, s)", opt, s, end);
}

static int64_t clock_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t realtime_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

int64_t monotonic_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}
