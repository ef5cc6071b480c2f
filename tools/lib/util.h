/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util: argument parsing and messages shared by the tools. */
#ifndef UTIL_H
#define UTIL_H

#include <stdint.h>

extern const char *progname;

/* "prog: message" on stderr. */
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* warnmsg, then exit(status). */
_Noreturn void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Strict parsers: the whole string, in range, or die(2) naming the option. */
int64_t parse_int(const char *opt, const char *s, int64_t min, int64_t max);
double parse_double(const char *opt, const char *s, double min, double max);
/* A duration with unit: "250ns", "3us", "1.5ms", "2s"; bare numbers are ns. */
int64_t parse_ns(const char *opt, const char *s);

int64_t realtime_ns(void);
int64_t monotonic_ns(void);

#endif
