// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * phcrate: how fast a PTP clock runs against the guest's CLOCK_MONOTONIC_RAW,
 * for the e2e guest (tests/e2e/guest-init.sh).
 *
 *   phcrate DEV MS     reads both clocks, sleeps MS milliseconds, reads both
 *                      again; prints "OK <phc ns elapsed> <sys ns elapsed>"
 *
 * Each PHC read is bracketed by two system-clock reads and paired with
 * their midpoint, so the guest's MMIO exit time does not bias the rate.
 * Each end takes the tightest of SAMPLES brackets (as phc2sys -N does),
 * and the samples are IDLE_US apart: a card register read runs the card
 * model for its bus clocks (time_ns_lo: 25, 375 ns of card time, 375 us
 * of guest time at clock-scale 1000) inside QEMU's MMIO exit, where
 * virtual time does not move, so right after a read the card is ahead of
 * the guest's clock and stays there until virtual time catches up
 * (docs/simulation.md, "register access time"). Back-to-back samples
 * therefore read a card that has not followed the guest's clock: the
 * later the tightest sample, the larger the error (CI of 54fce5d: one
 * end's midpoint 242 us late with the card time unchanged, -1124 ppm for
 * -1000). After IDLE_US of sleep the card has caught up again, so every
 * sample starts from the mapped time and the choice among them no longer
 * matters.
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
#define IDLE_US 3000	/* > the card lead of one sample (~1 ms guest time) */

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

static int sample(clockid_t phc, long long *p, long long *s)
{
	struct timespec a, b, c;
	long long best = -1;

	for (int i = 0; i < SAMPLES; i++) {
		if (i)
			usleep(IDLE_US);
		if (clock_gettime(CLOCK_MONOTONIC_RAW, &a) || clock_gettime(phc, &b) ||
		    clock_gettime(CLOCK_MONOTONIC_RAW, &c))
			return -1;
		if (best < 0 || ns(&c) - ns(&a) < best) {
			best = ns(&c) - ns(&a);
			*p = ns(&b);
			*s = ns(&a) + best / 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long long p0, s0, p1, s1;
	int fd, ms;

	if (argc != 3 || (ms = atoi(argv[2])) <= 0) {
		fprintf(stderr, "usage: phcrate DEV MS\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0 || sample(FD_TO_CLOCKID(fd), &p0, &s0)) {
		printf("ERR %s\n", strerror(errno));
		return 1;
	}
	usleep(ms * 1000);
	if (sample(FD_TO_CLOCKID(fd), &p1, &s1)) {
		printf("ERR %s\n", strerror(errno));
		return 1;
	}
	printf("OK %lld %lld\n", p1 - p0, s1 - s0);
	return 0;
}
