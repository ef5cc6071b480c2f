/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stamp_demo: the stamping co-simulation of `make demo` (BRIEF section 4).
 * A simulated GbE link delivers 64-byte frames with known true arrival
 * times to an e1000-like NIC on a clock-accurate PCI bus; the NIC's MSI is
 * pointed at the SynPCI-X card (the Verilated gateware), which stamps the
 * NIC's RX descriptors (sim/pcibus/stamp_rig.c sets all of it up, the same
 * rig the test suite judges). Per run it writes four nanosecond pcapng
 * files of the same packets:
 *   NAME-card.pcapng   the stamp the driver hands to the socket: the card's
 *                      stamp refined by the driver core (spx_stamp_refine:
 *                      the slot's ingress latency given with --ingress,
 *                      batched stamps raised to the previous frame + wire
 *                      time), on the true time scale: card time minus the
 *                      offset measured through the card's event input, as
 *                      a PPS-disciplined card is aligned
 *   NAME-raw.pcapng    the card's stamp as decoded, unrefined (exact and
 *                      batched), same time scale
 *   NAME-sw.pcapng     the interrupt-time software stamp: when the driver
 *                      took the descriptor, i.e. the card's MSI at the host
 *                      bridge plus an interrupt latency drawn from the
 *                      thesis's Table 5.7 (isr_latency_thesis)
 *   NAME-truth.pcapng  the true arrival (last bit on the wire) of every
 *                      packet the link delivered, dropped ones included
 * All stamps are offset by DEMO_EPOCH_S (2026-01-01T00:00:00Z) so the
 * files carry a plausible date; the simulation starts at 0.
 *
 *   stamp_demo [--out DIR] [--mhz 66|33] [--rate PPS] [--pkts N] [--name NAME]
 *              [--len BYTES] [--ingress NS,PS_PER_BYTE]
 *   stamp_demo --max-rate [--mhz 66|33] [--pkts N]
 *
 * --len: frame length without FCS (60 = 64-byte frames; up to 1514).
 * --ingress: the slot's ingress latency the driver subtracts, base ns and
 * ps per descriptor byte (sysfs slotN/ingress_latency_ns and
 * ingress_latency_ps_per_byte); default 0,0 (uncorrected). It comes from
 * a separate calibration run (stamp_demo.sh), never from the run scored.
 *
 * Exit status: 0 when every run is sound (protocol checker clean, every
 * descriptor's payload right, slot counters agree with what the driver
 * found); 1 when a run is broken; 2 on bad usage. Missing the brief's bar
 * or losing packets is a result, printed as MISS / LOSS, not an error.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stamp_rig.h"
#include "synpcix_regs.h"

#define DEMO_EPOCH_S 1767225600ull
#define LINE_RATE_PPS 1488095.0   /* 64-byte frames on GbE: 672 ns each */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* percentile p of sorted v (closest rank) */
static double pct(const double *v, size_t n, double p)
{
	if (!n)
		return 0;
	size_t k = (size_t)(p * (double)(n - 1) + 0.5);

	return v[k < n ? k : n - 1];
}

/* ---- pcapng (nanosecond) writer ----------------------------------------- */

struct pcapng {
	FILE *f;
	const char *path;
	int err;
};

static void put32(struct pcapng *p, uint32_t v)
{
	if (fwrite(&v, 4, 1, p->f) != 1)
		p->err = 1;
}

static void put16(struct pcapng *p, uint16_t v)
{
	if (fwrite(&v, 2, 1, p->f) != 1)
		p->err = 1;
}

/* section header + one Ethernet interface with if_tsresol = 10^-9 */
static int pcapng_open(struct pcapng *p, const char *path)
{
	p->path = path;
	p->err = 0;
	p->f = fopen(path, "wb");
	if (!p->f) {
		fprintf(stderr, "stamp_demo: %s: %s\n", path, strerror(errno));
		return -1;
	}
	put32(p, 0x0A0D0D0Au);   /* SHB */
	put32(p, 28);
	put32(p, 0x1A2B3C4Du);
	put16(p, 1);
	put16(p, 0);
	put32(p, 0xFFFFFFFFu);   /* section length: not given */
	put32(p, 0xFFFFFFFFu);
	put32(p, 28);
	put32(p, 1);             /* IDB */
	put32(p, 32);
	put16(p, 1);             /* LINKTYPE_ETHERNET */
	put16(p, 0);
	put32(p, 65535);
	put16(p, 9);             /* if_tsresol */
	put16(p, 1);
	put32(p, 9);             /* 10^-9, 3 bytes padding (little-endian word) */
	put32(p, 0);             /* opt_endofopt */
	put32(p, 32);
	return 0;
}

static void pcapng_packet(struct pcapng *p, uint64_t ts_ns, const uint8_t *data, uint32_t len)
{
	uint32_t pad = (4 - len % 4) % 4, blen = 32 + len + pad;
	static const uint8_t zero[4];

	put32(p, 6);             /* EPB */
	put32(p, blen);
	put32(p, 0);
	put32(p, (uint32_t)(ts_ns >> 32));
	put32(p, (uint32_t)ts_ns);
	put32(p, len);
	put32(p, len);
	if (fwrite(data, 1, len, p->f) != len || fwrite(zero, 1, pad, p->f) != pad)
		p->err = 1;
	put32(p, blen);
}

static int pcapng_close(struct pcapng *p)
{
	if (fclose(p->f) != 0)
		p->err = 1;
	if (p->err)
		fprintf(stderr, "stamp_demo: %s: write failed\n", p->path);
	return p->err ? -1 : 0;
}

/* true time (ns, simulation) -> file time */
static uint64_t file_ns(double t)
{
	return DEMO_EPOCH_S * 1000000000ull + (uint64_t)llround(t);
}

/* ---- one run -------------------------------------------------------------- */

struct run_result {
	bool broken;           /* protocol, payload or counters wrong */
	bool lossless;         /* every packet delivered with exactly one stamp */
	uint64_t sent, delivered, nic_dropped;
	struct slot_counters sc;
	double abs_p99, abs_max;   /* |refined card stamp - arrival| (scored) */
	double max_wait;           /* arrival -> descriptor write-back, ns */
};

/* A packet that waits longer than this in the NIC between its arrival and
 * its descriptor write-back sits in a growing backlog: the bus does not
 * drain the link, and a longer run would overflow the NIC's FIFO (40 KiB,
 * 682 frames, 460 us of line rate) and drop. Such a rate is not "without
 * loss" even when the trial ended before the FIFO filled. Unloaded, the
 * wait is 0.5..1.3 us (docs/stamping-results.md). */
#define MAX_NIC_WAIT_NS 20000.0

static bool g_quiet;
static uint32_t g_len = 60;   /* frame bytes without FCS */

#define say(...) do { if (!g_quiet) printf(__VA_ARGS__); } while (0)

static struct run_result run_one(double mhz, double rate, uint64_t n_pkts, const char *dir,
				 const char *name)
{
	struct run_result res;
	struct stamp_rig *rig = calloc(1, sizeof(*rig));
	bool line = rate >= LINE_RATE_PPS;
	struct stamp_run cfg = {
		.rate = rate, .n_pkts = n_pkts,
		/* e1000's default RX ring is 256; the slower rate gets 64 so
		 * the ring wraps many times in a short run */
		.ring_n = line || rate > 400000.0 ? 256 : 64,
		.bridge = &rig_fast_bridge,
		.lat_model = LAT_THESIS,
		.tx_msi_every_ns = 0,
		.seed = 1000 + (uint64_t)mhz + (uint64_t)(rate / 1000.0),
		.settle = -1,
		.pkt_len = g_len,
	};

	memset(&res, 0, sizeof(res));
	if (!rig)
		exit(2);
	pci_period_ns = mhz < 50 ? 30.0 : 15.0;
	if (stamp_rig_run(rig, &cfg)) {
		fprintf(stderr, "stamp_demo: %s: enumeration failed\n", name);
		free(rig);
		res.broken = true;
		return res;
	}
	struct world *w = &rig->w;
	struct stamp_driver *d = &rig->d;
	const struct nic_e1000 *nic = &w->nic;
	uint32_t mpc = hb_mem_read32(&w->hb, rig->nic_bar + E1000_MPC);
	struct slot_counters sc = read_slot(w);
	uint32_t gfirst, gbad = check_guard(&w->hb.mem, cfg.ring_n, &gfirst);

	res.sc = sc;
	res.sent = nic->n_rec;
	res.delivered = d->delivered;
	res.nic_dropped = mpc;

	/* sound run: what the bus and the ring show agrees with the card */
	if (w->chk.violations) {
		printf("[%s] BROKEN: protocol checker: %s\n", name, w->chk.first_msg);
		res.broken = true;
	}
	if (w->problems) {
		printf("[%s] BROKEN: set-up: %s\n", name, w->problem);
		res.broken = true;
	}
	if (d->bad) {
		printf("[%s] BROKEN: descriptor check: %s (%llu)\n", name, d->first_bad,
		       (unsigned long long)d->bad);
		res.broken = true;
	}
	if (gbad) {
		printf("[%s] BROKEN: %u guard words around the ring changed, first at %08X\n", name,
		       gbad, gfirst);
		res.broken = true;
	}
	if (sc.stamped < d->n_st || sc.batched > sc.stamped || sc.dma_errors) {
		printf("[%s] BROKEN: slot says stamped %u batched %u dma_errors %u, driver found %zu\n",
		       name, sc.stamped, sc.batched, sc.dma_errors, d->n_st);
		res.broken = true;
	}

	/* the bus: card transactions, doorbells, card MSIs */
	uint64_t card_clocks = 0, bus_busy = 0, db_pending = UINT64_MAX;
	size_t n_db = 0, n_cmsi = 0, n_lat = 0;
	double *db_to_msi = malloc((rig->mon.n + 1) * sizeof(double));

	if (!db_to_msi)
		exit(2);
	for (size_t i = 0; i < rig->mon.n; i++) {
		const struct pci_txn *t = &rig->mon.log[i];

		bus_busy += t->clk_end - t->clk + 1;
		if (t->cmd == PCI_CMD_MEM_WRITE && t->addr == rig->door && t->words > 0) {
			n_db++;
			if (db_pending == UINT64_MAX)
				db_pending = t->clk_end;
		}
		if (t->master != rig->card_agent)
			continue;
		card_clocks += t->clk_end - t->clk + 1;
		if (t->cmd == PCI_CMD_MEM_WRITE && t->addr == MSI_ADDR && t->words > 0) {
			n_cmsi++;
			if (db_pending != UINT64_MAX)
				db_to_msi[n_lat++] = (double)(t->clk_end - db_pending);
			db_pending = UINT64_MAX;
		}
	}
	if (sc.captures != n_db) {
		printf("[%s] BROKEN: captures %u, doorbell writes on the bus %zu\n", name, sc.captures,
		       n_db);
		res.broken = true;
	}

	/* latch latency: an exact stamp minus the bus edge at which the
	 * doorbell write it latched completed (the latest before it) */
	size_t n = d->n_st, n_ex = 0, n_b = 0, j = 0, n_latch = 0;
	double *latch = malloc((n + 1) * sizeof(double));
	double *err = malloc((n + 1) * sizeof(double));
	double *abserr = malloc((n + 1) * sizeof(double));
	double *rerr = malloc((n + 1) * sizeof(double));
	double *rabs = malloc((n + 1) * sizeof(double));
	double *rerr_b = malloc((n + 1) * sizeof(double));
	size_t n_rb = 0;
	double *sw = malloc((n + 1) * sizeof(double));
	uint64_t *db_clk = malloc((n_db + 1) * sizeof(uint64_t));
	size_t k = 0;

	if (!latch || !err || !abserr || !rerr || !rabs || !rerr_b || !sw || !db_clk)
		exit(2);
	for (size_t i = 0; i < rig->mon.n; i++) {
		const struct pci_txn *t = &rig->mon.log[i];

		if (t->cmd == PCI_CMD_MEM_WRITE && t->addr == rig->door && t->words > 0)
			db_clk[k++] = t->clk_end;
	}
	for (size_t i = 0; i < n; i++) {
		const struct stamp_rec *s = &d->st[i];
		double arr = nic->rec[s->seq].t_arrival_ns;

		err[i] = s->true_ns - arr;
		abserr[i] = fabs(err[i]);
		/* on the card's ns grid, as the file has it */
		rerr[i] = (double)s->refined_ns - round(d->off) - arr;
		rabs[i] = fabs(rerr[i]);
		sw[i] = s->isr_ns - arr;
		if (s->batched) {
			rerr_b[n_rb++] = rerr[i];
			n_b++;
			continue;
		}
		n_ex++;
		while (j + 1 < k && (double)(db_clk[j + 1] + 1) * PCI_PERIOD_NS <= s->true_ns)
			j++;
		if (k)
			latch[n_latch++] = s->true_ns - (double)(db_clk[j] + 1) * PCI_PERIOD_NS;
	}
	qsort(latch, n_latch, sizeof(double), cmp_double);
	qsort(err, n, sizeof(double), cmp_double);
	qsort(abserr, n, sizeof(double), cmp_double);
	qsort(rerr, n, sizeof(double), cmp_double);
	qsort(rabs, n, sizeof(double), cmp_double);
	qsort(rerr_b, n_rb, sizeof(double), cmp_double);
	qsort(sw, n, sizeof(double), cmp_double);
	qsort(db_to_msi, n_lat, sizeof(double), cmp_double);

	/* the files: every delivered packet in the card and software files,
	 * every packet the link delivered in the truth file */
	char p_card[512], p_raw[512], p_sw[512], p_truth[512];
	struct pcapng fc, fr, fs, ft;
	uint8_t buf[BUF_SIZE];
	uint32_t len = nic->pkt_len;

	if (dir) {
		snprintf(p_card, sizeof(p_card), "%s/%s-card.pcapng", dir, name);
		snprintf(p_raw, sizeof(p_raw), "%s/%s-raw.pcapng", dir, name);
		snprintf(p_sw, sizeof(p_sw), "%s/%s-sw.pcapng", dir, name);
		snprintf(p_truth, sizeof(p_truth), "%s/%s-truth.pcapng", dir, name);
		if (pcapng_open(&fc, p_card) || pcapng_open(&fr, p_raw) || pcapng_open(&fs, p_sw) ||
		    pcapng_open(&ft, p_truth))
			exit(1);
		for (size_t i = 0; i < n; i++) {
			const struct stamp_rec *s = &d->st[i];

			for (uint32_t b = 0; b < len; b++)
				buf[b] = nic_pkt_byte(s->seq, b);
			/* card time on the true scale: minus the calibrated
			 * offset, rounded once (the card's own ns grid) */
			pcapng_packet(&fc, file_ns((double)s->refined_ns - round(d->off)), buf, len);
			pcapng_packet(&fr, file_ns((double)s->card_ns - round(d->off)), buf, len);
			pcapng_packet(&fs, file_ns(s->isr_ns), buf, len);
		}
		for (size_t i = 0; i < nic->n_rec; i++) {
			for (uint32_t b = 0; b < len; b++)
				buf[b] = nic_pkt_byte(i, b);
			pcapng_packet(&ft, file_ns(nic->rec[i].t_arrival_ns), buf, len);
		}
		if (pcapng_close(&fc) | pcapng_close(&fr) | pcapng_close(&fs) | pcapng_close(&ft))
			exit(1);
	}

	/* without loss: every packet the link delivered reached the driver
	 * with exactly one stamp (the driver checks the stamp sequence, so a
	 * second stamp or a skipped one is a descriptor error), the NIC
	 * dropped none, the card counted no overflow and stamped exactly what
	 * the driver took, and no backlog built up (MAX_NIC_WAIT_NS) */
	res.lossless = !res.broken && d->bad == 0 && mpc == 0 && d->delivered == n_pkts &&
		       sc.overflow == 0 && sc.stamped == d->n_st;
	for (size_t i = 0; i < nic->n_rec; i++)
		if (!nic->rec[i].dropped && nic->rec[i].t_wb_ns - nic->rec[i].t_arrival_ns > res.max_wait)
			res.max_wait = nic->rec[i].t_wb_ns - nic->rec[i].t_arrival_ns;
	res.lossless = res.lossless && res.max_wait < MAX_NIC_WAIT_NS;
	res.abs_p99 = pct(rabs, n, 0.99);
	res.abs_max = n ? rabs[n - 1] : 0;

	double sim_s = (double)rig->run_clocks * PCI_PERIOD_NS * 1e-9, latch_mean = 0;

	for (size_t q = 0; q < n_latch; q++)
		latch_mean += latch[q] / (double)n_latch;

	say("[%s] PCI %.2f MHz, %llu frames of %u bytes, %s arrivals at %.0f pps (measured %.0f), "
	    "ring %u, %.2f ms simulated in %.1f s\n", name, 1000.0 / PCI_PERIOD_NS,
	    (unsigned long long)n_pkts, g_len + 4, line ? "back-to-back (line rate)" : "Poisson (exponential gaps above the wire time)",
	    rate, nic->n_rec > 1 ? (double)(nic->n_rec - 1) * 1e9 /
	    (nic->rec[nic->n_rec - 1].t_arrival_ns - nic->rec[0].t_arrival_ns) : 0.0,
	    cfg.ring_n, sim_s * 1e3, rig->wall_s);
	say("[%s] delivered %llu of %llu, NIC dropped (MPC) %u; stamps %zu: exact %zu, batched %zu "
	    "(fraction batched %.3f); overloads (slot overflow) %u; captures %u, empty %u, card MSIs %zu\n",
	    name, (unsigned long long)d->delivered, (unsigned long long)nic->n_rec, mpc, n, n_ex, n_b,
	    n ? (double)n_b / (double)n : 0.0, sc.overflow, sc.captures, sc.empty, n_cmsi);
	say("[%s] capture latency (exact stamp - doorbell data phase): min %.0f mean %.1f max %.0f ns "
	    "= %.2f..%.2f bus clocks; doorbell -> card MSI: p50 %.0f p99 %.0f max %.0f bus clocks\n",
	    name, n_latch ? latch[0] : 0.0, latch_mean,
	    n_latch ? latch[n_latch - 1] : 0.0, n_latch ? latch[0] / PCI_PERIOD_NS : 0.0,
	    n_latch ? latch[n_latch - 1] / PCI_PERIOD_NS : 0.0, pct(db_to_msi, n_lat, 0.5),
	    pct(db_to_msi, n_lat, 0.99), n_lat ? db_to_msi[n_lat - 1] : 0.0);
	say("[%s] bus: busy %.1f %%; card's own transactions %llu bus clocks = %.1f bus clocks per "
	    "stamped descriptor\n", name,
	    100.0 * (double)bus_busy / (double)(rig->run_clocks ? rig->run_clocks : 1),
	    (unsigned long long)card_clocks, n ? (double)card_clocks / (double)n : 0.0);
	say("[%s] raw card stamp - truth: min %.0f p50 %.0f p99 %.0f max %.0f ns\n",
	    name, n ? err[0] : 0.0, pct(err, n, 0.5), pct(err, n, 0.99), n ? err[n - 1] : 0.0);
	say("[%s] refinement (driver core): ingress latency %d ns + %d ps/byte = %d ns for %u-byte "
	    "descriptors; link %u Mb/s; batched stamps raised to previous + wire time: %llu of %zu\n",
	    name, d->ingress.base_ns, d->ingress.ps_per_byte, spx_ingress_ns(&d->ingress, g_len),
	    g_len, d->link_mbps, (unsigned long long)d->bounded, n_b);
	say("[%s] refined card stamp - truth: min %.0f p50 %.0f p99 %.0f max %.0f ns; "
	    "batched only: min %.0f p50 %.0f max %.0f ns\n",
	    name, n ? rerr[0] : 0.0, pct(rerr, n, 0.5), pct(rerr, n, 0.99), n ? rerr[n - 1] : 0.0,
	    n_rb ? rerr_b[0] : 0.0, pct(rerr_b, n_rb, 0.5), n_rb ? rerr_b[n_rb - 1] : 0.0);
	say("[%s] software (interrupt-time) stamp - truth: min %.0f p50 %.0f p99 %.0f max %.0f ns\n",
	    name, n ? sw[0] : 0.0, pct(sw, n, 0.5), pct(sw, n, 0.99), n ? sw[n - 1] : 0.0);
	say("[%s] raw card |stamp - truth| (not scored, for contrast): p99 %.0f, max %.0f ns\n",
	    name, pct(abserr, n, 0.99), n ? abserr[n - 1] : 0.0);
	say("[%s] BAR refined card |stamp - truth| p99 < 1000 ns and max < 2000 ns: %s (p99 %.0f, "
	    "max %.0f)\n", name, n && res.abs_p99 < 1000.0 && res.abs_max < 2000.0 ? "PASS" : "MISS",
	    res.abs_p99, res.abs_max);
	say("[%s] NIC wait (arrival -> descriptor write-back) max %.0f ns\n", name, res.max_wait);
	say("[%s] %s: %s\n", name, res.lossless ? "LOSSLESS" : "LOSS",
	    res.lossless ? "every packet delivered with exactly one stamp, no overflow, no backlog" :
	    "see the counts above (without loss: every packet delivered with exactly one stamp, "
	    "NIC MPC 0, slot overflow 0, NIC wait < 20 us)");
	if (dir)
		say("[%s] files: %s %s %s %s\n", name, p_card, p_raw, p_sw, p_truth);
	free(latch);
	free(err);
	free(abserr);
	free(rerr);
	free(rabs);
	free(rerr_b);
	free(sw);
	free(db_clk);
	free(db_to_msi);
	stamp_rig_free(rig);
	free(rig);
	return res;
}

/* ---- the highest lossless rate ----------------------------------------- */

static int max_rate(double mhz, uint64_t n_pkts)
{
	double lo = 50000.0, hi = LINE_RATE_PPS;
	struct run_result r;

	g_quiet = true;
	rig_quiet = true;
	printf("max-rate: PCI %.2f MHz, %llu frames of 64 bytes per trial, Poisson arrivals "
	       "(line rate: back to back); without loss = every packet delivered with exactly one "
	       "stamp, NIC MPC 0, slot overflow 0, no packet waiting in the NIC >= %.0f us (a backlog)\n",
	       mhz < 50 ? 33.33 : 66.67, (unsigned long long)n_pkts, MAX_NIC_WAIT_NS / 1000.0);
	r = run_one(mhz, hi, n_pkts, NULL, "trial");
	printf("max-rate: %.0f pps: %s (delivered %llu, NIC dropped %llu, overflow %u, batched %u of %u, "
	       "max NIC wait %.1f us)\n", hi, r.broken ? "BROKEN" : r.lossless ? "lossless" : "loss",
	       (unsigned long long)r.delivered, (unsigned long long)r.nic_dropped, r.sc.overflow,
	       r.sc.batched, r.sc.stamped, r.max_wait / 1000.0);
	if (r.broken)
		return 1;
	if (r.lossless) {
		printf("max-rate: PCI %.2f MHz: %.0f pps stamped without loss = GbE line rate for 64-byte "
		       "frames (the link, not the card, is the limit)\n", mhz < 50 ? 33.33 : 66.67, hi);
		return 0;
	}
	r = run_one(mhz, lo, n_pkts, NULL, "trial");
	if (r.broken)
		return 1;
	if (!r.lossless) {
		printf("max-rate: loss already at %.0f pps\n", lo);
		return 0;
	}
	/* bisect to 1 % of the rate */
	while (hi - lo > 0.01 * lo) {
		double mid = 0.5 * (lo + hi);

		r = run_one(mhz, mid, n_pkts, NULL, "trial");
		printf("max-rate: %.0f pps: %s (delivered %llu, NIC dropped %llu, overflow %u, "
		       "batched %u of %u, max NIC wait %.1f us)\n",
		       mid, r.broken ? "BROKEN" : r.lossless ? "lossless" : "loss",
		       (unsigned long long)r.delivered, (unsigned long long)r.nic_dropped,
		       r.sc.overflow, r.sc.batched, r.sc.stamped, r.max_wait / 1000.0);
		if (r.broken)
			return 1;
		if (r.lossless)
			lo = mid;
		else
			hi = mid;
	}
	printf("max-rate: PCI %.2f MHz: highest rate stamped without loss %.0f pps "
	       "(loss at %.0f pps)\n", mhz < 50 ? 33.33 : 66.67, lo, hi);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: stamp_demo [--out DIR] [--mhz 66|33] [--rate PPS] [--pkts N] [--name NAME]\n"
		"                  [--len BYTES] [--ingress NS,PS_PER_BYTE]\n"
		"       stamp_demo --max-rate [--mhz 66|33] [--pkts N]\n");
	exit(2);
}

static double num(const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	if (!s)
		usage();
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		fprintf(stderr, "stamp_demo: %s '%s': not a number in %g..%g\n", opt, s, lo, hi);
		exit(2);
	}
	return v;
}

/* NS,PS_PER_BYTE: two integers in the driver's limits (spx_ingress_check) */
static void parse_ingress(const char *s)
{
	char *end, *end2;
	long a, b;

	if (!s)
		usage();
	errno = 0;
	a = strtol(s, &end, 10);
	if (errno || end == s || *end != ',') {
		fprintf(stderr, "stamp_demo: --ingress '%s': want NS,PS_PER_BYTE\n", s);
		exit(2);
	}
	b = strtol(end + 1, &end2, 10);
	if (errno || end2 == end + 1 || *end2) {
		fprintf(stderr, "stamp_demo: --ingress '%s': want NS,PS_PER_BYTE\n", s);
		exit(2);
	}
	if (a < -SPX_INGRESS_BASE_MAX_NS || a > SPX_INGRESS_BASE_MAX_NS ||
	    b < -SPX_INGRESS_PS_PER_BYTE_MAX || b > SPX_INGRESS_PS_PER_BYTE_MAX) {
		fprintf(stderr, "stamp_demo: --ingress '%s': outside %d..%d ns, %d..%d ps/byte\n", s,
			-SPX_INGRESS_BASE_MAX_NS, SPX_INGRESS_BASE_MAX_NS,
			-SPX_INGRESS_PS_PER_BYTE_MAX, SPX_INGRESS_PS_PER_BYTE_MAX);
		exit(2);
	}
	rig_ingress.base_ns = (s32)a;
	rig_ingress.ps_per_byte = (s32)b;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *name = NULL;
	double mhz = 66, rate = 100000;
	uint64_t n_pkts = 0;
	bool sweep = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--out"))
			dir = i + 1 < argc ? argv[++i] : (usage(), NULL);
		else if (!strcmp(argv[i], "--name"))
			name = i + 1 < argc ? argv[++i] : (usage(), NULL);
		else if (!strcmp(argv[i], "--mhz"))
			mhz = num("--mhz", i + 1 < argc ? argv[++i] : NULL, 33, 66);
		else if (!strcmp(argv[i], "--rate"))
			rate = num("--rate", i + 1 < argc ? argv[++i] : NULL, 1000, LINE_RATE_PPS);
		else if (!strcmp(argv[i], "--pkts"))
			n_pkts = (uint64_t)num("--pkts", i + 1 < argc ? argv[++i] : NULL, 10, 1e7);
		else if (!strcmp(argv[i], "--len"))
			g_len = (uint32_t)num("--len", i + 1 < argc ? argv[++i] : NULL, 60, 1514);
		else if (!strcmp(argv[i], "--ingress"))
			parse_ingress(i + 1 < argc ? argv[++i] : NULL);
		else if (!strcmp(argv[i], "--max-rate"))
			sweep = true;
		else
			usage();
	}
	if (mhz != 33 && mhz != 66) {
		fprintf(stderr, "stamp_demo: --mhz is 33 or 66\n");
		return 2;
	}
	if (sweep)
		return max_rate(mhz, n_pkts ? n_pkts : 4000);
	if (!dir)
		usage();
	/* before minutes of simulation, not after */
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "stamp_demo: --out %s: not a directory\n", dir);
		return 1;
	}
	char nm[64];

	if (!name) {
		snprintf(nm, sizeof(nm), "pci%.0f-%.0fk", mhz, rate / 1000.0);
		name = nm;
	}
	struct run_result r = run_one(mhz, rate, n_pkts ? n_pkts : 5000, dir, name);

	return r.broken ? 1 : 0;
}
