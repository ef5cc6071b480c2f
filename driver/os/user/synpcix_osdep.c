// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X access layer, user-space flavour: the parts that are functions.
 * Log lines go to stderr with a level filter and are kept (last one) so a
 * test can check that an error said what it should.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "synpcix_osdep.h"

char spx_os_last_log[256];

u64 spx_os_systime(struct spx_os *os)
{
	struct timespec ts;

	if (os->ops->systime_ns)
		return os->ops->systime_ns(os->ctx);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void spx_os_log(struct spx_os *os, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(spx_os_last_log, sizeof(spx_os_last_log), fmt, ap);
	va_end(ap);
	if (level <= os->log_level)
		fprintf(stderr, "synpcix: %s", spx_os_last_log);
}
