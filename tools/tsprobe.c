// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tsprobe: active one-way delay probing (seed 004). `send` emits UDP
 * probes carrying a sequence number and send stamps; `recv` stamps them
 * on arrival and reports one-way delay minus baseline, loss, reordering
 * and duplicates, live and as the thesis table, and can write pcapng.
 * Stamps are hardware (SO_TIMESTAMPING) when the interface has them,
 * else the kernel's software stamps; the output says which were used.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/errqueue.h>
#include <linux/net_tstamp.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "lib/capfile.h"
#include "lib/plot.h"
#include "lib/probe.h"
#include "lib/stats.h"
#include "lib/util.h"

static const char usage_text[] =
"NAME\n"
"    tsprobe - one-way delay probes with hardware or software timestamps\n"
"\n"
"SYNOPSIS\n"
"    tsprobe send [options] HOST\n"
"    tsprobe recv [options]\n"
"\n"
"DESCRIPTION\n"
"    send emits UDP probes to HOST at a fixed rate. Each carries a sequence\n"
"    number, the sender's CLOCK_REALTIME just before sending, and the\n"
"    kernel's TX stamp of the previous probe (hardware when the interface\n"
"    stamps in hardware, else the kernel's software stamp), since a stamp of\n"
"    a sent packet exists only after it left. A last follow-up-only packet\n"
"    carries the stamp of the final probe.\n"
"\n"
"    recv stamps each probe on arrival (hardware RX stamp when available,\n"
"    else the kernel's software stamp) and computes the one-way delay\n"
"    receive stamp - send stamp, using the most precise send stamp that\n"
"    arrived. Clocks of two hosts differ, so it reports the delay minus a\n"
"    baseline: the minimum over the run, or a sliding minimum over the last\n"
"    N probes to follow clock drift (seed 004). It counts loss (sequence\n"
"    numbers never received), reordering (a probe arriving after a higher\n"
"    sequence number) and duplicates, prints a line per --interval and the\n"
"    thesis table at the end, and can write the probes to a pcapng file for\n"
"    tsstat --ref payload. Both sides print which kind of stamp they used.\n"
"\n"
"OPTIONS (send)\n"
"    -p, --port PORT      destination UDP port (default 40001)\n"
"    -r, --rate RATE      packets per second (1000), or bit/s of IP\n"
"                         packets with a unit: 500kbit, 10Mbit, 1Gbit\n"
"                         (default 1000)\n"
"    -s, --size BYTES     UDP payload size, 40..65000 (default 64)\n"
"    -n, --count N        probes to send (default 1000; 0 = until --duration)\n"
"    -d, --duration DUR   stop after DUR (like 10s)\n"
"    -T, --dscp N         DSCP 0..63 in the IP header\n"
"    -I, --interface IF   send through IF and ask IF for hardware stamps\n"
"    --no-tx-stamp        carry only the user-space send clock\n"
"    --test-reorder N     send every N-th probe after its successor\n"
"    --test-duplicate N   send every N-th probe twice\n"
"    --test-skip N        never send every N-th probe (counted as loss)\n"
"                         (the --test options exercise receivers)\n"
"\n"
"OPTIONS (recv)\n"
"    -p, --port PORT      UDP port to listen on (default 40001)\n"
"    -b, --bind ADDR      local address (default any, IPv6 and IPv4)\n"
"    -I, --interface IF   receive on IF and ask IF for hardware stamps\n"
"    -n, --count N        expect N probes: stop at the follow-up packet or\n"
"                         when seq N-1 arrived; lost tail probes count\n"
"    -t, --timeout DUR    stop after DUR without probes (default 3s)\n"
"    -d, --duration DUR   stop after DUR in any case\n"
"    -w, --write FILE     write the probes to pcapng (nanosecond stamps;\n"
"                         IP/UDP headers rebuilt from the socket addresses)\n"
"    -i, --interval DUR   live line every DUR (default 1s; 0 = none)\n"
"    --baseline MODE      min (default), sliding:N or none\n"
"    --hist FILE, --bin DUR   histogram of delay minus baseline\n"
"    --json               final statistics as one JSON object (tsstat keys\n"
"                         plus received, lost, reordered, duplicates,\n"
"                         rx_stamps, tx_stamps)\n"
"\n"
"EXIT STATUS\n"
"    0 success, 1 network or file error, 2 bad usage.\n"
"\n"
"EXAMPLE\n"
"    receiver$ tsprobe recv -w owd.pcapng\n"
"    sender$   tsprobe send -r 10Mbit -s 1200 -n 100000 receiver.example\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Ask IF to stamp in hardware. 1 when it agreed, 0 when it cannot. */
static int hw_enable(int fd, const char *ifname, int tx)
{
	struct hwtstamp_config cfg = { .tx_type = tx ? HWTSTAMP_TX_ON : HWTSTAMP_TX_OFF,
				       .rx_filter = HWTSTAMP_FILTER_ALL };
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&cfg;
	if (ioctl(fd, SIOCSHWTSTAMP, &ifr) < 0)
		return 0;
	return tx ? cfg.tx_type == HWTSTAMP_TX_ON : cfg.rx_filter != HWTSTAMP_FILTER_NONE;
}

static void bind_dev(int fd, const char *ifname)
{
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname)) < 0)
		die(1, "interface %s: %s", ifname, strerror(errno));
}

/* The stamp of an SCM_TIMESTAMPING message: hardware if present. */
static int stamp_of(struct msghdr *m, int64_t *ns, int *hw)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(m); c; c = CMSG_NXTHDR(m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SO_TIMESTAMPING)
			continue;
		struct timespec ts[3];
		memcpy(ts, CMSG_DATA(c), sizeof(ts));
		int i = (ts[2].tv_sec || ts[2].tv_nsec) ? 2 : 0;
		if (!ts[i].tv_sec && !ts[i].tv_nsec)
			return 0;
		*ns = (int64_t)ts[i].tv_sec * 1000000000 + ts[i].tv_nsec;
		*hw = i == 2;
		return 1;
	}
	return 0;
}

/* ---------------- send ---------------- */

struct send_opts {
	const char *host, *port, *ifname;
	double pps;
	long size;
	uint64_t count;
	int64_t duration;
	int dscp;
	int tx_stamp;
	long reorder, duplicate, skip;
};

#define TXR 4096
struct tx_ring {
	uint64_t id_seq[TXR];   /* OPT_ID of a send -> its sequence number */
	int64_t stamp[TXR];     /* TX stamp by sequence number */
	uint64_t stamp_seq[TXR];
	uint8_t stamp_hw[TXR], have[TXR];
	uint64_t nsw, nhw;
};

static void drain_errqueue(int fd, struct tx_ring *r)
{
	for (;;) {
		char ctrl[512], data[256];
		struct iovec iov = { data, sizeof(data) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl,
				    .msg_controllen = sizeof(ctrl) };
		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return;
		int64_t ns = 0;
		int hw = 0, have = stamp_of(&m, &ns, &hw);
		uint32_t id = 0;
		int have_id = 0;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if ((c->cmsg_level == SOL_IP && c->cmsg_type == IP_RECVERR) ||
			    (c->cmsg_level == SOL_IPV6 && c->cmsg_type == IPV6_RECVERR)) {
				struct sock_extended_err ee;
				memcpy(&ee, CMSG_DATA(c), sizeof(ee));
				if (ee.ee_origin == SO_EE_ORIGIN_TIMESTAMPING) {
					id = ee.ee_data;
					have_id = 1;
				}
			}
		}
		if (!have || !have_id)
			continue;
		uint64_t seq = r->id_seq[id % TXR];
		/* a duplicated probe: the receiver pairs its first copy, keep that stamp */
		if (r->have[seq % TXR] && r->stamp_seq[seq % TXR] == seq)
			continue;
		r->stamp[seq % TXR] = ns;
		r->stamp_seq[seq % TXR] = seq;
		r->stamp_hw[seq % TXR] = (uint8_t)hw;
		r->have[seq % TXR] = 1;
		if (hw)
			r->nhw++;
		else
			r->nsw++;
	}
}

static int send_probe(int fd, struct tx_ring *r, uint8_t *buf, size_t size, uint64_t seq,
		      uint64_t run, uint8_t extra, uint64_t *nsent)
{
	struct probe_hdr h = { .seq = seq, .run = run, .flags = extra };
	uint64_t prev = seq - 1;
	if (seq > 0 && r->have[prev % TXR] && r->stamp_seq[prev % TXR] == prev) {
		h.prev_tx_ns = r->stamp[prev % TXR];
		h.flags |= PROBE_F_PREV_VALID | (r->stamp_hw[prev % TXR] ? PROBE_F_PREV_HW : 0);
	}
	h.tx_ns = realtime_ns();
	probe_encode(buf, &h);
	r->id_seq[*nsent % TXR] = seq;
	if (send(fd, buf, size, 0) < 0) {
		if (errno == ECONNREFUSED || errno == ENOBUFS)
			return 0;       /* ICMP from an earlier probe, or a full queue: not fatal */
		return -1;
	}
	(*nsent)++;
	return 0;
}

static double parse_rate(const char *s, long size)
{
	char *end;
	double v = strtod(s, &end);
	double k = 0;
	if (end == s || !(v > 0))
		die(2, "--rate: '%s' is not a positive rate", s);
	if (*end == 0)
		return v;
	if (strcmp(end, "bit") == 0)
		k = 1;
	else if (strcmp(end, "kbit") == 0)
		k = 1e3;
	else if (strcmp(end, "Mbit") == 0)
		k = 1e6;
	else if (strcmp(end, "Gbit") == 0)
		k = 1e9;
	else
		die(2, "--rate: unknown unit '%s' (pps without unit, or bit, kbit, Mbit, Gbit)", end);
	return v * k / ((double)(size + 28) * 8);      /* IPv4 + UDP headers */
}

static int cmd_send(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "port", required_argument, NULL, 'p' }, { "rate", required_argument, NULL, 'r' },
		{ "size", required_argument, NULL, 's' }, { "count", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' }, { "dscp", required_argument, NULL, 'T' },
		{ "interface", required_argument, NULL, 'I' }, { "no-tx-stamp", no_argument, NULL, 'N' },
		{ "test-reorder", required_argument, NULL, 'O' },
		{ "test-duplicate", required_argument, NULL, 'D' },
		{ "test-skip", required_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' }, { 0 }
	};
	struct send_opts o = { .port = "40001", .size = 64, .count = 1000, .dscp = -1, .tx_stamp = 1 };
	const char *rate = "1000";
	int c;
	while ((c = getopt_long(argc, argv, "p:r:s:n:d:T:I:h", lo, NULL)) != -1) {
		switch (c) {
		case 'p': parse_int("--port", optarg, 1, 65535); o.port = optarg; break;
		case 'r': rate = optarg; break;
		case 's': o.size = (long)parse_int("--size", optarg, PROBE_HDR_LEN, 65000); break;
		case 'n': o.count = (uint64_t)parse_int("--count", optarg, 0, INT64_MAX); break;
		case 'd': o.duration = parse_ns("--duration", optarg); break;
		case 'T': o.dscp = (int)parse_int("--dscp", optarg, 0, 63); break;
		case 'I': o.ifname = optarg; break;
		case 'N': o.tx_stamp = 0; break;
		case 'O': o.reorder = (long)parse_int("--test-reorder", optarg, 2, 1000000000); break;
		case 'D': o.duplicate = (long)parse_int("--test-duplicate", optarg, 1, 1000000000); break;
		case 'K': o.skip = (long)parse_int("--test-skip", optarg, 2, 1000000000); break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: die(2, "try 'tsprobe --help'");
		}
	}
	if (optind != argc - 1)
		die(2, "send: expected one destination HOST");
	o.host = argv[optind];
	o.pps = parse_rate(rate, o.size);
	if (o.count == 0 && o.duration <= 0)
		die(2, "send: --count 0 needs --duration");

	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM }, *ai;
	int rc = getaddrinfo(o.host, o.port, &hints, &ai);
	if (rc)
		die(1, "%s: %s", o.host, gai_strerror(rc));
	int fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0)
		die(1, "socket: %s", strerror(errno));
	if (o.ifname)
		bind_dev(fd, o.ifname);
	if (o.dscp >= 0) {
		int tos = o.dscp << 2;
		if (setsockopt(fd, ai->ai_family == AF_INET6 ? IPPROTO_IPV6 : IPPROTO_IP,
			       ai->ai_family == AF_INET6 ? IPV6_TCLASS : IP_TOS, &tos, sizeof(tos)) < 0)
			die(1, "--dscp: %s", strerror(errno));
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		die(1, "%s: %s", o.host, strerror(errno));
	freeaddrinfo(ai);
	int hw = 0;
	const char *kind = "user-space clock only (--no-tx-stamp)";
	if (o.tx_stamp) {
		hw = o.ifname && hw_enable(fd, o.ifname, 1);
		unsigned flags = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE |
				 SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY;
		if (hw)
			flags |= SOF_TIMESTAMPING_TX_HARDWARE | SOF_TIMESTAMPING_RAW_HARDWARE;
		if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) < 0)
			die(1, "SO_TIMESTAMPING: %s", strerror(errno));
		kind = hw ? "hardware (SO_TIMESTAMPING, interface agreed)"
			  : "software (kernel SO_TIMESTAMPING; no hardware stamping)";
	}
	uint8_t *buf = calloc(1, (size_t)o.size);
	struct tx_ring *r = calloc(1, sizeof(*r));
	uint64_t run;
	if (!buf || !r)
		die(1, "out of memory");
	if (getrandom(&run, sizeof(run), 0) != sizeof(run))
		run = (uint64_t)realtime_ns();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	fprintf(stderr, "tsprobe send: %s port %s, %.1f pps, %ld-byte payload, tx stamps: %s\n",
		o.host, o.port, o.pps, o.size, kind);
	int64_t interval = (int64_t)(1e9 / o.pps), t0 = monotonic_ns();
	uint64_t nsent = 0, seq = 0, held = 0;
	int holding = 0;
	for (uint64_t i = 0; !stop && (o.count == 0 || i < o.count); i++) {
		int64_t due = t0 + (int64_t)i * interval;
		if (o.duration > 0 && due - t0 >= o.duration)
			break;
		struct timespec ts = { due / 1000000000, due % 1000000000 };
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR && !stop)
			;
		if (o.tx_stamp)
			drain_errqueue(fd, r);
		seq = i;
		if (o.skip && i % (uint64_t)o.skip == (uint64_t)o.skip - 1)
			continue;
		if (o.reorder && i % (uint64_t)o.reorder == (uint64_t)o.reorder - 1 &&
		    (o.count == 0 || i + 1 < o.count)) {
			held = i;       /* goes out right after i+1 */
			holding = 1;
			continue;
		}
		int copies = o.duplicate && i % (uint64_t)o.duplicate == 0 ? 2 : 1;
		for (int k = 0; k < copies; k++)
			if (send_probe(fd, r, buf, (size_t)o.size, i, run, 0, &nsent) < 0)
				die(1, "send: %s", strerror(errno));
		if (holding) {
			holding = 0;
			if (send_probe(fd, r, buf, (size_t)o.size, held, run, 0, &nsent) < 0)
				die(1, "send: %s", strerror(errno));
		}
	}
	/* the follow-up for the last probe: wait briefly for its stamp */
	if (o.tx_stamp) {
		for (int w = 0; w < 20 && !(r->have[seq % TXR] && r->stamp_seq[seq % TXR] == seq); w++) {
			struct pollfd p = { fd, POLLERR, 0 };
			poll(&p, 1, 5);
			drain_errqueue(fd, r);
		}
	}
	if (send_probe(fd, r, buf, (size_t)o.size, seq + 1, run, PROBE_F_FOLLOWUP_ONLY, &nsent) < 0)
		die(1, "send: %s", strerror(errno));
	double secs = (double)(monotonic_ns() - t0) / 1e9;
	fprintf(stderr, "tsprobe send: %" PRIu64 " datagrams in %.3f s; tx stamps received: "
		"%" PRIu64 " hardware, %" PRIu64 " software\n", nsent, secs, r->nhw, r->nsw);
	close(fd);
	free(buf);
	free(r);
	return 0;
}

/* ---------------- recv ---------------- */

struct recv_ctx {
	struct samples raw;     /* rx - tx, arrival order */
	int64_t run_min;        /* for the live line */
	uint64_t iv_n;
	int64_t iv_max;
	double iv_sum;
};

static void recv_emit(void *vctx, uint64_t seq, int64_t rx, int64_t tx, enum tx_kind k)
{
	struct recv_ctx *c = vctx;
	(void)seq;
	(void)k;
	int64_t d = rx - tx;
	if (samples_push(&c->raw, d) < 0)
		die(1, "out of memory");
	if (c->raw.n == 1 || d < c->run_min)
		c->run_min = d;
	c->iv_n++;
	c->iv_sum += (double)d;
	if (c->iv_n == 1 || d > c->iv_max)
		c->iv_max = d;
}

/* IPv4 or IPv6 + UDP header in front of the payload, for the pcapng file. */
static size_t rebuild(uint8_t *out, const struct sockaddr_storage *src, uint16_t dport,
		      const uint8_t *pl, size_t n)
{
	const struct sockaddr_in6 *s6 = (const void *)src;
	const struct sockaddr_in *s4 = (const void *)src;
	int v4 = src->ss_family == AF_INET ||
		 (src->ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr));
	size_t ipl = v4 ? 20 : 40;
	uint8_t *u = out + ipl;
	memset(out, 0, ipl + 8);
	if (v4) {
		size_t tot = 20 + 8 + n;
		out[0] = 0x45;
		out[2] = (uint8_t)(tot >> 8);
		out[3] = (uint8_t)tot;
		out[8] = 64;
		out[9] = 17;
		if (src->ss_family == AF_INET)
			memcpy(out + 12, &s4->sin_addr, 4);
		else
			memcpy(out + 12, &s6->sin6_addr.s6_addr[12], 4);
		out[16] = 127;  /* destination: not known per packet; loopback marks it */
		out[19] = 1;
	} else {
		out[0] = 0x60;
		out[4] = (uint8_t)((8 + n) >> 8);
		out[5] = (uint8_t)(8 + n);
		out[6] = 17;
		out[7] = 64;
		memcpy(out + 8, &s6->sin6_addr, 16);
		out[39] = 1;    /* ::1 */
	}
	uint16_t sport = ntohs(src->ss_family == AF_INET ? s4->sin_port : s6->sin6_port);
	u[0] = (uint8_t)(sport >> 8);
	u[1] = (uint8_t)sport;
	u[2] = (uint8_t)(dport >> 8);
	u[3] = (uint8_t)dport;
	u[4] = (uint8_t)((8 + n) >> 8);
	u[5] = (uint8_t)(8 + n);
	memcpy(u + 8, pl, n);
	return ipl + 8 + n;
}

static int cmd_recv(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "port", required_argument, NULL, 'p' }, { "bind", required_argument, NULL, 'b' },
		{ "interface", required_argument, NULL, 'I' }, { "count", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' }, { "duration", required_argument, NULL, 'd' },
		{ "write", required_argument, NULL, 'w' }, { "interval", required_argument, NULL, 'i' },
		{ "baseline", required_argument, NULL, 'B' }, { "hist", required_argument, NULL, 'H' },
		{ "bin", required_argument, NULL, 'W' }, { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' }, { 0 }
	};
	const char *port = "40001", *bindaddr = NULL, *ifname = NULL, *wpath = NULL, *hist = NULL;
	uint64_t count = 0;
	int64_t timeout = 3000000000, duration = 0, interval = 1000000000, bin = 1000;
	int baseline = 1, json = 0;
	size_t window = 0;
	int c;
	while ((c = getopt_long(argc, argv, "p:b:I:n:t:d:w:i:h", lo, NULL)) != -1) {
		switch (c) {
		case 'p': parse_int("--port", optarg, 1, 65535); port = optarg; break;
		case 'b': bindaddr = optarg; break;
		case 'I': ifname = optarg; break;
		case 'n': count = (uint64_t)parse_int("--count", optarg, 1, INT64_MAX); break;
		case 't': timeout = parse_ns("--timeout", optarg); break;
		case 'd': duration = parse_ns("--duration", optarg); break;
		case 'w': wpath = optarg; break;
		case 'i': interval = parse_ns("--interval", optarg); break;
		case 'B':
			if (strcmp(optarg, "none") == 0)
				baseline = 0;
			else if (strcmp(optarg, "min") == 0)
				baseline = 1;
			else if (strncmp(optarg, "sliding:", 8) == 0) {
				baseline = 2;
				window = (size_t)parse_int("--baseline sliding:N", optarg + 8, 1, 1000000000);
			} else
				die(2, "--baseline: '%s' is not none, min or sliding:N", optarg);
			break;
		case 'H': hist = optarg; break;
		case 'W': bin = parse_ns("--bin", optarg); break;
		case 'j': json = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: die(2, "try 'tsprobe --help'");
		}
	}
	if (optind != argc)
		die(2, "recv: unexpected argument '%s'", argv[optind]);
	if (timeout <= 0 || bin <= 0 || interval < 0)
		die(2, "--timeout and --bin must be positive, --interval >= 0");

	struct addrinfo hints = { .ai_socktype = SOCK_DGRAM, .ai_flags = AI_PASSIVE,
				  .ai_family = bindaddr ? AF_UNSPEC : AF_INET6 }, *ai;
	int rc = getaddrinfo(bindaddr, port, &hints, &ai);
	if (rc)
		die(1, "%s: %s", bindaddr ? bindaddr : "any", gai_strerror(rc));
	int fd = socket(ai->ai_family, SOCK_DGRAM, 0);
	if (fd < 0)
		die(1, "socket: %s", strerror(errno));
	int off = 0, on = 1;
	if (ai->ai_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	int rcvbuf = 8 << 20;
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (ifname)
		bind_dev(fd, ifname);
	if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0)
		die(1, "bind port %s: %s", port, strerror(errno));
	freeaddrinfo(ai);
	int hw = ifname && hw_enable(fd, ifname, 0);
	unsigned flags = SOF_TIMESTAMPING_RX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE;
	if (hw)
		flags |= SOF_TIMESTAMPING_RX_HARDWARE | SOF_TIMESTAMPING_RAW_HARDWARE;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) < 0)
		die(1, "SO_TIMESTAMPING: %s", strerror(errno));
	struct cap_writer *w = NULL;
	char err[512];
	if (wpath && !(w = cap_create(wpath, CAP_PCAPNG, 1, 0, 101, 65535, err, sizeof(err))))
		die(1, "%s", err);

	struct recv_ctx ctx = { 0 };
	struct probe_tracker *tr = malloc(sizeof(*tr));
	uint8_t *buf = malloc(65536), *frame = malloc(65536 + 48);
	if (!tr || !buf || !frame)
		die(1, "out of memory");
	probe_tracker_init(tr, recv_emit, &ctx);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "tsprobe recv: port %s, rx stamps requested: %s\n", port,
		hw ? "hardware (interface agreed) with software fallback" :
		     "software (kernel SO_TIMESTAMPING; no hardware stamping)");
	uint64_t n_hw = 0, n_sw = 0, n_user = 0, bad = 0;
	int64_t start = monotonic_ns(), last = start, next_line = start + interval, end_at = 0;
	int got_end = 0;
	while (!stop) {
		int64_t now = monotonic_ns();
		if (duration > 0 && now - start >= duration)
			break;
		if (now - last >= timeout)
			break;
		if (end_at && now >= end_at)
			break;
		if (interval > 0 && now >= next_line) {
			fprintf(stderr, "%8.3f s  rx %8" PRIu64 "  lost %6" PRIu64 "  reord %5" PRIu64
				"  dup %5" PRIu64 "  owd-min: mean %9.1f us  max %9.1f us\n",
				(double)(now - start) / 1e9, tr->received, probe_tracker_lost(tr, 0),
				tr->reordered, tr->duplicates,
				ctx.iv_n ? (ctx.iv_sum / (double)ctx.iv_n - (double)ctx.run_min) / 1e3 : 0.0,
				ctx.iv_n ? (double)(ctx.iv_max - ctx.run_min) / 1e3 : 0.0);
			ctx.iv_n = 0;
			ctx.iv_sum = 0;
			next_line += interval;
		}
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 20) <= 0)
			continue;
		char ctrl[512];
		struct sockaddr_storage src;
		struct iovec iov = { buf, 65536 };
		struct msghdr m = { .msg_name = &src, .msg_namelen = sizeof(src), .msg_iov = &iov,
				    .msg_iovlen = 1, .msg_control = ctrl, .msg_controllen = sizeof(ctrl) };
		ssize_t n = recvmsg(fd, &m, MSG_DONTWAIT);
		if (n < 0)
			continue;
		int64_t rx;
		int is_hw = 0;
		if (!stamp_of(&m, &rx, &is_hw)) {
			rx = realtime_ns();
			n_user++;
		} else if (is_hw) {
			n_hw++;
		} else {
			n_sw++;
		}
		last = monotonic_ns();
		struct probe_hdr h;
		if (probe_decode(buf, (size_t)n, &h) < 0) {
			bad++;
			continue;
		}
		if (w) {
			size_t fl = rebuild(frame, &src, (uint16_t)atoi(port), buf, (size_t)n);
			if (cap_write(w, rx, frame, (uint32_t)fl, (uint32_t)fl) < 0)
				die(1, "%s: write error", wpath);
		}
		if (probe_tracker_add(tr, &h, rx) < 0)
			die(1, "probe sequence %" PRIu64 " is absurd", h.seq);
		/* the end: wait a little for stragglers (reordered probes) */
		if (!got_end && ((h.flags & PROBE_F_FOLLOWUP_ONLY) || (count && tr->unique >= count))) {
			got_end = 1;
			end_at = last + 200000000;
		}
	}
	probe_tracker_flush(tr);
	if (w && cap_finish(w, err, sizeof(err)) < 0)
		die(1, "%s", err);

	const char *rxk = n_hw && !n_sw && !n_user ? "hardware" : n_sw && !n_hw && !n_user ?
			  "software (kernel)" : n_user && !n_hw && !n_sw ? "user-space clock" :
			  n_hw + n_sw + n_user ? "mixed" : "none";
	const char *txk = tr->by_kind[TX_HW] ? "hardware" : tr->by_kind[TX_KERNEL_SW] ?
			  "software (kernel)" : "user-space clock";
	if (tr->by_kind[TX_HW] + tr->by_kind[TX_KERNEL_SW] && tr->by_kind[TX_USER])
		txk = tr->by_kind[TX_HW] ? "hardware, some user-space clock" :
		      "software (kernel), some user-space clock";
	struct summary sum = { 0 };
	int64_t base = 0;
	if (ctx.raw.n)
		base = ctx.run_min;
	if (baseline == 1)
		baseline_min(&ctx.raw);
	else if (baseline == 2 && baseline_sliding(&ctx.raw, window) < 0)
		die(1, "out of memory");
	if (hist && hist_write(hist, ctx.raw.v, ctx.raw.n, bin, "one-way delay minus baseline",
			       err, sizeof(err)) < 0)
		die(1, "%s", err);
	summarize(&ctx.raw, &sum);
	uint64_t lost = probe_tracker_lost(tr, count);
	if (json) {
		printf("{\"received\": %" PRIu64 ", \"lost\": %" PRIu64 ", \"reordered\": %" PRIu64
		       ", \"duplicates\": %" PRIu64 ", \"rx_stamps\": \"%s\", \"tx_stamps\": \"%s\", "
		       "\"baseline_ns\": %" PRId64 ", \"stats\": ", tr->received, lost, tr->reordered,
		       tr->duplicates, rxk, txk, baseline == 1 ? base : 0);
		summary_json(stdout, &sum);
		printf("}\n");
	} else {
		printf("tsprobe recv: run %016" PRIx64 ", %" PRIu64 " datagrams\n", tr->run,
		       n_hw + n_sw + n_user);
		printf("rx stamps: %s (%" PRIu64 " hardware, %" PRIu64 " software, %" PRIu64
		       " user-space)\n", rxk, n_hw, n_sw, n_user);
		printf("tx stamps: %s", txk);
		for (int k = 0; k < TX_KINDS; k++)
			if (tr->by_kind[k])
				printf("; %" PRIu64 " x %s", tr->by_kind[k], tx_kind_name[k]);
		printf("\nreceived %" PRIu64 ", lost %" PRIu64 ", reordered %" PRIu64 ", duplicates %"
		       PRIu64 ", not probes %" PRIu64 "\n", tr->received, lost, tr->reordered,
		       tr->duplicates, bad);
		if (baseline == 1)
			printf("baseline: minimum raw delay %.3f us (sender and receiver clock offset "
			       "included) removed\n", (double)base / 1e3);
		else if (baseline == 2)
			printf("baseline: sliding minimum over %zu probes removed\n", window);
		summary_table(stdout, &sum, 1000, "one-way delay minus baseline:");
	}
	close(fd);
	samples_free(&ctx.raw);
	probe_tracker_free(tr);
	free(tr);
	free(buf);
	free(frame);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	progname = "tsprobe";
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "send") == 0) {
		progname = "tsprobe send";
		return cmd_send(argc - 1, argv + 1);
	}
	if (argc >= 2 && strcmp(argv[1], "recv") == 0) {
		progname = "tsprobe recv";
		return cmd_recv(argc - 1, argv + 1);
	}
	die(2, "expected 'send' or 'recv' (try 'tsprobe --help')");
}
