// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * clkjitter: back-to-back clock-read jitter, the method of seed 002 (an
 * RTLinux thread reading the clock five times in a row, histogramming the
 * spread of the differences), for system clocks, the TSC and PTP hardware
 * clocks such as the SynPCI-X card's /dev/ptpN.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/ptp_clock.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define HAVE_TSC 1
#endif

#include "lib/plot.h"
#include "lib/stats.h"
#include "lib/util.h"

static const char usage_text[] =
"NAME\n"
"    clkjitter - back-to-back clock-read jitter\n"
"\n"
"SYNOPSIS\n"
"    clkjitter [options]\n"
"\n"
"DESCRIPTION\n"
"    For each clock, LOOPS times: read the clock READS times back to back.\n"
"    Two series of samples result (seed 002's method):\n"
"      step     every difference between consecutive reads: the cost and\n"
"               resolution of a read (READS-1 samples per loop)\n"
"      jitter   per loop, the largest minus the smallest of those\n"
"               differences: how unevenly reads come back\n"
"    For a PTP clock the reads come in one PTP_SYS_OFFSET_EXTENDED ioctl\n"
"    (READS <= 25), which also gives a third series:\n"
"      window   system-clock time around each PHC read, the uncertainty of\n"
"               relating the PHC to system time (what phc2sys sees)\n"
"    Each series is printed as the thesis table, in ns (definitions as in\n"
"    tsstat --help).\n"
"\n"
"OPTIONS\n"
"    -c, --clock CLOCK   realtime, monotonic, monotonic_raw, tsc or a PTP\n"
"                        device such as /dev/ptp0; repeat for several\n"
"                        (default: realtime, monotonic_raw and tsc)\n"
"    -n, --loops N       loops per clock (default 100000)\n"
"    -k, --reads K       reads per loop, 2..25 (default 5, as seed 002)\n"
"    -p, --period DUR    sleep to the next multiple of DUR between loops,\n"
"                        like a periodic real-time thread (default 0:\n"
"                        loops run back to back)\n"
"    -l, --load N        run N busy threads beside the measurement (seed 002\n"
"                        compares low and heavy load)\n"
"    -C, --cpu N         pin the measuring thread to CPU N\n"
"    --hist PREFIX       histograms PREFIX-CLOCK-SERIES.svg (or .txt when\n"
"                        PREFIX ends in .txt: PREFIX-CLOCK-SERIES.txt)\n"
"    --bin DUR           histogram bin width (default: 1 ns, or the 1-2-5\n"
"                        step that keeps a picture within 2000 bins)\n"
"    --json              one JSON object per series:\n"
"                        {\"clock\": .., \"series\": .., \"stats\": {tsstat keys}}\n"
"    -h, --help          this text\n"
"\n"
"TSC\n"
"    Read with RDTSCP (which waits for earlier instructions); ticks become\n"
"    ns with a frequency calibrated against CLOCK_MONOTONIC_RAW over 200 ms,\n"
"    printed in the header.\n"
"\n"
"EXIT STATUS\n"
"    0 success, 1 a clock cannot be read, 2 bad usage.\n";

enum { SER_STEP, SER_JITTER, SER_WINDOW, SER_N };
static const char *const ser_name[SER_N] = { "step", "jitter", "window" };

struct clk {
	const char *name;
	clockid_t id;
	int is_tsc, is_ptp, ptp_fd;
	int ptp_ext;            /* PTP_SYS_OFFSET_EXTENDED works */
	double tsc_ghz;
	struct samples s[SER_N];
};

static atomic_int load_stop;

static void *burn(void *arg)
{
	volatile uint64_t x = (uintptr_t)arg;
	while (!atomic_load_explicit(&load_stop, memory_order_relaxed))
		x = x * 6364136223846793005ull + 1;
	return NULL;
}

#ifdef HAVE_TSC
static uint64_t tsc(void)
{
	unsigned aux;
	return __rdtscp(&aux);
}

static double tsc_calibrate(void)
{
	struct timespec a, b, d = { 0, 200000000 };
	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	uint64_t t0 = tsc();
	nanosleep(&d, NULL);
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	uint64_t t1 = tsc();
	double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
	return (double)(t1 - t0) / ns;
}
#endif

static int64_t ts_ns(const struct timespec *t)
{
	return (int64_t)t->tv_sec * 1000000000 + t->tv_nsec;
}

static int64_t pct_ns(const struct ptp_clock_time *t)
{
	return t->sec * 1000000000 + t->nsec;
}

static void push(struct samples *s, int64_t v)
{
	if (samples_push(s, v) < 0)
		die(1, "out of memory");
}

static void open_clock(struct clk *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->name = name;
	if (strcmp(name, "realtime") == 0)
		c->id = CLOCK_REALTIME;
	else if (strcmp(name, "monotonic") == 0)
		c->id = CLOCK_MONOTONIC;
	else if (strcmp(name, "monotonic_raw") == 0)
		c->id = CLOCK_MONOTONIC_RAW;
	else if (strcmp(name, "tsc") == 0) {
#ifdef HAVE_TSC
		c->is_tsc = 1;
		c->tsc_ghz = tsc_calibrate();
		if (!(c->tsc_ghz > 0.01))
			die(1, "tsc: calibration failed (%.3f GHz)", c->tsc_ghz);
#else
		die(1, "tsc: this machine has no x86 TSC");
#endif
	} else if (strncmp(name, "/dev/", 5) == 0) {
		c->is_ptp = 1;
		c->ptp_fd = open(name, O_RDONLY);
		if (c->ptp_fd < 0)
			die(1, "%s: cannot open: %s", name, strerror(errno));
		struct ptp_clock_caps caps;
		if (ioctl(c->ptp_fd, PTP_CLOCK_GETCAPS, &caps) < 0)
			die(1, "%s: not a PTP hardware clock (PTP_CLOCK_GETCAPS: %s)", name, strerror(errno));
		struct ptp_sys_offset_extended x = { .n_samples = 2 };
		c->ptp_ext = ioctl(c->ptp_fd, PTP_SYS_OFFSET_EXTENDED, &x) == 0;
		if (!c->ptp_ext) {
			struct ptp_sys_offset o = { .n_samples = 2 };
			if (ioctl(c->ptp_fd, PTP_SYS_OFFSET, &o) < 0)
				die(1, "%s: cannot read the clock (PTP_SYS_OFFSET: %s)", name, strerror(errno));
		}
	} else {
		die(2, "--clock: '%s' is not realtime, monotonic, monotonic_raw, tsc or /dev/ptpN", name);
	}
}

/* One loop: K reads into v[]; for PTP also the system windows w[]. */
static void read_loop(struct clk *c, int k, int64_t *v, int64_t *w)
{
	if (c->is_tsc) {
#ifdef HAVE_TSC
		uint64_t t[PTP_MAX_SAMPLES];
		for (int i = 0; i < k; i++)
			t[i] = tsc();
		for (int i = 0; i < k; i++)
			v[i] = (int64_t)((double)(t[i] - t[0]) / c->tsc_ghz + 0.5);
#endif
	} else if (c->is_ptp) {
		if (c->ptp_ext) {
			struct ptp_sys_offset_extended x = { .n_samples = (unsigned)k };
			if (ioctl(c->ptp_fd, PTP_SYS_OFFSET_EXTENDED, &x) < 0)
				die(1, "%s: PTP_SYS_OFFSET_EXTENDED: %s", c->name, strerror(errno));
			for (int i = 0; i < k; i++) {
				v[i] = pct_ns(&x.ts[i][1]);
				w[i] = pct_ns(&x.ts[i][2]) - pct_ns(&x.ts[i][0]);
			}
		} else {
			/* ts[] alternates system, PHC, system, ..., system */
			struct ptp_sys_offset o = { .n_samples = (unsigned)k };
			if (ioctl(c->ptp_fd, PTP_SYS_OFFSET, &o) < 0)
				die(1, "%s: PTP_SYS_OFFSET: %s", c->name, strerror(errno));
			for (int i = 0; i < k; i++) {
				v[i] = pct_ns(&o.ts[2 * i + 1]);
				w[i] = pct_ns(&o.ts[2 * i + 2]) - pct_ns(&o.ts[2 * i]);
			}
		}
	} else {
		struct timespec t[PTP_MAX_SAMPLES];
		for (int i = 0; i < k; i++)
			clock_gettime(c->id, &t[i]);
		for (int i = 0; i < k; i++)
			v[i] = ts_ns(&t[i]);
	}
}

static void measure(struct clk *c, long loops, int k, int64_t period)
{
	int64_t v[PTP_MAX_SAMPLES], w[PTP_MAX_SAMPLES];
	struct timespec next;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long l = 0; l < loops; l++) {
		if (period > 0) {
			int64_t t = ts_ns(&next) + period;
			t -= t % period;
			next.tv_sec = t / 1000000000;
			next.tv_nsec = t % 1000000000;
			while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
				;
		}
		read_loop(c, k, v, w);
		int64_t mn = INT64_MAX, mx = INT64_MIN;
		for (int i = 1; i < k; i++) {
			int64_t d = v[i] - v[i - 1];
			push(&c->s[SER_STEP], d);
			mn = d < mn ? d : mn;
			mx = d > mx ? d : mx;
		}
		push(&c->s[SER_JITTER], mx - mn);
		if (c->is_ptp)
			for (int i = 0; i < k; i++)
				push(&c->s[SER_WINDOW], w[i]);
	}
}

/* 1 ns, or the 1-2-5 step that keeps an SVG within 2000 bins */
static int64_t auto_bin(const struct samples *s, int text)
{
	if (text || s->n == 0)
		return 1;
	int64_t mn = s->v[0], mx = s->v[0];
	for (size_t i = 1; i < s->n; i++) {
		mn = s->v[i] < mn ? s->v[i] : mn;
		mx = s->v[i] > mx ? s->v[i] : mx;
	}
	static const int m[3] = { 1, 2, 5 };
	int64_t decade = 1, b = 1;
	for (int i = 0; (mx - mn) / b >= 2000; i++) {
		if (i % 3 == 0 && i)
			decade *= 10;
		b = m[i % 3] * decade;  /* 1, 2, 5, 10, 20, 50, ... */
	}
	return b;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "clock", required_argument, NULL, 'c' },
		{ "loops", required_argument, NULL, 'n' },
		{ "reads", required_argument, NULL, 'k' },
		{ "period", required_argument, NULL, 'p' },
		{ "load", required_argument, NULL, 'l' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "hist", required_argument, NULL, 'H' },
		{ "bin", required_argument, NULL, 'B' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	const char *names[16];
	int nclk = 0, k = 5, nload = 0, cpu = -1, json = 0;
	long loops = 100000;
	int64_t period = 0, bin = 0;
	const char *hist = NULL;
	int c;
	progname = "clkjitter";
	while ((c = getopt_long(argc, argv, "c:n:k:p:l:C:h", lo, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (nclk == 16)
				die(2, "at most 16 clocks");
			names[nclk++] = optarg;
			break;
		case 'n': loops = (long)parse_int("--loops", optarg, 1, 100000000); break;
		case 'k': k = (int)parse_int("--reads", optarg, 2, PTP_MAX_SAMPLES); break;
		case 'p': period = parse_ns("--period", optarg); break;
		case 'l': nload = (int)parse_int("--load", optarg, 0, 256); break;
		case 'C': cpu = (int)parse_int("--cpu", optarg, 0, CPU_SETSIZE - 1); break;
		case 'H': hist = optarg; break;
		case 'B': bin = parse_ns("--bin", optarg); break;
		case 'j': json = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: die(2, "try 'clkjitter --help'");
		}
	}
	if (optind != argc)
		die(2, "unexpected argument '%s'", argv[optind]);
	if (period < 0 || bin < 0)
		die(2, "--period must be >= 0 and --bin > 0");
	if (nclk == 0) {
		names[nclk++] = "realtime";
		names[nclk++] = "monotonic_raw";
#ifdef HAVE_TSC
		names[nclk++] = "tsc";
#endif
	}
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0)
			die(1, "--cpu %d: %s", cpu, strerror(errno));
	}
	struct clk *clks = calloc((size_t)nclk, sizeof(*clks));
	if (!clks)
		die(1, "out of memory");
	for (int i = 0; i < nclk; i++)
		open_clock(&clks[i], names[i]);

	pthread_t th[256];
	for (int i = 0; i < nload; i++)
		if (pthread_create(&th[i], NULL, burn, (void *)(uintptr_t)i) != 0)
			die(1, "cannot start load thread");
	for (int i = 0; i < nclk; i++)
		measure(&clks[i], loops, k, period);
	atomic_store(&load_stop, 1);
	for (int i = 0; i < nload; i++)
		pthread_join(th[i], NULL);

	if (!json)
		printf("clkjitter: %ld loops x %d reads, period %" PRId64 " ns, %d load threads%s\n",
		       loops, k, period, nload, cpu >= 0 ? ", pinned" : "");
	for (int i = 0; i < nclk; i++) {
		struct clk *cl = &clks[i];
		if (!json && cl->is_tsc)
			printf("tsc: %.6f GHz (calibrated against CLOCK_MONOTONIC_RAW)\n", cl->tsc_ghz);
		if (!json && cl->is_ptp && !cl->ptp_ext)
			printf("%s: no PTP_SYS_OFFSET_EXTENDED, using PTP_SYS_OFFSET\n", cl->name);
		for (int s = 0; s < SER_N; s++) {
			if (s == SER_WINDOW && !cl->is_ptp)
				continue;
			char err[512], path[4096], title[160];
			const char *base = strrchr(cl->name, '/') ? strrchr(cl->name, '/') + 1 : cl->name;
			snprintf(title, sizeof(title), "%s: %s (ns)", cl->name, ser_name[s]);
			if (hist) {
				size_t hl = strlen(hist);
				int txt = hl > 4 && strcmp(hist + hl - 4, ".txt") == 0;
				snprintf(path, sizeof(path), "%.*s-%s-%s.%s", (int)(txt ? hl - 4 : hl), hist,
					 base, ser_name[s], txt ? "txt" : "svg");
				int64_t b = bin ? bin : auto_bin(&cl->s[s], txt);
				if (hist_write(path, cl->s[s].v, cl->s[s].n, b, title, err, sizeof(err)) < 0)
					die(1, "%s", err);
			}
			struct summary sum = { 0 };
			summarize(&cl->s[s], &sum);
			if (json) {
				printf("{\"clock\": \"%s\", \"series\": \"%s\", \"stats\": ", cl->name, ser_name[s]);
				summary_json(stdout, &sum);
				printf("}\n");
			} else {
				summary_table(stdout, &sum, 1, title);
			}
			samples_free(&cl->s[s]);
		}
		if (cl->is_ptp)
			close(cl->ptp_fd);
	}
	free(clks);
	return fflush(stdout) == 0 ? 0 : 1;
}
