// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqlat: interrupt-to-stamp latency of received packets, measured in the
 * kernel with BPF (libbpf, CO-RE). This is the error that software packet
 * stamps carry and that the SynPCI-X card removes.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "irqlat.h"
#include "irqlat.skel.h"
#include "lib/stats.h"
#include "lib/util.h"

static const char usage_text[] =
"NAME\n"
"    irqlat - per-packet interrupt and stamping latency, measured by BPF\n"
"\n"
"SYNOPSIS\n"
"    irqlat -i IFACE [options]\n"
"\n"
"DESCRIPTION\n"
"    For every packet received on IFACE (in irqlat's network namespace),\n"
"    BPF programs on kernel tracepoints measure in the kernel:\n"
"      hw -> sw stamp          NIC hardware stamp to the kernel's software\n"
"                              stamp (only for packets with a hardware stamp;\n"
"                              the PHC must follow CLOCK_REALTIME)\n"
"      int -> sw stamp         interrupt entry to the software stamp\n"
"      int -> stack            interrupt entry to netif_receive_skb\n"
"      int -> delivery         interrupt entry to the reader taking the\n"
"                              packet: the first of the copy tracepoint\n"
"                              (skb_copy_datagram_iovec), consume_skb and,\n"
"                              for UDP, fentry on skb_consume_udp, which\n"
"                              every datagram read by recvmsg passes\n"
"      sw stamp -> delivery    software stamp to the same point\n"
"    'int' is the entry of the NIC's hard interrupt (--irq) or, without\n"
"    --irq, of the NET_RX softirq that processed the packet on that CPU;\n"
"    with NAPI a batch shares one interrupt, so later packets of a batch show\n"
"    longer latency, as in the thesis. Software stamps exist only while some\n"
"    socket asks for them; irqlat keeps one open that does.\n"
"\n"
"    Histograms live in the kernel (log-linear buckets, at most 1/16 of the\n"
"    value wide); at the end (or every --interval) each stage is printed as\n"
"    the thesis table. samples, min and max are exact; mean, moments and\n"
"    percentiles come from bucket midpoints (within 3 %%). 'negative' counts\n"
"    samples where the later event was stamped earlier (veth stamps in\n"
"    netif_rx, before the softirq starts).\n"
"\n"
"OPTIONS\n"
"    -i, --interface IF   interface to watch (required)\n"
"    --irq N              hard IRQ number of the NIC's receive interrupt\n"
"    --irq-name NAME      find that IRQ in /proc/interrupts by name (eth1)\n"
"    -d, --duration DUR   run for DUR (default: until Ctrl-C)\n"
"    --interval DUR       print the tables every DUR as well\n"
"    --unit ns|us         unit of the tables (default us)\n"
"    --json               one JSON object per stage with the tsstat keys\n"
"    -h, --help           this text\n"
"\n"
"REQUIREMENTS\n"
"    Root (CAP_BPF and CAP_PERFMON), a kernel with BTF (CONFIG_DEBUG_INFO_BTF)\n"
"    and BPF tracepoints; fentry (BPF trampolines) for the UDP delivery\n"
"    hook, left out (and said so on stderr) where the kernel lacks\n"
"    skb_consume_udp or refuses the fentry. No kprobes.\n"
"\n"
"EXIT STATUS\n"
"    0 success, 1 cannot load or attach, 2 bad usage.\n";

static const char *const stage_name[ST_N] = {
	[ST_HW_SW] = "hw -> sw stamp",
	[ST_INT_SW] = "int -> sw stamp",
	[ST_INT_STACK] = "int -> stack",
	[ST_INT_DELIVER] = "int -> delivery",
	[ST_SW_DELIVER] = "sw stamp -> delivery",
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* Midpoint in ns of bucket i of one half (see irqlat.h). */
static double bucket_mid(unsigned i)
{
	if (i < IRQLAT_SUB)
		return i;
	unsigned e = 4 + (i - IRQLAT_SUB) / IRQLAT_SUB, sub = (i - IRQLAT_SUB) % IRQLAT_SUB;
	double lo = ldexp(IRQLAT_SUB + sub, (int)e - 4);
	return lo + ldexp(1, (int)e - 4) / 2;
}

struct wpoint { double v; uint64_t n; };

static int cmp_wp(const void *a, const void *b)
{
	double x = ((const struct wpoint *)a)->v, y = ((const struct wpoint *)b)->v;
	return (x > y) - (x < y);
}

/* value of the k-th (0-based) of the sorted expanded samples */
static double kth(const struct wpoint *w, int n, uint64_t k)
{
	for (int i = 0; i < n; i++) {
		if (k < w[i].n)
			return w[i].v;
		k -= w[i].n;
	}
	return w[n - 1].v;
}

/* The thesis table from one stage's histogram (see usage_text). */
static void summarize_hist(const uint64_t *h, const struct irqlat_stat *st, struct summary *s)
{
	static struct wpoint w[IRQLAT_NB];
	int n = 0;
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < IRQLAT_NB; i++) {
		if (!h[i])
			continue;
		double m = bucket_mid(i % IRQLAT_HALF);
		w[n++] = (struct wpoint){ i >= IRQLAT_HALF ? -m : m, h[i] };
	}
	uint64_t cnt = 0;
	for (int i = 0; i < n; i++)
		cnt += w[i].n;
	s->n = cnt;
	if (!cnt) {
		s->mean = s->variance = s->skewness = s->kurtosis = NAN;
		s->p25 = s->p50 = s->p75 = s->p99 = NAN;
		return;
	}
	qsort(w, (size_t)n, sizeof(*w), cmp_wp);
	long double sum = 0, m2 = 0, m3 = 0, m4 = 0;
	for (int i = 0; i < n; i++)
		sum += (long double)w[i].v * w[i].n;
	long double mean = sum / cnt;
	for (int i = 0; i < n; i++) {
		long double d = w[i].v - mean;
		m2 += d * d * w[i].n;
		m3 += d * d * d * w[i].n;
		m4 += d * d * d * d * w[i].n;
	}
	s->mean = (double)mean;
	s->variance = cnt > 1 ? (double)(m2 / (cnt - 1)) : 0;
	m2 /= cnt;
	m3 /= cnt;
	m4 /= cnt;
	s->skewness = m2 > 0 ? (double)(m3 / powl(m2, 1.5L)) : NAN;
	s->kurtosis = m2 > 0 ? (double)(m4 / (m2 * m2)) : NAN;
	double *dst[4] = { &s->p25, &s->p50, &s->p75, &s->p99 };
	static const double ps[4] = { 0.25, 0.5, 0.75, 0.99 };
	for (int j = 0; j < 4; j++) {
		double hh = (double)(cnt - 1) * ps[j];
		uint64_t lo = (uint64_t)hh;
		double a = kth(w, n, lo), b = lo + 1 < cnt ? kth(w, n, lo + 1) : a;
		*dst[j] = a + (hh - (double)lo) * (b - a);
	}
	s->min = st->min;       /* exact, from the kernel */
	s->max = st->max;
}

static int64_t mono_to_real(void)
{
	/* the pair with the shortest read window bounds the error best */
	int64_t best = 0, bestw = INT64_MAX;
	for (int i = 0; i < 20; i++) {
		struct timespec a, r, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		clock_gettime(CLOCK_REALTIME, &r);
		clock_gettime(CLOCK_MONOTONIC, &b);
		int64_t an = a.tv_sec * 1000000000ll + a.tv_nsec, bn = b.tv_sec * 1000000000ll + b.tv_nsec;
		if (bn - an < bestw) {
			bestw = bn - an;
			best = r.tv_sec * 1000000000ll + r.tv_nsec - (an + bn) / 2;
		}
	}
	return best;
}

static int irq_by_name(const char *name)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[1024];
	if (!f)
		die(1, "/proc/interrupts: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char *end;
		long irq = strtol(line, &end, 10);
		if (end != line && *end == ':' && strstr(end, name)) {
			fclose(f);
			return (int)irq;
		}
	}
	fclose(f);
	die(1, "--irq-name %s: no such interrupt in /proc/interrupts", name);
}

static void print_tables(struct irqlat_bpf *skel, int ncpu, int unit_ns, int json, int use_irq)
{
	uint64_t *vals = calloc((size_t)ncpu, sizeof(uint64_t));
	struct irqlat_stat *sv = calloc((size_t)ncpu, sizeof(*sv));
	static uint64_t h[IRQLAT_NB];
	if (!vals || !sv)
		die(1, "out of memory");
	int hfd = bpf_map__fd(skel->maps.hist), sfd = bpf_map__fd(skel->maps.stats);
	for (uint32_t st = 0; st < ST_N; st++) {
		struct irqlat_stat tot = { 0 };
		for (uint32_t i = 0; i < IRQLAT_NB; i++) {
			uint32_t key = st * IRQLAT_NB + i;
			h[i] = 0;
			if (bpf_map_lookup_elem(hfd, &key, vals) == 0)
				for (int c = 0; c < ncpu; c++)
					h[i] += vals[c];
		}
		if (bpf_map_lookup_elem(sfd, &st, sv) == 0) {
			for (int c = 0; c < ncpu; c++) {
				if (!sv[c].count)
					continue;
				if (!tot.count || sv[c].min < tot.min)
					tot.min = sv[c].min;
				if (!tot.count || sv[c].max > tot.max)
					tot.max = sv[c].max;
				tot.count += sv[c].count;
				tot.negative += sv[c].negative;
			}
		}
		struct summary s;
		summarize_hist(h, &tot, &s);
		char title[128];
		snprintf(title, sizeof(title), "%s%s:", stage_name[st],
			 st != ST_HW_SW && st != ST_SW_DELIVER ? (use_irq ? " (hard irq)" : " (NET_RX softirq)") : "");
		if (json) {
			printf("{\"stage\": \"%s\", \"negative\": %llu, \"stats\": ", stage_name[st], tot.negative);
			summary_json(stdout, &s);
			printf("}\n");
		} else if (s.n) {
			summary_table(stdout, &s, unit_ns, title);
			printf("  %-10s %14llu\n", "negative", tot.negative);
		} else {
			printf("%s no samples\n", title);
		}
	}
	fflush(stdout);
	free(vals);
	free(sv);
}

static int libbpf_quiet(enum libbpf_print_level lvl, const char *fmt, va_list ap)
{
	if (lvl == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "interface", required_argument, NULL, 'i' }, { "irq", required_argument, NULL, 'q' },
		{ "irq-name", required_argument, NULL, 'Q' }, { "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'I' }, { "unit", required_argument, NULL, 'u' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { 0 }
	};
	const char *ifname = NULL;
	int irq = -1, json = 0, unit_ns = 1000, c;
	int64_t duration = 0, interval = 0;
	progname = "irqlat";
	while ((c = getopt_long(argc, argv, "i:d:h", lo, NULL)) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'q': irq = (int)parse_int("--irq", optarg, 0, 1 << 20); break;
		case 'Q': irq = irq_by_name(optarg); break;
		case 'd': duration = parse_ns("--duration", optarg); break;
		case 'I': interval = parse_ns("--interval", optarg); break;
		case 'u':
			if (strcmp(optarg, "ns") && strcmp(optarg, "us"))
				die(2, "--unit: '%s' is not ns or us", optarg);
			unit_ns = strcmp(optarg, "ns") == 0 ? 1 : 1000;
			break;
		case 'j': json = 1; break;
		case 'h': fputs(usage_text, stdout); return 0;
		default: die(2, "try 'irqlat --help'");
		}
	}
	if (!ifname || optind != argc)
		die(2, "need -i IFACE and nothing else (try 'irqlat --help')");
	unsigned ifindex = if_nametoindex(ifname);
	if (!ifindex)
		die(1, "%s: no such interface in this network namespace", ifname);
	struct stat nsst;
	if (stat("/proc/self/ns/net", &nsst) < 0)
		die(1, "/proc/self/ns/net: %s", strerror(errno));
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0)
		die(1, "this kernel has no BTF (/sys/kernel/btf/vmlinux): irqlat needs CONFIG_DEBUG_INFO_BTF");

	libbpf_set_print(libbpf_quiet);
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	setrlimit(RLIMIT_MEMLOCK, &rl);         /* kernels before 5.11 charge maps here */
	/*
	 * fentry/skb_consume_udp (UDP delivery) needs the function in the
	 * kernel's BTF and BPF trampolines; where either is missing or the
	 * kernel refuses it, irqlat loads again without it.
	 */
	int udp_hook = 0;
	struct btf *vbtf = btf__load_vmlinux_btf();
	if (vbtf) {
		udp_hook = btf__find_by_name_kind(vbtf, "skb_consume_udp", BTF_KIND_FUNC) > 0;
		btf__free(vbtf);
	}
	struct irqlat_bpf *skel = NULL;
	const char *udp_why = udp_hook ? NULL : "no skb_consume_udp in the kernel's BTF";
	for (;;) {
		skel = irqlat_bpf__open();
		if (!skel)
			die(1, "cannot open the BPF object: %s", strerror(errno));
		skel->rodata->target_ifindex = (int)ifindex;
		skel->rodata->target_netns = (unsigned)nsst.st_ino;
		skel->rodata->target_irq = irq;
		skel->rodata->mono_to_real = mono_to_real();
		if (!udp_hook)
			bpf_program__set_autoload(skel->progs.on_udp_consume, false);
		if (udp_hook)
			libbpf_set_print(NULL);         /* a refused fentry is not an error */
		int err = irqlat_bpf__load(skel);
		if (!err)
			err = irqlat_bpf__attach(skel);
		libbpf_set_print(libbpf_quiet);
		if (!err)
			break;
		irqlat_bpf__destroy(skel);
		if (!udp_hook)
			die(1, "cannot load or attach the BPF programs (%s): root, BTF and BPF tracepoints are needed",
			    strerror(-err));
		udp_hook = 0;
		udp_why = err == -EPERM ? "fentry refused by the kernel (EPERM)" : "fentry failed to load or attach";
	}
	/* software RX stamps are taken only while a socket asks for them */
	int tsock = socket(AF_INET, SOCK_DGRAM, 0), on = 1;
	if (tsock < 0 || setsockopt(tsock, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on)) < 0)
		warnmsg("cannot enable software stamps: 'sw' stages may stay empty");
	int ncpu = libbpf_num_possible_cpus();
	if (ncpu <= 0)
		die(1, "cannot count CPUs");
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	fprintf(stderr, "irqlat: watching %s (ifindex %u), interrupt: %s%s\n", ifname, ifindex,
		irq >= 0 ? "hard irq " : "NET_RX softirq", irq >= 0 ? "" : "");
	if (irq >= 0)
		fprintf(stderr, "irqlat: irq %d\n", irq);
	fprintf(stderr, "irqlat: delivery hooks: skb_copy_datagram_iovec, consume_skb%s%s%s\n",
		udp_hook ? ", skb_consume_udp (every UDP datagram)" : " (no UDP hook: ",
		udp_hook ? "" : udp_why, udp_hook ? "" : ")");
	int64_t start = monotonic_ns(), next = start + interval;
	while (!stop && (duration <= 0 || monotonic_ns() - start < duration)) {
		usleep(20000);
		if (interval > 0 && monotonic_ns() >= next) {
			print_tables(skel, ncpu, unit_ns, json, irq >= 0);
			next += interval;
		}
	}
	print_tables(skel, ncpu, unit_ns, json, irq >= 0);
	if (tsock >= 0)
		close(tsock);
	irqlat_bpf__destroy(skel);
	return 0;
}
