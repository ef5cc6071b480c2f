// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gencap: make captures with known timestamp differences for the tool
 * tests, and write the true differences (one integer ns per line, in the
 * order the tools see them) so the test can compute the statistics
 * independently (awk) and compare.
 *
 *   gencap ref     A B TRUTH [opts]   A = B's packets delayed; pairs by bytes
 *   gencap payload F TRUTH [opts]     tsprobe packets with send stamps
 *   gencap bench   F N                N probe packets (benchmark input)
 *
 * opts: -n N  -s SEED  -f pcap|pcapng (A/F)  -g pcap|pcapng (B)
 *       -r us|ns  -e little|big  -d DUPS  -a ONLY_IN_A  -b ONLY_IN_B
 *       -l LOSE_EVERY  -o REORDER_EVERY  -D DUP_EVERY  -F (follow-up stamps)
 *       -L LINKTYPE (1 Ethernet, 101 raw IP, 113 Linux cooked)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/capfile.h"
#include "lib/probe.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static double unif(void)
{
	return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0);
}

static double gauss(void)
{
	double u = unif() + 1e-300, v = unif();
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* A heavy-tailed delay like the thesis histograms: ~10 us body, a tail of
 * hundreds of us, and some negative values (clock offset between points). */
static int64_t delay_ns(void)
{
	double d = 10000 + 800 * gauss();
	double u = unif();
	if (u < 0.02)
		d += fmin(-30000 * log(unif() + 1e-12), 800000);
	else if (u < 0.03)
		d = -5000 * unif();
	return (int64_t)llround(d);
}

struct opt {
	long n;
	enum cap_fmt fa, fb;
	int ns, big;
	long dups, only_a, only_b, lose, reorder, dupevery;
	int followup;
	uint32_t linktype;
};

static _Noreturn void die(const char *m)
{
	fprintf(stderr, "gencap: %s\n", m);
	exit(1);
}

static struct cap_writer *create(const char *path, enum cap_fmt f, const struct opt *o)
{
	char err[256];
	struct cap_writer *w = cap_create(path, f, o->ns, o->big, o->linktype, 65535, err, sizeof(err));
	if (!w)
		die(err);
	return w;
}

static void finish(struct cap_writer *w)
{
	char err[256];
	if (cap_finish(w, err, sizeof(err)) < 0)
		die(err);
}

/* Frame of the given link type around a UDP payload. Returns its length. */
static size_t frame(uint8_t *buf, uint32_t linktype, const uint8_t *pl, size_t plen)
{
	size_t l2 = linktype == 1 ? 14 : linktype == 113 ? 16 : 0;
	memset(buf, 0, l2);
	if (linktype == 1) {
		memcpy(buf, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
		buf[12] = 0x08;
	} else if (linktype == 113) {
		buf[14] = 0x08;
	}
	uint8_t *ip = buf + l2;
	size_t tot = 20 + 8 + plen;
	memset(ip, 0, 28);
	ip[0] = 0x45;
	ip[2] = (uint8_t)(tot >> 8);
	ip[3] = (uint8_t)tot;
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, "\x0a\x4d\x00\x01\x0a\x4d\x00\x02", 8);
	ip[20] = 0x9c;          /* ports 40000 -> 40001 */
	ip[21] = 0x40;
	ip[22] = 0x9c;
	ip[23] = 0x41;
	ip[24] = (uint8_t)((8 + plen) >> 8);
	ip[25] = (uint8_t)(8 + plen);
	memcpy(ip + 28, pl, plen);
	return l2 + tot;
}

/* Stamp as the file will hold it: microsecond formats truncate. */
static int64_t held(const struct opt *o, int64_t t)
{
	return o->ns ? t : t - t % 1000;
}

struct rec { int64_t ts; long id; };

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	return (x->ts > y->ts) - (x->ts < y->ts);
}

static void payload_bytes(uint8_t *pl, long id)
{
	memset(pl, 0, 64);
	memcpy(pl, "gencap", 6);
	for (int i = 0; i < 8; i++)
		pl[8 + i] = (uint8_t)(id >> (8 * i));
	for (int i = 16; i < 64; i++)
		pl[i] = (uint8_t)(id * 31 + i);
}

/*
 * ref: B holds n packets sent every 20 us; A holds each delayed by
 * delay_ns(). 'dups' packets are sent twice 2 ms apart (more than any
 * delay, so the copies cannot change order); only_a / only_b packets
 * exist in one capture only. A is written in arrival order.
 */
static void gen_ref(const char *pa, const char *pb, const char *pt, const struct opt *o)
{
	long total = o->n + o->dups + o->only_a + o->only_b;
	struct rec *ra = calloc((size_t)total, sizeof(*ra)), *rb = calloc((size_t)total, sizeof(*rb));
	int64_t *send = calloc((size_t)total, sizeof(*send));
	long *pid = calloc((size_t)total, sizeof(*pid));
	long na = 0, nb = 0;
	if (!ra || !rb || !send || !pid)
		die("out of memory");
	const int64_t t0 = 1700000000000000000ll;
	/* ids: 0..n-1 normal, n.. only_b, then only_a; dup copies reuse ids */
	long k = 0;
	for (long i = 0; i < o->n; i++, k++) {
		send[k] = t0 + i * 20000;
		pid[k] = i;
	}
	for (long i = 0; i < o->dups; i++, k++) {
		long src = (long)(rnd() % (uint64_t)(o->n / 2));
		send[k] = send[src] + 2000000;   /* 2 ms later */
		pid[k] = src;
	}
	FILE *ft = fopen(pt, "w");
	if (!ft)
		die("cannot create truth file");
	for (long i = 0; i < o->n + o->dups; i++) {
		int64_t arr = send[i] + delay_ns();
		rb[nb++] = (struct rec){ held(o, send[i]), i };
		ra[na++] = (struct rec){ held(o, arr), i };
	}
	for (long i = 0; i < o->only_b; i++)
		rb[nb++] = (struct rec){ held(o, t0 + (int64_t)(rnd() % 1000000000)), -1 - i };
	for (long i = 0; i < o->only_a; i++)
		ra[na++] = (struct rec){ held(o, t0 + (int64_t)(rnd() % 1000000000)), -1000000 - i };
	qsort(ra, (size_t)na, sizeof(*ra), cmp_rec);
	qsort(rb, (size_t)nb, sizeof(*rb), cmp_rec);
	/* truth: per A packet with a partner, in A's file order */
	int64_t *bt = calloc((size_t)total, sizeof(*bt));
	for (long i = 0; i < nb; i++)
		if (rb[i].id >= 0)
			bt[rb[i].id] = rb[i].ts;
	for (long i = 0; i < na; i++)
		if (ra[i].id >= 0)
			fprintf(ft, "%lld\n", (long long)(ra[i].ts - bt[ra[i].id]));
	if (fclose(ft))
		die("truth write error");
	uint8_t pl[64], fr[128];
	struct cap_writer *wa = create(pa, o->fa, o), *wb = create(pb, o->fb, o);
	for (long i = 0; i < na; i++) {
		long id = ra[i].id >= 0 ? pid[ra[i].id] : ra[i].id;
		payload_bytes(pl, id);
		size_t n = frame(fr, o->linktype, pl, sizeof(pl));
		cap_write(wa, ra[i].ts, fr, (uint32_t)n, (uint32_t)n);
	}
	for (long i = 0; i < nb; i++) {
		long id = rb[i].id >= 0 ? pid[rb[i].id] : rb[i].id;
		payload_bytes(pl, id);
		size_t n = frame(fr, o->linktype, pl, sizeof(pl));
		cap_write(wb, rb[i].ts, fr, (uint32_t)n, (uint32_t)n);
	}
	finish(wa);
	finish(wb);
	free(ra);
	free(rb);
	free(send);
	free(pid);
	free(bt);
}

/*
 * payload: probes seq 0..n-1 every 20 us. Every lose-th is lost, every
 * reorder-th arrives after its successor, every dupevery-th arrives twice;
 * every 50th packet is a non-probe (unmatched). With -F each probe carries
 * the "kernel" stamp of its predecessor (user stamp + 1500 ns) and a
 * follow-up-only packet ends the run; the truth uses that stamp exactly
 * when the successor (or the follow-up) arrived.
 */
static void gen_payload(const char *pf, const char *pt, const struct opt *o)
{
	long n = o->n;
	int64_t *tx = calloc((size_t)n + 1, sizeof(*tx)), *rx = calloc((size_t)n + 1, sizeof(*rx));
	char *lost = calloc((size_t)n + 1, 1);
	if (!tx || !rx || !lost)
		die("out of memory");
	const int64_t t0 = 1700000000000000000ll, kern = 1500;
	for (long i = 0; i <= n; i++) {
		tx[i] = t0 + i * 20000;
		rx[i] = held(o, tx[i] + kern + delay_ns());
		lost[i] = o->lose && i % o->lose == o->lose - 1 && i < n;
	}
	/* arrival order: swap pairs for reordering */
	long *order = calloc((size_t)n + 2, sizeof(*order));
	long no = 0;
	for (long i = 0; i < n; i++)
		order[no++] = i;
	if (o->reorder)
		for (long i = o->reorder - 1; i + 1 < n; i += o->reorder) {
			long t = order[i];
			order[i] = order[i + 1];
			order[i + 1] = t;
			/* the late one arrives after its successor: give it a later stamp */
			int64_t r = rx[order[i]];
			rx[order[i]] = rx[order[i + 1]];
			rx[order[i + 1]] = r;
		}
	FILE *ft = fopen(pt, "w");
	if (!ft)
		die("cannot create truth file");
	for (long i = 0; i < n; i++) {
		if (lost[i])
			continue;
		/* follow-up for i travels in i+1 (or the final follow-up packet) */
		int precise = o->followup && (i + 1 == n || !lost[i + 1]);
		fprintf(ft, "%lld\n", (long long)(rx[i] - (precise ? tx[i] + kern : tx[i])));
	}
	if (fclose(ft))
		die("truth write error");
	struct cap_writer *w = create(pf, o->fa, o);
	uint8_t pl[64], fr[128];
	uint64_t run = 0x5eed0000u + (uint64_t)o->n;
	for (long j = 0; j <= no; j++) {
		long i = j < no ? order[j] : n;         /* n: the follow-up-only packet */
		if (i == n && !o->followup)
			break;
		if (lost[i])
			continue;
		struct probe_hdr h = { .seq = (uint64_t)i, .tx_ns = tx[i], .run = run };
		if (o->followup && i > 0) {
			h.flags = PROBE_F_PREV_VALID;
			h.prev_tx_ns = tx[i - 1] + kern;
		}
		if (i == n)
			h.flags |= PROBE_F_FOLLOWUP_ONLY;
		memset(pl, 0, sizeof(pl));
		probe_encode(pl, &h);
		size_t len = frame(fr, o->linktype, pl, sizeof(pl));
		int copies = o->dupevery && i % o->dupevery == 0 && i < n ? 2 : 1;
		for (int c = 0; c < copies; c++)
			cap_write(w, rx[i < n ? i : n - 1] + c, fr, (uint32_t)len, (uint32_t)len);
		if (i % 50 == 25) {     /* a non-probe packet */
			memset(pl, 0x55, sizeof(pl));
			len = frame(fr, o->linktype, pl, sizeof(pl));
			cap_write(w, rx[i] + 1, fr, (uint32_t)len, (uint32_t)len);
		}
	}
	finish(w);
	free(tx);
	free(rx);
	free(lost);
	free(order);
}

/* bench: n probes, one every 10 us, Ethernet, nanosecond pcap. */
static void gen_bench(const char *pf, long n)
{
	struct opt o = { .ns = 1, .linktype = 1, .fa = CAP_PCAP };
	struct cap_writer *w = create(pf, CAP_PCAP, &o);
	uint8_t pl[40], fr[128];
	const int64_t t0 = 1700000000000000000ll;
	for (long i = 0; i < n; i++) {
		struct probe_hdr h = { .seq = (uint64_t)i, .tx_ns = t0 + i * 10000, .run = 1 };
		probe_encode(pl, &h);
		size_t len = frame(fr, 1, pl, sizeof(pl));
		if (cap_write(w, t0 + i * 10000 + delay_ns(), fr, (uint32_t)len, (uint32_t)len) < 0)
			die("write error");
	}
	finish(w);
}

static enum cap_fmt fmt(const char *s)
{
	if (strcmp(s, "pcap") == 0)
		return CAP_PCAP;
	if (strcmp(s, "pcapng") == 0)
		return CAP_PCAPNG;
	die("format is pcap or pcapng");
}

int main(int argc, char **argv)
{
	struct opt o = { .n = 10000, .fa = CAP_PCAP, .fb = CAP_PCAP, .ns = 1, .linktype = 1 };
	int c;
	if (argc < 2)
		die("usage: gencap ref|payload|bench ...");
	const char *cmd = argv[1];
	optind = 2;
	while ((c = getopt(argc, argv, "n:s:f:g:r:e:d:a:b:l:o:D:FL:")) != -1) {
		switch (c) {
		case 'n': o.n = atol(optarg); break;
		case 's': rng ^= strtoull(optarg, NULL, 0) * 0x9e3779b97f4a7c15ull; break;
		case 'f': o.fa = fmt(optarg); break;
		case 'g': o.fb = fmt(optarg); break;
		case 'r': o.ns = strcmp(optarg, "ns") == 0; break;
		case 'e': o.big = strcmp(optarg, "big") == 0; break;
		case 'd': o.dups = atol(optarg); break;
		case 'a': o.only_a = atol(optarg); break;
		case 'b': o.only_b = atol(optarg); break;
		case 'l': o.lose = atol(optarg); break;
		case 'o': o.reorder = atol(optarg); break;
		case 'D': o.dupevery = atol(optarg); break;
		case 'F': o.followup = 1; break;
		case 'L': o.linktype = (uint32_t)atol(optarg); break;
		default: die("bad option");
		}
	}
	if (o.n < 10)
		die("-n must be at least 10");
	if (strcmp(cmd, "ref") == 0 && argc - optind == 3)
		gen_ref(argv[optind], argv[optind + 1], argv[optind + 2], &o);
	else if (strcmp(cmd, "payload") == 0 && argc - optind == 2)
		gen_payload(argv[optind], argv[optind + 1], &o);
	else if (strcmp(cmd, "bench") == 0 && argc - optind == 2)
		gen_bench(argv[optind], atol(argv[optind + 1]));
	else
		die("usage: gencap ref A B TRUTH | payload F TRUTH | bench F N  [opts]");
	return 0;
}
