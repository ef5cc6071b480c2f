// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * phcrate: how fast a PTP clock runs against the guest's CLOCK_MONOTONIC_RAW,
 * for the e2e guest (tests/e2e/guest-init.sh).
 *
 *   phcrate DEV MS     reads both clocks, sleeps MS milliseconds, reads both
 *                      again; prints "OK <phc ns elapsed> <sys ns elapsed>"
 *
 * Each PHC read is bracketed by two system-clock reads and paired with
 * their midpoint. Inside QEMU (icount) the bracket says nothing about
 * when the card latched: the card model runs a register read's bus clocks
 * inside the MMIO exit, where virtual time stands still, so a read that
 * has to wait on the card (clock_regs busy with an internal access, such
 * as event_dma's event.status poll: up to 19 bus clocks, 285 ns of card
 * time) returns a card time that is *ahead* of the bracket, never behind
 * it; and right after a read the card stays ahead until virtual time
 * catches up (docs/simulation.md, "register access time"). Measured in a
 * guest at clock-scale 1000: one sample in four 140..250 ns of card time
 * ahead, enough for 100+ ppm over a 2 ms card window (CI of 54fce5d:
 * -1124 ppm for -1000).
 *
 * So each end takes SAMPLES readings IDLE_US apart (the card has caught up
 * after each) and keeps the one least ahead of the line through the two
 * ends' first readings: the lead is one-sided, the least-ahead reading is
 * the one that did not wait. Among readings of equal lead the tighter
 * bracket wins (on a real machine a waited read shows as a wide bracket).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <time.h>
#include <unistd.h>

#define FD_TO_CLOCKID(fd) ((clockid_t)((~(unsigned int)(fd) << 3) | 3))
#define SAMPLES 9
#define IDLE_US 3000	/* > the card lead of one reading (~1 ms guest time) */

struct reading {
	long long p;	/* PHC */
	long long s;	/* system clock, bracket midpoint */
	long long w;	/* bracket width */
};

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

static int sample(clockid_t phc, struct reading *r)
{
	struct timespec a, b, c;

	for (int i = 0; i < SAMPLES; i++) {
		if (i)
			usleep(IDLE_US);
		if (clock_gettime(CLOCK_MONOTONIC_RAW, &a) || clock_gettime(phc, &b) ||
		    clock_gettime(CLOCK_MONOTONIC_RAW, &c))
			return -1;
		r[i].p = ns(&b);
		r[i].w = ns(&c) - ns(&a);
		r[i].s = ns(&a) + r[i].w / 2;
	}
	return 0;
}

/* The reading least ahead of the line p = r[0].p + rate * (s - r[0].s). */
static int least_ahead(const struct reading *r, double rate)
{
	int best = 0;
	double lead_best = 0;

	for (int i = 0; i < SAMPLES; i++) {
		double lead = (double)(r[i].p - r[0].p) - rate * (double)(r[i].s - r[0].s);

		if (i == 0 || lead < lead_best || (lead == lead_best && r[i].w < r[best].w)) {
			best = i;
			lead_best = lead;
		}
	}
	return best;
}

int main(int argc, char **argv)
{
	struct reading r0[SAMPLES], r1[SAMPLES];
	double rate;
	int fd, ms, i, j;

	if (argc != 3 || (ms = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: phcrate DEV MS\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || sample(FD_TO_CLOCKID(fd), r0)) {
		printf("ERR %s\n", strerror(errno));
		return 1;
	}
	usleep(ms * 1000);
	if (sample(FD_TO_CLOCKID(fd), r1)) {
		printf("ERR %s\n", strerror(errno));
		return 1;
	}
	if (r1[0].s <= r0[0].s) {
		printf("ERR system clock did not advance\n");
		return 1;
	}
	/* rough rate from the first readings: good to ~1e-4, plenty for the
	 * ~30 ms a set of readings spans */
	rate = (double)(r1[0].p - r0[0].p) / (double)(r1[0].s - r0[0].s);
	i = least_ahead(r0, rate);
	j = least_ahead(r1, rate);
	printf("OK %lld %lld\n", r1[j].p - r0[i].p, r1[j].s - r0[i].s);
	return 0;
}
