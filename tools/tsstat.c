// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tsstat: statistics of packet timestamp differences, as the thesis
 * tables them (samples, mean, variance, skewness, kurtosis, min, p25,
 * p50, p75, p99, max), with histograms and P-P plots.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/capfile.h"
#include "lib/plot.h"
#include "lib/probe.h"
#include "lib/stats.h"
#include "lib/util.h"

static const char usage_text[] =
"NAME\n"
"    tsstat - statistics of packet timestamp differences\n"
"\n"
"SYNOPSIS\n"
"    tsstat [options] CAPTURE\n"
"\n"
"DESCRIPTION\n"
"    Reads CAPTURE (pcap or pcapng; microsecond or nanosecond stamps; either\n"
"    byte order; '-' for stdin) and computes one difference per packet:\n"
"\n"
"    (default)          inter-arrival time: stamp - previous packet's stamp\n"
"    --ref OTHER        delay against a second capture of the same traffic:\n"
"                       packets are paired by their bytes (the k-th copy of a\n"
"                       byte string in CAPTURE with the k-th in OTHER), and\n"
"                       the sample is stamp(CAPTURE) - stamp(OTHER)\n"
"    --ref payload      one-way delay of tsprobe packets: capture stamp minus\n"
"                       the send stamp in the payload (the sender's kernel or\n"
"                       hardware TX stamp when it sent one, else its user-space\n"
"                       clock); reports loss, reordering and duplicates\n"
"\n"
"    It prints the thesis table. Definitions: variance is the sample variance\n"
"    (n-1); skewness m3/m2^1.5 and kurtosis m4/m2^2 (Pearson, normal = 3) use\n"
"    population central moments; percentiles interpolate linearly between\n"
"    closest ranks (h = (n-1)p). 'unmatched' counts packets without a partner:\n"
"    in --ref OTHER those of either capture; in --ref payload the packets that\n"
"    are not probes; in inter-arrival mode always 0.\n"
"\n"
"OPTIONS\n"
"    --ref OTHER|payload  reference, see above\n"
"    --filter EXPR        libpcap filter expression applied to every capture\n"
"    --match-len N        pair --ref captures by the first N captured bytes\n"
"                         only (default: all captured bytes)\n"
"    --baseline MODE      none (default), min (subtract the minimum), or\n"
"                         sliding:N (subtract the minimum of the last N samples,\n"
"                         following clock drift between sender and receiver)\n"
"    --json               print one JSON object: samples, mean_ns,\n"
"                         variance_ns2, skewness, kurtosis, min_ns, p25_ns,\n"
"                         p50_ns, p75_ns, p99_ns, max_ns, unmatched\n"
"    --unit ns|us         unit of the text table (default us)\n"
"    --hist FILE          histogram, log y-axis; FILE.svg is a picture, any\n"
"                         other name gets 'bin_start_ns count' text\n"
"    --bin DURATION       histogram bin width (default 1us; 250ns, 2us, 1ms)\n"
"    --pp FILE            P-P plot (.svg or text) of the samples against a\n"
"                         normal distribution of the same mean and variance,\n"
"                         or against --pp-ref\n"
"    --pp-ref SAMPLES     the other distribution: a file written by\n"
"                         --samples-out (one integer ns per line)\n"
"    --samples-out FILE   write the samples, one integer ns per line\n"
"    -h, --help           this text\n"
"\n"
"MEMORY\n"
"    8 bytes per sample; --ref OTHER also holds 48 bytes per packet of OTHER.\n"
"\n"
"EXIT STATUS\n"
"    0 success, 1 bad or unreadable input, 2 bad usage.\n"
"\n"
"EXAMPLES\n"
"    tsstat --ref sender.pcap receiver.pcapng --hist err.svg\n"
"    tsstat --ref payload --baseline sliding:1000 --json probes.pcapng\n";

enum mode { MODE_INTERARRIVAL, MODE_REF_FILE, MODE_REF_PAYLOAD };

struct opts {
	enum mode mode;
	const char *ref;
	const char *filter;
	uint32_t match_len;
	int baseline;           /* 0 none, 1 min, 2 sliding */
	size_t window;
	int json;
	int unit_ns;
	const char *hist, *pp, *pp_ref, *samples_out;
	int64_t bin_ns;
};

/* ---- libpcap filter, compiled once per link type ---- */

struct filter {
	const char *expr;
	struct { uint32_t linktype; struct bpf_program prog; } prog[8];
	int n;
};

static struct bpf_program *filter_for(struct filter *f, uint32_t linktype)
{
	for (int i = 0; i < f->n; i++)
		if (f->prog[i].linktype == linktype)
			return &f->prog[i].prog;
	if (f->n == 8)
		die(1, "more than 8 link types in the captures");
	pcap_t *p = pcap_open_dead((int)linktype, CAP_MAX_CAPLEN);
	if (!p)
		die(1, "libpcap cannot handle link type %u", linktype);
	struct bpf_program *bp = &f->prog[f->n].prog;
	if (pcap_compile(p, bp, f->expr, 1, PCAP_NETMASK_UNKNOWN) < 0)
		die(2, "--filter '%s': %s", f->expr, pcap_geterr(p));
	pcap_close(p);
	f->prog[f->n].linktype = linktype;
	return &f->prog[f->n++].prog;
}

static int filter_pass(struct filter *f, const struct cap_packet *p)
{
	if (!f->expr)
		return 1;
	struct pcap_pkthdr h = { .caplen = p->caplen, .len = p->origlen };
	return pcap_offline_filter(filter_for(f, p->linktype), &h, p->data) != 0;
}

static void filter_free(struct filter *f)
{
	for (int i = 0; i < f->n; i++)
		pcap_freecode(&f->prog[i].prog);
}

/* ---- pairing two captures by packet bytes ---- */

/*
 * Hash table of OTHER's packets: a slot per distinct byte string (by a
 * 64-bit hash of it) with a FIFO of its copies' stamps, so the k-th copy in
 * one capture pairs with the k-th in the other. Two different packets
 * sharing a 64-bit hash are taken as equal: for 10^7 packets the chance is
 * about 3e-6.
 */
struct ref_entry { int64_t ts; uint32_t next; };
struct ref_slot { uint64_t hash; uint32_t head, tail; };
#define NONE UINT32_MAX

struct ref_table {
	struct ref_entry *e;
	size_t ne, cape;
	struct ref_slot *slot;
	size_t nslot, used;
	uint64_t remaining;
};

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
	/* word-at-a-time multiply/xor-shift mixing; the length is mixed in */
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (n * 0xff51afd7ed558ccdull);
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
		h ^= h >> 31;
	}
	uint64_t w = 0;
	memcpy(&w, p + i, n - i);
	h = (h ^ w ^ (uint64_t)(n - i) << 56) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

static struct ref_slot *ref_find(struct ref_table *t, uint64_t h, int insert)
{
	size_t mask = t->nslot - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct ref_slot *s = &t->slot[i];
		if (s->head == NONE && s->tail == NONE) {
			if (!insert)
				return NULL;
			s->hash = h;
			t->used++;
			return s;
		}
		if (s->hash == h)
			return s;
	}
}

static void ref_grow(struct ref_table *t)
{
	struct ref_slot *old = t->slot;
	size_t n = t->nslot;
	t->nslot = n ? n * 2 : 1 << 16;
	t->slot = malloc(t->nslot * sizeof(*t->slot));
	if (!t->slot)
		die(1, "out of memory for the reference table");
	for (size_t i = 0; i < t->nslot; i++)
		t->slot[i] = (struct ref_slot){ 0, NONE, NONE };
	t->used = 0;
	for (size_t i = 0; i < n; i++)
		if (!(old[i].head == NONE && old[i].tail == NONE))
			*ref_find(t, old[i].hash, 1) = old[i];
	free(old);
}

static uint64_t packet_key(const struct opts *o, const struct cap_packet *p)
{
	size_t n = p->caplen;
	if (o->match_len && n > o->match_len)
		n = o->match_len;
	return hash_bytes(p->data, n);
}

static void ref_load(struct ref_table *t, const struct opts *o, struct filter *flt,
		     const char *path)
{
	char err[512];
	struct cap_reader *r = cap_open(path, err, sizeof(err));
	if (!r)
		die(1, "%s", err);
	struct cap_packet p;
	int rc;
	ref_grow(t);
	while ((rc = cap_next(r, &p)) == 1) {
		if (!filter_pass(flt, &p))
			continue;
		if (t->ne == t->cape) {
			t->cape = t->cape ? t->cape * 2 : 1 << 16;
			if (t->cape >= NONE)
				die(1, "%s: too many packets", path);
			t->e = realloc(t->e, t->cape * sizeof(*t->e));
			if (!t->e)
				die(1, "out of memory for the reference table");
		}
		if (2 * (t->used + 1) > t->nslot)
			ref_grow(t);
		struct ref_slot *s = ref_find(t, packet_key(o, &p), 1);
		uint32_t i = (uint32_t)t->ne++;
		t->e[i] = (struct ref_entry){ p.ts_ns, NONE };
		if (s->head == NONE)
			s->head = i;
		else
			t->e[s->tail].next = i;
		s->tail = i;
		t->remaining++;
	}
	if (rc < 0)
		die(1, "%s", cap_error(r));
	cap_close(r);
}

/* Take the oldest unpaired copy of this packet from OTHER; 0 if none. */
static int ref_take(struct ref_table *t, uint64_t h, int64_t *ts)
{
	struct ref_slot *s = ref_find(t, h, 0);
	if (!s || s->head == NONE)
		return 0;
	*ts = t->e[s->head].ts;
	s->head = t->e[s->head].next;   /* tail stays: the slot keeps its hash */
	t->remaining--;
	return 1;
}

/* ---- main ---- */

static void push(struct samples *s, int64_t x)
{
	if (samples_push(s, x) < 0)
		die(1, "out of memory after %zu samples", s->n);
}

static void payload_emit(void *ctx, uint64_t seq, int64_t rx, int64_t tx, enum tx_kind k)
{
	(void)seq;
	(void)k;
	push(ctx, rx - tx);
}

static void read_pp_ref(const char *path, struct samples *s)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die(1, "--pp-ref %s: cannot open", path);
	char line[128];
	size_t ln = 0;
	while (fgets(line, sizeof(line), f)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		char *end;
		long long v = strtoll(line, &end, 10);
		if (end == line || (*end && *end != '\n'))
			die(1, "--pp-ref %s:%zu: not an integer", path, ln);
		push(s, v);
	}
	fclose(f);
	if (!s->n)
		die(1, "--pp-ref %s: no samples", path);
}

static void parse_args(int argc, char **argv, struct opts *o, const char **input)
{
	static const struct option lo[] = {
		{ "ref", required_argument, NULL, 'r' },
		{ "filter", required_argument, NULL, 'f' },
		{ "match-len", required_argument, NULL, 'm' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "unit", required_argument, NULL, 'u' },
		{ "hist", required_argument, NULL, 'H' },
		{ "bin", required_argument, NULL, 'B' },
		{ "pp", required_argument, NULL, 'P' },
		{ "pp-ref", required_argument, NULL, 'R' },
		{ "samples-out", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	int c;
	*o = (struct opts){ .unit_ns = 1000, .bin_ns = 1000 };
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'r':
			o->ref = optarg;
			o->mode = strcmp(optarg, "payload") == 0 ? MODE_REF_PAYLOAD : MODE_REF_FILE;
			break;
		case 'f': o->filter = optarg; break;
		case 'm': o->match_len = (uint32_t)parse_int("--match-len", optarg, 1, CAP_MAX_CAPLEN); break;
		case 'b':
			if (strcmp(optarg, "none") == 0)
				o->baseline = 0;
			else if (strcmp(optarg, "min") == 0)
				o->baseline = 1;
			else if (strncmp(optarg, "sliding:", 8) == 0) {
				o->baseline = 2;
				o->window = (size_t)parse_int("--baseline sliding:N", optarg + 8, 1, 1000000000);
			} else
				die(2, "--baseline: '%s' is not none, min or sliding:N", optarg);
			break;
		case 'j': o->json = 1; break;
		case 'u':
			if (strcmp(optarg, "ns") == 0)
				o->unit_ns = 1;
			else if (strcmp(optarg, "us") == 0)
				o->unit_ns = 1000;
			else
				die(2, "--unit: '%s' is not ns or us", optarg);
			break;
		case 'H': o->hist = optarg; break;
		case 'B': o->bin_ns = parse_ns("--bin", optarg); break;
		case 'P': o->pp = optarg; break;
		case 'R': o->pp_ref = optarg; break;
		case 'S': o->samples_out = optarg; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		default: die(2, "try '%s --help'", progname);
		}
	}
	if (optind != argc - 1)
		die(2, "expected one capture file (try '%s --help')", progname);
	if (o->bin_ns <= 0)
		die(2, "--bin must be positive");
	if (o->pp_ref && !o->pp)
		die(2, "--pp-ref needs --pp");
	*input = argv[optind];
}

int main(int argc, char **argv)
{
	struct opts o;
	const char *input;
	char err[512];
	progname = "tsstat";
	parse_args(argc, argv, &o, &input);

	struct filter flt = { .expr = o.filter };
	struct ref_table ref = { 0 };
	struct samples s = { 0 };
	struct summary sum = { 0 };
	struct probe_tracker *tr = NULL;
	if (o.mode == MODE_REF_FILE)
		ref_load(&ref, &o, &flt, o.ref);
	if (o.mode == MODE_REF_PAYLOAD) {
		tr = malloc(sizeof(*tr));
		if (!tr)
			die(1, "out of memory");
		probe_tracker_init(tr, payload_emit, &s);
	}

	struct cap_reader *r = cap_open(input, err, sizeof(err));
	if (!r)
		die(1, "%s", err);
	struct cap_packet p;
	int rc;
	uint64_t npkt = 0;
	int64_t prev = 0;
	while ((rc = cap_next(r, &p)) == 1) {
		if (!filter_pass(&flt, &p))
			continue;
		npkt++;
		if (o.mode == MODE_INTERARRIVAL) {
			if (npkt > 1)
				push(&s, p.ts_ns - prev);
			prev = p.ts_ns;
		} else if (o.mode == MODE_REF_FILE) {
			int64_t t0;
			if (ref_take(&ref, packet_key(&o, &p), &t0))
				push(&s, p.ts_ns - t0);
			else
				sum.unmatched++;
		} else {
			const uint8_t *pl;
			size_t pll;
			struct probe_hdr h;
			int u = udp_payload(p.linktype, p.data, p.caplen, &pl, &pll);
			if (u < 0) {
				const char *nm = pcap_datalink_val_to_name((int)p.linktype);
				die(1, "%s: packet %" PRIu64 ": link type %u (%s) cannot be parsed for "
				    "--ref payload (Ethernet, raw IP, Linux cooked, NULL/LOOP can)",
				    input, p.index, p.linktype, nm ? nm : "unknown");
			}
			if (u == 0 || probe_decode(pl, pll, &h) < 0) {
				sum.unmatched++;
				continue;
			}
			if (probe_tracker_add(tr, &h, p.ts_ns) < 0)
				die(1, "%s: packet %" PRIu64 ": probe sequence %" PRIu64 " is absurd",
				    input, p.index, h.seq);
		}
	}
	if (rc < 0)
		die(1, "%s", cap_error(r));
	if (o.mode == MODE_REF_FILE)
		sum.unmatched += ref.remaining;
	if (tr) {
		probe_tracker_flush(tr);
		sum.unmatched += tr->other_runs;
	}

	if (o.baseline == 1)
		baseline_min(&s);
	else if (o.baseline == 2 && baseline_sliding(&s, o.window) < 0)
		die(1, "out of memory");
	if (o.samples_out) {
		FILE *f = fopen(o.samples_out, "w");
		if (!f)
			die(1, "--samples-out %s: cannot create", o.samples_out);
		for (size_t i = 0; i < s.n; i++)
			fprintf(f, "%" PRId64 "\n", s.v[i]);
		if (fclose(f) != 0)
			die(1, "--samples-out %s: write error", o.samples_out);
	}
	const char *what = o.mode == MODE_INTERARRIVAL ? "inter-arrival time" :
			   o.mode == MODE_REF_FILE ? "delay vs reference capture" :
			   "one-way delay (payload send stamp)";
	if (o.hist && hist_write(o.hist, s.v, s.n, o.bin_ns, what, err, sizeof(err)) < 0)
		die(1, "%s", err);
	summarize(&s, &sum);
	if (o.pp) {
		struct samples b = { 0 };
		sort_samples(s.v, s.n);
		if (o.pp_ref) {
			read_pp_ref(o.pp_ref, &b);
			sort_samples(b.v, b.n);
		}
		if (pp_write(o.pp, s.v, s.n, o.pp_ref ? b.v : NULL, b.n, sum.mean, sqrt(sum.variance),
			     what, input, o.pp_ref ? o.pp_ref : "normal fit", err, sizeof(err)) < 0)
			die(1, "%s", err);
		samples_free(&b);
	}

	if (o.json) {
		summary_json(stdout, &sum);
		putchar('\n');
	} else {
		printf("tsstat: %s (%s), %" PRIu64 " packets", input, cap_format(r), npkt);
		if (cap_unstamped(r))
			printf(", %" PRIu64 " without stamp skipped", cap_unstamped(r));
		printf("\n");
		if (o.mode == MODE_REF_FILE)
			printf("reference: %s, %zu packets\n", o.ref, ref.ne);
		if (tr) {
			printf("probes: %" PRIu64 " received, %" PRIu64 " lost, %" PRIu64
			       " reordered, %" PRIu64 " duplicates\n", tr->received,
			       probe_tracker_lost(tr, 0), tr->reordered, tr->duplicates);
			for (int k = 0; k < TX_KINDS; k++)
				if (tr->by_kind[k])
					printf("send stamps: %" PRIu64 " x %s\n", tr->by_kind[k], tx_kind_name[k]);
		}
		if (o.baseline)
			printf("baseline: %s removed\n", o.baseline == 1 ? "minimum" : "sliding minimum");
		char title[96];
		snprintf(title, sizeof(title), "%s:", what);
		summary_table(stdout, &sum, o.unit_ns, title);
		printf("  %-10s %14" PRIu64 "\n", "unmatched", sum.unmatched);
	}
	if (fflush(stdout) != 0)
		die(1, "write error on stdout");
	cap_close(r);
	filter_free(&flt);
	samples_free(&s);
	free(ref.e);
	free(ref.slot);
	if (tr) {
		probe_tracker_free(tr);
		free(tr);
	}
	return 0;
}
