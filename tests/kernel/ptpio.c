// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptpio: one PTP clock operation per run, for the kernel test guest.
 * Prints "OK <result>" or "ERR <errno name>" and exits 0 or 1, so a shell
 * script can check both results and refusals of bad arguments.
 *
 *   ptpio caps DEV
 *   ptpio get DEV                     clock_gettime
 *   ptpio xget DEV N                  PTP_SYS_OFFSET_EXTENDED, N samples
 *   ptpio set DEV SEC NSEC            clock_settime
 *   ptpio adj DEV NS                  clock_adjtime ADJ_SETOFFSET
 *   ptpio freq DEV PPB                clock_adjtime ADJ_FREQUENCY
 *   ptpio extts DEV INDEX FLAGS       PTP_EXTTS_REQUEST2 (FLAGS hex)
 *   ptpio perout DEV INDEX START_S PERIOD_NS ON_NS FLAGS
 *                                     PTP_PEROUT_REQUEST2 (ON_NS with DUTY_CYCLE)
 *   ptpio event DEV TIMEOUT_MS        read one EXTTS event
 *   ptpio pin DEV PIN FUNC CHAN       PTP_PIN_SETFUNC2
 *   ptpio unplug DEV SYSFS_UNBIND BDF open DEV, unbind the device, then use
 *                                     the still open clock
 *   ptpio peek RESOURCE OFF           read a 32-bit word of a PCI BAR through
 *   ptpio poke RESOURCE OFF VAL       its sysfs resourceN file (prints decimal)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/timex.h>
#include <time.h>
#include <unistd.h>
#include <linux/ptp_clock.h>

#define FD_TO_CLOCKID(fd) ((clockid_t)((~(unsigned int)(fd) << 3) | 3))

static int fail(void)
{
	printf("ERR %s\n", strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	return 1;
}

static long long num(const char *s)
{
	return strtoll(s, NULL, 0);
}

int main(int argc, char **argv)
{
	const char *op;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: see the top of tests/kernel/ptpio.c\n");
		return 2;
	}
	op = argv[1];
	fd = open(argv[2], O_RDWR);
	if (fd < 0)
		return fail();

	if (!strcmp(op, "caps")) {
		struct ptp_clock_caps c;

		if (ioctl(fd, PTP_CLOCK_GETCAPS, &c))
			return fail();
		printf("OK max_adj=%d n_ext_ts=%d n_per_out=%d n_pins=%d pps=%d\n",
		       c.max_adj, c.n_ext_ts, c.n_per_out, c.n_pins, c.pps);
	} else if (!strcmp(op, "get")) {
		struct timespec ts;

		if (clock_gettime(FD_TO_CLOCKID(fd), &ts))
			return fail();
		printf("OK %lld.%09ld\n", (long long)ts.tv_sec, ts.tv_nsec);
	} else if (!strcmp(op, "xget") && argc == 4) {
		struct ptp_sys_offset_extended x;

		memset(&x, 0, sizeof(x));
		x.n_samples = (unsigned int)num(argv[3]);
		if (ioctl(fd, PTP_SYS_OFFSET_EXTENDED, &x))
			return fail();
		printf("OK %lld.%09u bracket %lld ns\n", (long long)x.ts[0][1].sec,
		       x.ts[0][1].nsec,
		       (x.ts[0][2].sec - x.ts[0][0].sec) * 1000000000LL +
		       ((long long)x.ts[0][2].nsec - x.ts[0][0].nsec));
	} else if (!strcmp(op, "set") && argc == 5) {
		struct timespec ts = { .tv_sec = num(argv[3]), .tv_nsec = num(argv[4]) };

		if (clock_settime(FD_TO_CLOCKID(fd), &ts))
			return fail();
		printf("OK\n");
	} else if (!strcmp(op, "adj") && argc == 4) {
		long long ns = num(argv[3]);
		struct timex tx = { .modes = ADJ_SETOFFSET | ADJ_NANO };

		tx.time.tv_sec = ns / 1000000000LL;
		tx.time.tv_usec = ns % 1000000000LL;
		if (tx.time.tv_usec < 0) {
			tx.time.tv_sec--;
			tx.time.tv_usec += 1000000000LL;
		}
		if (clock_adjtime(FD_TO_CLOCKID(fd), &tx) < 0)
			return fail();
		printf("OK\n");
	} else if (!strcmp(op, "freq") && argc == 4) {
		struct timex tx = { .modes = ADJ_FREQUENCY };

		tx.freq = (long)(num(argv[3]) * 65536 / 1000);	/* ppb -> scaled ppm */
		if (clock_adjtime(FD_TO_CLOCKID(fd), &tx) < 0)
			return fail();
		printf("OK\n");
	} else if (!strcmp(op, "extts") && argc == 5) {
		struct ptp_extts_request r;

		memset(&r, 0, sizeof(r));
		r.index = (unsigned int)num(argv[3]);
		r.flags = (unsigned int)strtoul(argv[4], NULL, 16);
		if (ioctl(fd, PTP_EXTTS_REQUEST2, &r))
			return fail();
		printf("OK\n");
	} else if (!strcmp(op, "perout") && argc == 8) {
		struct ptp_perout_request r;
		long long period = num(argv[5]), on = num(argv[6]);

		memset(&r, 0, sizeof(r));
		r.index = (unsigned int)num(argv[3]);
		r.start.sec = num(argv[4]);
		r.period.sec = period / 1000000000LL;
		r.period.nsec = period % 1000000000LL;
		r.flags = (unsigned int)strtoul(argv[7], NULL, 16);
		if (r.flags & PTP_PEROUT_DUTY_CYCLE) {
			r.on.sec = on / 1000000000LL;
			r.on.nsec = on % 1000000000LL;
		}
		if (ioctl(fd, PTP_PEROUT_REQUEST2, &r))
			return fail();
		printf("OK\n");
	} else if (!strcmp(op, "event") && argc == 4) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct ptp_extts_event ev;
		int n = poll(&p, 1, (int)num(argv[3]));

		if (n < 0)
			return fail();
		if (n == 0) {
			errno = ETIME;
			return fail();
		}
		if (read(fd, &ev, sizeof(ev)) != sizeof(ev))
			return fail();
		printf("OK %u %lld.%09u\n", ev.index, (long long)ev.t.sec, ev.t.nsec);
	} else if (!strcmp(op, "pin") && argc == 6) {
		struct ptp_pin_desc d;

		memset(&d, 0, sizeof(d));
		d.index = (unsigned int)num(argv[3]);
		d.func = (unsigned int)num(argv[4]);
		d.chan = (unsigned int)num(argv[5]);
		if (ioctl(fd, PTP_PIN_SETFUNC2, &d))
			return fail();
		printf("OK\n");
	} else if (!strcmp(op, "unplug") && argc == 5) {
		struct ptp_clock_caps c;
		struct timespec ts;
		int u = open(argv[3], O_WRONLY);

		if (u < 0 || write(u, argv[4], strlen(argv[4])) < 0)
			return fail();
		close(u);
		if (!ioctl(fd, PTP_CLOCK_GETCAPS, &c) || !clock_gettime(FD_TO_CLOCKID(fd), &ts)) {
			printf("ERR still-answers\n");
			return 1;
		}
		return fail();
	} else if ((!strcmp(op, "peek") && argc == 4) || (!strcmp(op, "poke") && argc == 5)) {
		unsigned long off = strtoul(argv[3], NULL, 0);
		volatile unsigned int *bar = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
						  MAP_SHARED, fd, 0);

		if (bar == MAP_FAILED || off > 4092 || (off & 3))
			return fail();
		if (argc == 5)
			bar[off / 4] = (unsigned int)strtoul(argv[4], NULL, 0);
		else
			printf("%u\n", bar[off / 4]);
	} else {
		fprintf(stderr, "ptpio: bad arguments\n");
		return 2;
	}
	close(fd);
	return 0;
}
