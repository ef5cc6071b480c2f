/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The card and an e1000-like NIC on a simulated PCI bus (sim/pcibus/),
 * with the protocol checker on every clock. One test per invocation:
 *   pcibus_tests --list        names, one a line
 *   pcibus_tests NAME          runs it; last line "NAME: PASS" or FAIL lines
 * Every test fails on any checker violation.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pci_bus.h"
#include "pci_arbiter.h"
#include "pci_checker.h"
#include "pci_monitor.h"
#include "host_bridge.h"
#include "enumerate.h"
#include "nic_e1000.h"
#include "card_agent.h"
#include "stamp_rig.h"
#include "synpcix_regs.h"
#include "synpcix_pci_ids.h"

static int failures;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void check(int ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return;
	failures++;
	printf("FAIL ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ---- the world: sim/pcibus/stamp_rig.h (bridge agent 0, card, NIC) ---- */

static void checker_verdict(struct world *w)
{
	pci_checker_report(&w->chk, stdout);
	check(w->chk.violations == 0, "protocol checker: %s", w->chk.first_msg);
}

/* ---- the e1000 driver's receive path, as a per-clock software model ------ */

struct icr_rec {
	uint64_t clk;
	uint32_t val;
};

/* where the driver learns of the NIC's MSIs: count and clock of each */
struct msi_source {
	size_t (*n)(void *src);
	uint64_t (*at)(void *src, size_t i);
	void *src;
};

static size_t bridge_msi_n(void *src)
{
	return ((struct host_bridge *)src)->n_msi;
}

static uint64_t bridge_msi_at(void *src, size_t i)
{
	return ((struct host_bridge *)src)->msi[i].clk;
}

struct rx_driver {
	struct world *w;
	struct msi_source ms;
	uint32_t bar, ring_n, next;
	double latency_ns;     /* MSI arrival -> ISR reads ICR (plus random 0..jitter) */
	double jitter_ns;
	struct pci_rng rng;
	size_t msi_seen;
	int state;
	double t_due;
	uint64_t ticket;
	struct icr_rec *icr;
	size_t n_icr, cap_icr;
	uint64_t delivered, bad;
	char first_bad[200];
};

static void rxd_desc_init(struct rx_driver *d, uint32_t i)
{
	struct host_mem *m = &d->w->hb.mem;
	uint32_t a = RING_BASE + 16 * i;

	host_mem_write32(m, a, BUF_BASE + BUF_SIZE * i, 0);
	host_mem_write32(m, a + 4, 0, 0);
	host_mem_write32(m, a + 8, 0, 0);
	host_mem_write32(m, a + 12, 0, 0);
}

static void rxd_bad(struct rx_driver *d, const char *fmt, ...)
{
	va_list ap;

	if (d->bad++ == 0) {
		va_start(ap, fmt);
		vsnprintf(d->first_bad, sizeof(d->first_bad), fmt, ap);
		va_end(ap);
	}
}

/* the ISR's ring scan: every descriptor with DD, checked against the
 * generator's packet (no drops expected: packet k is sequence k) */
static void rxd_clean(struct rx_driver *d)
{
	struct host_mem *m = &d->w->hb.mem;
	uint32_t len = d->w->nic.pkt_len;
	uint8_t buf[BUF_SIZE];

	for (;;) {
		uint32_t a = RING_BASE + 16 * d->next;
		uint32_t w2 = host_mem_read32(m, a + 8), w3 = host_mem_read32(m, a + 12);

		if (!(w3 & E1000_RXD_STAT_DD))
			break;
		uint64_t seq = d->delivered;

		if ((w2 & 0xFFFF) != len)
			rxd_bad(d, "desc %u: length %u, packet had %u", d->next, w2 & 0xFFFF, len);
		if ((w3 & 0xFF) != (E1000_RXD_STAT_DD | E1000_RXD_STAT_EOP) || (w3 >> 8))
			rxd_bad(d, "desc %u: status/errors/special %08X", d->next, w3);
		host_mem_read(m, BUF_BASE + BUF_SIZE * d->next, buf, len);
		for (uint32_t i = 0; i < len; i++)
			if (buf[i] != nic_pkt_byte(seq, i)) {
				rxd_bad(d, "desc %u (packet %llu): byte %u is %02X, want %02X", d->next,
					(unsigned long long)seq, i, buf[i], nic_pkt_byte(seq, i));
				break;
			}
		if (seq < d->w->nic.n_rec && d->w->nic.rec[seq].desc != d->next)
			rxd_bad(d, "packet %llu: NIC says desc %u, found in %u", (unsigned long long)seq,
				d->w->nic.rec[seq].desc, d->next);
		rxd_desc_init(d, d->next);
		d->delivered++;
		d->next = (d->next + 1) % d->ring_n;
	}
	/* give the cleaned descriptors back; one stays empty (RDT = next - 1) */
	hb_submit(&d->w->hb, PCI_CMD_MEM_WRITE, d->bar + E1000_RDT, 0,
		  (d->next + d->ring_n - 1) % d->ring_n);
}

static void rxd_hook(void *ctx, uint64_t clk)
{
	struct rx_driver *d = ctx;
	struct host_bridge *hb = &d->w->hb;
	double now = (double)clk * PCI_PERIOD_NS;

	size_t n_msi = d->ms.n(d->ms.src);

	if (d->state == 0 && n_msi > d->msi_seen) {
		d->msi_seen = n_msi;
		d->t_due = now + d->latency_ns + d->jitter_ns * pci_rng_unit(&d->rng);
		d->state = 1;
	}
	if (d->state == 1 && now >= d->t_due && !hb_queue_full(hb)) {
		d->ticket = hb_submit(hb, PCI_CMD_MEM_READ, d->bar + E1000_ICR, 0, 0);
		d->state = 2;
	}
	if (d->state == 2 && hb_done(hb, d->ticket)) {
		const struct hb_op *op = hb_op_get(hb, d->ticket);

		if (d->n_icr == d->cap_icr) {
			d->cap_icr = d->cap_icr ? 2 * d->cap_icr : 1024;
			d->icr = realloc(d->icr, d->cap_icr * sizeof(*d->icr));
			if (!d->icr)
				exit(2);
		}
		d->icr[d->n_icr++] = (struct icr_rec){ op->clk_done, op->data };
		rxd_clean(d);
		d->state = 0;
	}
}

static void rxd_setup(struct rx_driver *d, struct world *w, uint32_t ring_n, double latency_ns,
		      double jitter_ns, uint64_t seed)
{
	struct host_bridge *hb = &w->hb;

	memset(d, 0, sizeof(*d));
	d->w = w;
	d->ms = (struct msi_source){ bridge_msi_n, bridge_msi_at, hb };
	d->bar = w->nic_dev->bar[0].addr;
	d->ring_n = ring_n;
	d->latency_ns = latency_ns;
	d->jitter_ns = jitter_ns;
	pci_rng_seed(&d->rng, seed);
	for (uint32_t i = 0; i < ring_n; i++)
		rxd_desc_init(d, i);
	/* e1000_configure_rx order: ring, head/tail, then enable; IMS last */
	hb_mem_write32(hb, d->bar + E1000_RDBAL, RING_BASE);
	hb_mem_write32(hb, d->bar + E1000_RDBAH, 0);
	hb_mem_write32(hb, d->bar + E1000_RDLEN, ring_n * 16);
	hb_mem_write32(hb, d->bar + E1000_RDH, 0);
	hb_mem_write32(hb, d->bar + E1000_RDT, ring_n - 1);
	hb_mem_write32(hb, d->bar + E1000_RDTR, 0);
	hb_mem_write32(hb, d->bar + E1000_RCTL, E1000_RCTL_EN);
	hb_mem_write32(hb, d->bar + E1000_IMS, E1000_ICR_RXT0);
	pci_sim_add_hook(&w->sim, rxd_hook, d);
}

/*
 * The 8254x MSI rules, judged from what the bus shows:
 *  - none while ICR is set: between two MSIs the host read ICR with a
 *    nonzero value (the NIC only sends on a rising edge of ICR & IMS);
 *  - one per rising edge: replaying the bus order of descriptor
 *    write-backs (each sets ICR.RXT0) and ICR reads (each clears it), a
 *    write-back finding ICR clear is a rising edge; MSIs must equal them.
 */
static void check_msi_rules(struct rx_driver *d)
{
	struct world *w = d->w;
	size_t n_msi = d->ms.n(d->ms.src), j = 0, r = 0;
	uint64_t edges = 0;
	bool icr_set = false;

	for (size_t i = 1; i < n_msi; i++) {
		uint64_t m0 = d->ms.at(d->ms.src, i - 1), m1 = d->ms.at(d->ms.src, i);
		bool cleared = false;

		while (j < d->n_icr && d->icr[j].clk < m0)
			j++;
		for (size_t k = j; k < d->n_icr && d->icr[k].clk < m1; k++)
			if (d->icr[k].val)
				cleared = true;
		check(cleared, "MSI %zu (clock %llu) came while ICR was still set", i,
		      (unsigned long long)m1);
		if (!cleared)
			break;
	}
	for (size_t p = 0; p < w->nic.n_rec; p++) {
		const struct nic_pkt_rec *pr = &w->nic.rec[p];

		if (pr->dropped || pr->t_wb_ns == 0)
			continue;
		uint64_t wb_clk = (uint64_t)(pr->t_wb_ns / PCI_PERIOD_NS + 0.5);

		while (r < d->n_icr && d->icr[r].clk < wb_clk) {
			icr_set = false;
			r++;
		}
		if (!icr_set)
			edges++;
		icr_set = true;
	}
	check(n_msi == edges, "%zu MSIs for %llu rising edges of ICR & IMS", n_msi,
	      (unsigned long long)edges);
	printf("MSIs %zu, rising edges %llu, ICR reads %zu\n", n_msi,
	       (unsigned long long)edges, d->n_icr);
}

static void check_bridge_msis(struct world *w)
{
	struct host_bridge *hb = &w->hb;

	for (size_t i = 0; i < hb->n_msi; i++)
		if (hb->msi[i].addr != MSI_ADDR || hb->msi[i].data != 0x41) {
			check(0, "MSI %zu: %08X <- %08X, programmed %08X <- 0x41", i, hb->msi[i].addr,
			      hb->msi[i].data, MSI_ADDR);
			break;
		}
}

/* Arrival times: increasing, at least a wire time apart, mean rate right. */
static void check_arrivals(struct world *w, double rate)
{
	const struct nic_e1000 *n = &w->nic;
	double wire = nic_wire_ns(n->pkt_len), lat_sum = 0, lat_max = 0;

	for (size_t i = 1; i < n->n_rec; i++)
		if (n->rec[i].t_arrival_ns - n->rec[i - 1].t_arrival_ns < wire - 1e-6) {
			check(0, "packets %zu and %zu closer than the wire time", i - 1, i);
			break;
		}
	if (n->n_rec > 1) {
		double span = n->rec[n->n_rec - 1].t_arrival_ns - n->rec[0].t_arrival_ns;
		double got = (double)(n->n_rec - 1) / span * 1e9;

		printf("arrivals: %zu packets, mean rate %.0f pps (asked %.0f)\n", n->n_rec, got, rate);
		check(got > 0.9 * rate && got < 1.1 * rate, "mean arrival rate %.0f pps, asked %.0f",
		      got, rate);
	}
	for (size_t i = 0; i < n->n_rec; i++) {
		double l = n->rec[i].t_wb_ns - n->rec[i].t_arrival_ns;

		if (n->rec[i].t_wb_ns == 0 || l <= 0) {
			check(0, "packet %zu: no write-back after its arrival", i);
			break;
		}
		lat_sum += l;
		if (l > lat_max)
			lat_max = l;
	}
	if (n->n_rec)
		printf("arrival -> descriptor written back: mean %.0f ns, max %.0f ns\n",
		       lat_sum / (double)n->n_rec, lat_max);
}

/* Run NIC traffic to completion with the driver model; returns clocks. */
static uint64_t run_traffic(struct world *w, struct rx_driver *d, double rate, uint32_t len,
			    uint64_t n_pkts)
{
	uint64_t c0 = w->sim.clk;
	uint64_t limit = (uint64_t)((double)n_pkts / rate * 1e9 / PCI_PERIOD_NS) * 2 + 200000;

	nic_e1000_traffic(&w->nic, rate, len, n_pkts, pci_sim_ns(&w->sim) + 1000.0);
	while (d->delivered < n_pkts && w->sim.clk - c0 < limit && w->chk.violations == 0)
		pci_sim_step(&w->sim);
	hb_run(&w->hb, 2000);   /* let the last MSI and ICR read land */
	return w->sim.clk - c0;
}

static void traffic_verdict(struct world *w, struct rx_driver *d, uint64_t n_pkts, double rate)
{
	uint32_t mpc = hb_mem_read32(&w->hb, d->bar + E1000_MPC);

	printf("delivered %llu of %llu, MPC %u, descriptor errors %llu\n",
	       (unsigned long long)d->delivered, (unsigned long long)n_pkts, mpc,
	       (unsigned long long)d->bad);
	check(d->delivered == n_pkts, "delivered %llu of %llu packets",
	      (unsigned long long)d->delivered, (unsigned long long)n_pkts);
	check(mpc == 0, "NIC missed %u packets (FIFO full)", mpc);
	check(d->bad == 0, "descriptor check: %s", d->first_bad);
	check_arrivals(w, rate);
	check_msi_rules(d);
	if (d->ms.src == &w->hb)
		check_bridge_msis(w);
	free(d->icr);
}

/* ---- tests ------------------------------------------------------------- */

static void t_enumerate(void)
{
	struct world w;

	world_init(&w, true, true, &rig_quiet_bridge, 1);
	world_enumerate(&w);
	check(w.n_devs == 2, "found %d devices, want 2 (card, NIC)", w.n_devs);
	check(w.chk.master_aborts >= 14, "empty slots: %llu master aborts, want >= 14",
	      (unsigned long long)w.chk.master_aborts);
	if (!w.card_dev || !w.nic_dev) {
		check(0, "card or NIC not found");
		world_free(&w);
		return;
	}
	struct pci_dev_info *c = w.card_dev, *n = w.nic_dev;

	printf("card: %04x:%04x class %06x BAR0 %08x size %u, caps %d (MSI at %02x)\n",
	       c->vendor, c->device, c->class_rev >> 8, c->bar[0].addr, c->bar[0].size,
	       c->n_caps, c->msi_pos);
	printf("nic:  %04x:%04x class %06x BAR0 %08x size %u%s, caps %d (MSI at %02x)\n",
	       n->vendor, n->device, n->class_rev >> 8, n->bar[0].addr, n->bar[0].size,
	       n->bar[0].is_64 ? " 64-bit" : "", n->n_caps, n->msi_pos);
	check(c->vendor == SYNPCIX_PCI_VENDOR_ID && c->device == SYNPCIX_PCI_DEVICE_ID,
	      "card IDs %04x:%04x", c->vendor, c->device);
	check(c->subvendor == SYNPCIX_PCI_SUBVENDOR_ID && c->subdevice == SYNPCIX_PCI_SUBDEVICE_ID,
	      "card subsystem %04x:%04x", c->subvendor, c->subdevice);
	check((c->class_rev >> 8) == SYNPCIX_PCI_CLASS, "card class %06x", c->class_rev >> 8);
	check(c->header == 0, "card header type %02x", c->header);
	check(c->bar[0].size == 4096 && !c->bar[0].is_io && !c->bar[0].is_64,
	      "card BAR0 size %u io %d 64 %d", c->bar[0].size, c->bar[0].is_io, c->bar[0].is_64);
	for (int i = 1; i < 6; i++)
		check(c->bar[i].size == 0, "card BAR%d size %u, want none", i, c->bar[i].size);
	check(c->n_caps == 1 && c->cap_id[0] == 0x05 && c->msi_pos == 0x40,
	      "card capabilities: %d, first %02x at %02x", c->n_caps, c->cap_id[0], c->cap_pos[0]);
	check(n->vendor == NIC_VENDOR && n->device == NIC_DEVICE, "NIC IDs %04x:%04x", n->vendor,
	      n->device);
	check(n->bar[0].size == NIC_BAR0_SIZE && n->bar[0].is_64, "NIC BAR0 size %u 64 %d",
	      n->bar[0].size, n->bar[0].is_64);
	check(n->n_caps == 3 && n->cap_id[0] == 0x01 && n->cap_id[1] == 0x07 && n->cap_id[2] == 0x05 &&
	      n->msi_pos == 0xF0, "NIC capabilities %d: %02x %02x %02x, MSI at %02x", n->n_caps,
	      n->cap_id[0], n->cap_id[1], n->cap_id[2], n->msi_pos);
	check(c->bar[0].addr % 4096 == 0 && n->bar[0].addr % NIC_BAR0_SIZE == 0 &&
	      c->bar[0].addr != n->bar[0].addr, "BAR placement %08x %08x", c->bar[0].addr,
	      n->bar[0].addr);
	/* command: memory + bus master */
	uint32_t cc = hb_cfg_read(&w.hb, CARD_DEV, 0, 0x04, 2);

	check((cc & 0x6) == 0x6, "card command %04x, want memory | master", cc);
	check((hb_cfg_read(&w.hb, NIC_DEV, 0, 0x04, 2) & 0x6) == 0x6, "NIC command");
	/* BAR read back */
	check(hb_cfg_read(&w.hb, CARD_DEV, 0, 0x10, 4) == c->bar[0].addr, "card BAR0 read back");
	/* MSI, as pci_alloc_irq_vectors(4) / (1) would */
	int cv = pci_enable_msi(&w.hb, c, MSI_ADDR, 0x40, 4);
	int nv = pci_enable_msi(&w.hb, n, MSI_ADDR, 0x41, 1);

	check(cv == 4, "card granted %d MSI vectors, want 4 (MMC)", cv);
	check(nv == 1, "NIC granted %d MSI vectors, want 1", nv);
	uint32_t ctl = hb_cfg_read(&w.hb, CARD_DEV, 0, 0x42, 2);

	check((ctl & 1) && ((ctl >> 4) & 7) == 2 && (ctl & 0x80), "card MSI control %04x", ctl);
	check(hb_cfg_read(&w.hb, CARD_DEV, 0, 0x44, 4) == MSI_ADDR &&
	      hb_cfg_read(&w.hb, CARD_DEV, 0, 0x48, 4) == 0 &&
	      hb_cfg_read(&w.hb, CARD_DEV, 0, 0x4C, 2) == 0x40, "card MSI address/data read back");
	check(hb_cfg_read(&w.hb, CARD_DEV, 0, 0x04, 2) & 0x400, "card INTx not disabled");
	ctl = hb_cfg_read(&w.hb, NIC_DEV, 0, 0xF2, 2);
	check((ctl & 1) && ((ctl >> 4) & 7) == 0, "NIC MSI control %04x", ctl);
	check(hb_cfg_read(&w.hb, NIC_DEV, 0, 0xF4, 4) == MSI_ADDR &&
	      hb_cfg_read(&w.hb, NIC_DEV, 0, 0xFC, 2) == 0x41, "NIC MSI address/data read back");
	/* the card answers in its BAR (one register read to show decode on) */
	uint32_t magic = hb_mem_read32(&w.hb, c->bar[0].addr + SYNPCIX_ID_MAGIC);

	check(magic == SYNPCIX_ID_MAGIC_RESET, "id.magic %08x", magic);
	/* nobody answers between the BARs: master abort, all ones */
	uint32_t none = hb_mem_read32(&w.hb, c->bar[0].addr + 0x1000);

	check(none == 0xFFFFFFFFu && hb_last_result(&w.hb) == PCI_MASTER_ABORT,
	      "read outside every BAR: %08x result %d", none, hb_last_result(&w.hb));
	/* an idle bus is parked on the bridge: its GNT# alone, AD/C/BE#/PAR
	 * driven by it */
	hb_run(&w.hb, 50);
	check(w.sim.sig.gnt_n_mask == 0xFE && w.sim.sig.drv[PCI_AD] == 0 &&
	      w.sim.sig.drv[PCI_CBE] == 0 && w.sim.sig.drv[PCI_PAR] == 0,
	      "idle bus not parked on the bridge: GNT# %02x, AD driven by %d",
	      w.sim.sig.gnt_n_mask, w.sim.sig.drv[PCI_AD]);
	checker_verdict(&w);
	world_free(&w);
}

static void t_card_regs(void)
{
	struct world w;
	static const uint32_t pat[] = { 0x00000000, 0xFFFFFFFF, 0xA5A5A5A5, 0x5A5A5A5A,
					0x12345678, 0x80000001 };

	world_init(&w, true, false, &rig_quiet_bridge, 2);
	world_enumerate(&w);
	if (!w.card_dev) {
		check(0, "card not found");
		world_free(&w);
		return;
	}
	uint32_t bar = w.card_dev->bar[0].addr;
	uint32_t magic = hb_mem_read32(&w.hb, bar + SYNPCIX_ID_MAGIC);

	check(magic == SYNPCIX_ID_MAGIC_RESET, "id.magic %08x, want %08x", magic,
	      SYNPCIX_ID_MAGIC_RESET);
	for (unsigned i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
		hb_mem_write32(&w.hb, bar + SYNPCIX_ID_SCRATCH, pat[i]);
		uint32_t v = hb_mem_read32(&w.hb, bar + SYNPCIX_ID_SCRATCH);

		check(v == pat[i], "scratch wrote %08x read %08x", pat[i], v);
	}
	hb_mem_write32(&w.hb, bar + SYNPCIX_ID_MAGIC, 0);
	check(hb_mem_read32(&w.hb, bar + SYNPCIX_ID_MAGIC) == SYNPCIX_ID_MAGIC_RESET,
	      "write to read-only id.magic changed it");
	/* time snapshot: lo latches hi; the difference of two snapshots is
	 * the simulated time between them (the timebase counts 8 ns per
	 * 125 MHz clock after reset), within the read's own spread */
	uint64_t t[2];
	double sim_ns[2];

	for (int k = 0; k < 2; k++) {
		uint32_t lo = hb_mem_read32(&w.hb, bar + SYNPCIX_CLOCK_TIME_NS_LO);

		sim_ns[k] = pci_sim_ns(&w.sim);
		uint32_t hi = hb_mem_read32(&w.hb, bar + SYNPCIX_CLOCK_TIME_NS_HI);

		t[k] = (uint64_t)hi << 32 | lo;
		if (k == 0)
			hb_run(&w.hb, 20000);   /* 300 us */
	}
	double dt = (double)(t[1] - t[0]), ds = sim_ns[1] - sim_ns[0];

	printf("time snapshots %llu, %llu ns: card advanced %.0f ns over %.0f ns of bus time\n",
	       (unsigned long long)t[0], (unsigned long long)t[1], dt, ds);
	check(t[1] > t[0] && dt > ds - 500 && dt < ds + 500,
	      "card time advanced %.0f ns over %.0f ns", dt, ds);
	check(w.chk.retries > 0, "no delayed-read retries seen (card reads are delayed transactions)");
	checker_verdict(&w);
	world_free(&w);
}

/* random wait states, retries, disconnects in the bridge's target side
 * while the NIC does DMA and the CPU talks to the card */
static void t_random_waits(void)
{
	for (uint64_t seed = 11; seed <= 13; seed++) {
		struct world w;
		struct pci_target_policy pol = { (int)(seed % 3) + 1, 6, 3, 25, 15, false, 0 };
		struct rx_driver d;

		world_init(&w, true, true, &pol, seed);
		world_enumerate(&w);
		if (!w.card_dev || !w.nic_dev) {
			check(0, "enumeration failed");
			world_free(&w);
			return;
		}
		pci_enable_msi(&w.hb, w.nic_dev, MSI_ADDR, 0x41, 1);
		rxd_setup(&d, &w, 64, 2000.0, 3000.0, seed);
		nic_e1000_traffic(&w.nic, 200000.0, 250, 300, pci_sim_ns(&w.sim) + 1000.0);
		uint32_t bar = w.card_dev->bar[0].addr;
		struct pci_rng r;

		pci_rng_seed(&r, seed);
		for (int i = 0; i < 300 && w.chk.violations == 0; i++) {
			uint32_t v = (uint32_t)pci_rng_next(&r);

			hb_mem_write32(&w.hb, bar + SYNPCIX_ID_SCRATCH, v);
			uint32_t got = hb_mem_read32(&w.hb, bar + SYNPCIX_ID_SCRATCH);

			check(got == v, "seed %llu: scratch %08x read %08x", (unsigned long long)seed, v, got);
			if (got != v)
				break;
			hb_run(&w.hb, pci_rng_below(&r, 40));
		}
		uint64_t c0 = w.sim.clk;

		while (d.delivered < 300 && w.sim.clk - c0 < 2000000 && w.chk.violations == 0)
			pci_sim_step(&w.sim);
		hb_run(&w.hb, 2000);
		printf("seed %llu (DEVSEL %s): ", (unsigned long long)seed,
		       pol.devsel == 1 ? "fast" : pol.devsel == 2 ? "medium" : "slow");
		pci_checker_report(&w.chk, stdout);
		printf("bridge target: %llu claims, %llu retries, %llu disconnects, %llu wait clocks\n",
		       (unsigned long long)w.hb.t.claims, (unsigned long long)w.hb.t.retries,
		       (unsigned long long)w.hb.t.disconnects, (unsigned long long)w.hb.t.wait_clocks);
		check(w.hb.t.retries > 10 && w.hb.t.disconnects > 10 && w.hb.t.wait_clocks > 100,
		      "seed %llu: the random target did not retry/disconnect/wait enough to test anything",
		      (unsigned long long)seed);
		traffic_verdict(&w, &d, 300, 200000.0);
		checker_verdict(&w);
		world_free(&w);
		if (failures)
			return;
	}
}

static void nic_rate(double rate, uint64_t n_pkts, double latency_ns, double jitter_ns,
		     const struct pci_target_policy *pol)
{
	struct world w;
	struct rx_driver d;

	world_init(&w, true, true, pol, 5);
	world_enumerate(&w);
	if (!w.nic_dev || !w.card_dev) {
		check(0, "enumeration failed");
		world_free(&w);
		return;
	}
	pci_enable_msi(&w.hb, w.nic_dev, MSI_ADDR, 0x41, 1);
	rxd_setup(&d, &w, 256, latency_ns, jitter_ns, 99);
	uint64_t clocks = run_traffic(&w, &d, rate, 60, n_pkts);
	uint64_t busy = w.chk.data_phases + w.chk.wait_clocks;

	printf("%.0f pps: %llu clocks (%.2f ms), bus data+wait clocks %.1f %%\n", rate,
	       (unsigned long long)clocks, (double)clocks * PCI_PERIOD_NS * 1e-6,
	       100.0 * (double)busy / (double)w.chk.clocks);
	traffic_verdict(&w, &d, n_pkts, rate);
	checker_verdict(&w);
	world_free(&w);
}

static void t_nic_100k(void)
{
	/* the ISR reads ICR at once: most packets get their own MSI */
	nic_rate(100000.0, 2000, 0.0, 0.0, &rig_quiet_bridge);
}

static void t_nic_1488k(void)
{
	/* GbE line rate of 64-byte frames; interrupt latency 3..8 us, so
	 * several packets share one ICR period (no MSI while ICR is set) */
	nic_rate(1488095.0, 4000, 3000.0, 5000.0, &rig_fast_bridge);
}

/* The NIC's MSI pointed at a doorbell of the card (what msi_redirect
 * does): the write crosses the bus peer to peer and the card must claim
 * and complete every one at once. Until the card interrupts by itself the
 * driver model is woken by the monitor seeing the doorbell write. */
struct doorbell_src {
	struct pci_monitor *mon;
	uint32_t addr;
	size_t scanned;
	uint64_t *clk;
	size_t n, cap;
	uint64_t bad;
	char first_bad[160];
	int card_agent;
};

static size_t doorbell_n(void *src)
{
	struct doorbell_src *b = src;

	for (; b->scanned < b->mon->n; b->scanned++) {
		const struct pci_txn *t = &b->mon->log[b->scanned];

		if (t->cmd != PCI_CMD_MEM_WRITE || t->addr != b->addr)
			continue;
		if ((t->target != b->card_agent || t->words != 1 || t->data0 != 0x41) && !b->bad++)
			snprintf(b->first_bad, sizeof(b->first_bad),
				 "doorbell write at clock %llu: claimed by %d, %d words, data %08X",
				 (unsigned long long)t->clk, t->target, t->words, t->data0);
		if (b->n == b->cap) {
			b->cap = b->cap ? 2 * b->cap : 1024;
			b->clk = realloc(b->clk, b->cap * sizeof(*b->clk));
			if (!b->clk)
				exit(2);
		}
		b->clk[b->n++] = t->clk_end;
	}
	return b->n;
}

static uint64_t doorbell_at(void *src, size_t i)
{
	return ((struct doorbell_src *)src)->clk[i];
}

static void t_nic_msi_to_card(void)
{
	struct world w;
	struct rx_driver d;
	struct pci_monitor mon;
	struct doorbell_src db;

	world_init(&w, true, true, &rig_quiet_bridge, 7);
	world_enumerate(&w);
	if (!w.nic_dev || !w.card_dev) {
		check(0, "enumeration failed");
		world_free(&w);
		return;
	}
	uint32_t door = w.card_dev->bar[0].addr + SYNPCIX_RSV_DOORBELLS_BASE +
			2 * SYNPCIX_RSV_DOORBELLS_STRIDE;

	pci_monitor_init(&mon, &w.sim);
	pci_sim_add_hook(&w.sim, pci_monitor_hook, &mon);
	memset(&db, 0, sizeof(db));
	db.mon = &mon;
	db.addr = door;
	db.card_agent = 1;   /* world_init adds the card right after the bridge */
	pci_enable_msi(&w.hb, w.nic_dev, door, 0x41, 1);
	rxd_setup(&d, &w, 256, 1000.0, 2000.0, 5);
	d.ms = (struct msi_source){ doorbell_n, doorbell_at, &db };
	run_traffic(&w, &d, 300000.0, 60, 1000);
	printf("doorbell %08X: %zu writes\n", door, db.n);
	check(db.bad == 0, "%s", db.first_bad);
	/* the delay the card's stamp will carry: true arrival of the packet
	 * whose write-back raised the edge -> the PCI clock edge at which the
	 * card samples the doorbell data phase */
	check(db.n == w.nic.n_msi, "%zu doorbell writes on the bus, the NIC sent %zu", db.n,
	      w.nic.n_msi);
	if (db.n && db.n == w.nic.n_msi) {
		double *lat = malloc(db.n * sizeof(*lat)), sum = 0;
		size_t m = 0;

		if (!lat)
			exit(2);
		for (size_t i = 0; i < db.n; i++) {
			uint64_t seq = w.nic.msi[i].seq;

			if (seq >= w.nic.n_rec) {
				check(0, "MSI %zu not raised by a packet", i);
				continue;
			}
			lat[m] = (double)(db.clk[i] + 1) * PCI_PERIOD_NS - w.nic.rec[seq].t_arrival_ns;
			check(lat[m] > 0, "MSI %zu before its packet arrived", i);
			sum += lat[m++];
		}
		for (size_t i = 1; i < m; i++)   /* insertion sort, m is small */
			for (size_t k = i; k > 0 && lat[k - 1] > lat[k]; k--) {
				double x = lat[k];

				lat[k] = lat[k - 1];
				lat[k - 1] = x;
			}
		if (m)
			printf("arrival -> doorbell sampled by the card: min %.0f, mean %.0f, p99 %.0f, max %.0f ns\n",
			       lat[0], sum / (double)m, lat[(m * 99) / 100], lat[m - 1]);
		free(lat);
	}
	check(w.hb.n_msi == 0, "%zu MSIs reached the host bridge", w.hb.n_msi);
	traffic_verdict(&w, &d, 1000, 300000.0);
	checker_verdict(&w);
	free(db.clk);
	pci_monitor_free(&mon);
	world_free(&w);
}

/* ---- stamping end to end ------------------------------------------------ */

/*
 * The whole path of the product, set up and run by sim/pcibus/stamp_rig.c
 * (shared with the demo, sim/pcibus/stamp_demo.c): the NIC's MSI pointed
 * at slot STAMP_SLOT's doorbell, the card stamping the RX ring, the driver
 * model woken by the card's MSI. Here every stamp, every card transaction
 * and the slot's counters are judged.
 */
static unsigned env_u(const char *name, unsigned def);

static void guard_verdict(struct host_mem *m, uint32_t ring_n)
{
	uint32_t first, bad = check_guard(m, ring_n, &first);

	check(bad == 0, "%u guard words around the ring changed, first at %08X", bad, first);
}

/* msi_slots.settle from STAMP_SETTLE; unset: the reset value */
static int env_settle(void)
{
	return getenv("STAMP_SETTLE") ? (int)env_u("STAMP_SETTLE", 3) : -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct dist {
	size_t n;
	double min, mean, p99, max;
};

static struct dist dist_of(double *v, size_t n)
{
	struct dist d = { n, 0, 0, 0, 0 };
	double s = 0;

	if (!n)
		return d;
	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		s += v[i];
	d.min = v[0];
	d.max = v[n - 1];
	d.mean = s / (double)n;
	d.p99 = v[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1];
	return d;
}

/* Bounds of an exact stamp minus the bus edge at which the NIC's doorbell
 * write completed (docs/stamping-results.md): pci_target strobes
 * DB_LATENCY = 1 bus clock (15 ns) after that edge; msi_capture latches
 * like an event input whose pin changed at that strobe (clock_core's
 * tb_time_ns contract), so relative to the event-calibrated time the
 * stamp is 15 ns late, give or take the 125 MHz sampling phase (the
 * calibration averages the phases: +-one 8 ns clock). */
#define LATCH_MIN_NS (15.0 - 8.0)
#define LATCH_MAX_NS (15.0 + 8.0)

static void stamp_e2e(const struct stamp_run *cfg, const char *tag)
{
	struct stamp_rig *rig = calloc(1, sizeof(*rig));

	if (!rig)
		exit(2);
	if (stamp_rig_run(rig, cfg)) {
		check(0, "enumeration failed");
		free(rig);
		return;
	}
	uint32_t door = rig->door, nic_bar = rig->nic_bar;
	uint64_t c0 = rig->c0, run_clocks = rig->run_clocks, tx_sent = rig->tx_sent;
	double wall = rig->wall_s;
	double sim_s = (double)run_clocks * PCI_PERIOD_NS * 1e-9;

	check(rig->w.problems == 0, "set-up: %s", rig->w.problem);

	printf("[%s] %llu packets of 60 bytes at %.0f pps, ring %u (wraps %.1f times), "
	       "%llu TX-style ICS writes\n", tag, (unsigned long long)cfg->n_pkts, cfg->rate,
	       cfg->ring_n, (double)cfg->n_pkts / cfg->ring_n, (unsigned long long)tx_sent);
	check(rig->d.delivered == cfg->n_pkts, "delivered %llu of %llu packets with stamps",
	      (unsigned long long)rig->d.delivered, (unsigned long long)cfg->n_pkts);
	check(rig->d.bad == 0, "descriptor/stamp check: %s", rig->d.first_bad);
	uint32_t mpc = hb_mem_read32(&rig->w.hb, nic_bar + E1000_MPC);

	check(mpc == 0, "NIC missed %u packets", mpc);

	/* doorbells and the card's own transactions, from the bus */
	size_t n_db = 0, n_card_msi = 0, n_stamp_w = 0, n_ring_r = 0, n_cause_r = 0, n_head_r = 0;
	uint64_t *db_clk = malloc((rig->mon.n + 1) * sizeof(*db_clk));
	int *db_master = malloc((rig->mon.n + 1) * sizeof(*db_master));
	size_t *db_nic = malloc((rig->mon.n + 1) * sizeof(*db_nic));   /* index in nic.msi[] */
	size_t n_db_nic = 0;
	uint64_t bus_busy = 0;
	int card_agent = 1;   /* world_init adds the card right after the bridge */

	if (!db_clk || !db_master || !db_nic)
		exit(2);
	/* ordering: the card's MSI comes after the stamp writes it announces:
	 * a stamp time (capture) once followed by a card MSI is never written
	 * again after it */
	uint64_t last_group = UINT64_MAX, closed_group = UINT64_MAX;
	size_t split = 0;

	for (size_t i = 0; i < rig->mon.n; i++) {
		const struct pci_txn *t = &rig->mon.log[i];

		bus_busy += t->clk_end - t->clk + 1;
		if (t->cmd == PCI_CMD_MEM_WRITE && t->addr == door && t->words > 0) {
			check(t->target == card_agent && t->words == 1, "doorbell write at clock %llu "
			      "claimed by %d with %d words", (unsigned long long)t->clk, t->target, t->words);
			db_master[n_db] = t->master;
			db_nic[n_db] = t->master == rig->w.nic.agent ? n_db_nic++ : SIZE_MAX;
			db_clk[n_db++] = t->clk_end;
		}
		if (t->master != card_agent)
			continue;
		uint32_t rel = t->addr - RING_BASE;
		bool in_ring = t->addr >= RING_BASE && rel < 16 * cfg->ring_n;

		if (t->cmd == PCI_CMD_MEM_WRITE && t->addr == MSI_ADDR) {
			if (!t->words)
				continue;   /* retried: the write comes again */
			check(t->words == 1 && t->data0 == 0x40u + STAMP_SLOT, "card MSI %08X words %d",
			      t->data0, t->words);
			n_card_msi++;
			closed_group = last_group;
		} else if (t->cmd == PCI_CMD_MEM_WRITE) {
			/* a stamp: the 8 bytes at offset 0 of a ring entry (or
			 * its upper word alone, after a disconnect) */
			bool ok = in_ring && ((rel % 16 == 0 && t->words <= 2) ||
					      (rel % 16 == 4 && t->words == 1));

			check(ok, "card write outside the stamp fields: %08X, %d words, clock %llu",
			      t->addr, t->words, (unsigned long long)t->clk);
			if (rel % 16 == 0 && t->words > 0) {
				n_stamp_w++;
				if (t->data0 == closed_group)
					split++;
				last_group = t->data0;
			}
		} else if (pci_cmd_is_read(t->cmd)) {
			bool ok = in_ring || t->addr == nic_bar + E1000_ICR ||
				  t->addr == nic_bar + E1000_RDH;

			check(ok, "card read outside the ring, the NIC's ICR and RDH: %08X", t->addr);
			if (!t->words)
				continue;
			if (t->addr == nic_bar + E1000_ICR)
				n_cause_r++;
			else if (t->addr == nic_bar + E1000_RDH)
				n_head_r++;
			else
				n_ring_r++;
		}
	}
	check(n_db_nic == rig->w.nic.n_msi, "%zu doorbell writes from the NIC, it sent %zu MSIs", n_db_nic,
	      rig->w.nic.n_msi);
	check(split == 0, "%zu stamp writes of a capture after that capture's card MSI", split);
	check(n_card_msi >= 1, "the card sent no MSI");

	/* the stamps: markers and sequence were checked per descriptor; here
	 * the batched flag, the latch latency and the error vs truth */
	double *e_db = malloc((rig->d.n_st + 1) * sizeof(double));
	double *e_ar = malloc((rig->d.n_st + 1) * sizeof(double));
	double *e_b = malloc((rig->d.n_st + 1) * sizeof(double));
	size_t n_db_e = 0, n_ar = 0, n_b = 0, n_exact = 0, unmatched = 0, reused = 0;
	size_t bad_batched = 0, batched_new_time = 0, n_ar_tx = 0, mispaired = 0;
	double *e_tx = malloc((rig->d.n_st + 1) * sizeof(double));
	bool *db_used = calloc(n_db + 1, 1);
	size_t j = 0;

	if (!e_db || !e_ar || !e_b || !db_used || !e_tx)
		exit(2);
	for (size_t i = 0; i < rig->d.n_st; i++) {
		const struct stamp_rec *s = &rig->d.st[i];

		if (i == 0)
			check(!s->batched, "first stamp flagged batched");
		if (s->batched) {
			/* registers.md: a batched stamp's time is that of a
			 * capture at or before the entry's own completion (its
			 * write-back on the bus, plus the latch latency) */
			double wb = rig->w.nic.rec[s->seq].t_wb_ns;

			if (i == 0 || s->card_ns < rig->d.st[i - 1].card_ns || s->true_ns > wb + LATCH_MAX_NS) {
				if (!bad_batched++)
					check(0, "packet %llu: batched stamp %.1f ns, write-back %.1f ns, "
					      "previous stamp %.1f ns", (unsigned long long)s->seq, s->true_ns,
					      wb, i ? rig->d.st[i - 1].true_ns : 0.0);
			}
			if (i > 0 && rig->d.st[i - 1].card_ns != s->card_ns)
				batched_new_time++;
			e_b[n_b++] = s->true_ns - rig->w.nic.rec[s->seq].t_arrival_ns;
			continue;
		}
		n_exact++;
		check(i == 0 || s->card_ns > rig->d.st[i - 1].card_ns,
		      "packet %llu: exact stamp not later than the one before", (unsigned long long)s->seq);
		/* the doorbell it latched: the latest one completed before it */
		while (j + 1 < n_db && (double)(db_clk[j + 1] + 1) * PCI_PERIOD_NS <= s->true_ns)
			j++;
		double edge = (double)(db_clk[j] + 1) * PCI_PERIOD_NS;
		double e = s->true_ns - edge;

		if (n_db == 0 || e < LATCH_MIN_NS || e > LATCH_MAX_NS) {
			if (!unmatched++)
				check(0, "packet %llu: exact stamp %.1f ns after the nearest doorbell edge "
				      "(documented %.0f..%.0f)", (unsigned long long)s->seq, e,
				      LATCH_MIN_NS, LATCH_MAX_NS);
		} else if (db_used[j]) {
			reused++;
		} else {
			db_used[j] = true;
		}
		e_db[n_db_e++] = e;
		/* the card stamp error: exact stamps latched from the NIC's
		 * own MSI; those latched from a TX-style doorbell (a time the
		 * NIC did not send for this packet) are reported apart */
		uint64_t raised_by = db_nic[j] < rig->w.nic.n_msi ? rig->w.nic.msi[db_nic[j]].seq : UINT64_MAX;

		if (raised_by == s->seq) {
			e_ar[n_ar++] = s->true_ns - rig->w.nic.rec[s->seq].t_arrival_ns;
		} else if (raised_by == UINT64_MAX) {
			e_tx[n_ar_tx++] = s->true_ns - rig->w.nic.rec[s->seq].t_arrival_ns;
		} else if (!mispaired++) {
			if (getenv("STAMP_DEBUG")) {
				for (size_t q = i >= 3 ? i - 3 : 0; q <= i + 2 && q < rig->d.n_st; q++)
					printf("  pkt %llu desc %u arrival %.0f write-back %.0f stamp %.0f batched %d\n",
					       (unsigned long long)rig->d.st[q].seq, rig->d.st[q].desc,
					       rig->w.nic.rec[rig->d.st[q].seq].t_arrival_ns, rig->w.nic.rec[rig->d.st[q].seq].t_wb_ns,
					       rig->d.st[q].true_ns, rig->d.st[q].batched);
				for (size_t q = 0; q < rig->w.nic.n_msi; q++)
					if (fabs((double)rig->w.nic.msi[q].clk * PCI_PERIOD_NS - s->true_ns) < 4000)
						printf("  NIC MSI for packet %lld completed %.0f\n",
						       (long long)rig->w.nic.msi[q].seq, (double)(rig->w.nic.msi[q].clk + 1) * PCI_PERIOD_NS);
				for (size_t q = 0; q < rig->mon.n; q++) {
					const struct pci_txn *t = &rig->mon.log[q];
					double tt = (double)(t->clk + 1) * PCI_PERIOD_NS;

					if (fabs(tt - s->true_ns) < 4000 && (t->master == card_agent ||
					    t->addr == door || t->addr == nic_bar + E1000_ICR))
						printf("  bus %.0f..%.0f master %d cmd %X addr %08X words %d data0 %08X\n",
						       tt, (double)(t->clk_end + 1) * PCI_PERIOD_NS, t->master, t->cmd,
						       t->addr, t->words, t->data0);
				}
			}
			check(0, "packet %llu got the exact time of the MSI packet %llu raised "
			      "(%.0f ns after its arrival)", (unsigned long long)s->seq,
			      (unsigned long long)raised_by,
			      s->true_ns - rig->w.nic.rec[s->seq].t_arrival_ns);
		}
	}
	check(bad_batched == 0, "%zu batched stamps later than their entry's completion or "
	      "out of order", bad_batched);
	check(unmatched == 0, "%zu exact stamps outside the latch latency", unmatched);
	/* the brief's hard part: an exact time belongs to the entry whose
	 * write-back raised that MSI (nic.msi[].seq) */
	check(mispaired == 0, "%zu exact stamps carry the time of another packet's MSI", mispaired);
	check(reused == 0, "%zu doorbells gave two exact stamps", reused);
	struct dist dd = dist_of(e_db, n_db_e), da = dist_of(e_ar, n_ar), db = dist_of(e_b, n_b);
	struct dist dt = dist_of(e_tx, n_ar_tx);

	printf("[%s] stamps %zu (exact %zu, batched %zu); doorbells %zu (NIC MSIs %zu, TX-style ICS writes %llu); "
	       "card MSIs %zu, driver wake-ups %llu (%llu found nothing new)\n", tag, rig->d.n_st, n_exact,
	       n_b, n_db, rig->w.nic.n_msi, (unsigned long long)tx_sent, n_card_msi,
	       (unsigned long long)rig->d.wakeups, (unsigned long long)rig->d.empty_wakeups);
	printf("[%s] exact stamp - doorbell completion edge (truth): min %.1f mean %.1f p99 %.1f max %.1f ns\n",
	       tag, dd.min, dd.mean, dd.p99, dd.max);
	printf("[%s] exact stamp - packet arrival (truth): n %zu min %.0f mean %.0f p99 %.0f max %.0f ns\n",
	       tag, da.n, da.min, da.mean, da.p99, da.max);
	if (n_ar_tx)
		printf("[%s] exact stamps latched from a TX-style MSI - packet arrival: n %zu min %.0f "
		       "mean %.0f p99 %.0f max %.0f ns\n", tag, dt.n, dt.min, dt.mean, dt.p99, dt.max);
	if (n_b)
		printf("[%s] batched stamp - packet arrival: n %zu min %.0f mean %.0f p99 %.0f max %.0f ns "
		       "(%zu with a newer capture's time than the entry before)\n",
		       tag, db.n, db.min, db.mean, db.p99, db.max, batched_new_time);
	check(da.n > 0, "no exact stamp from the NIC's MSI");
	/* the brief's bar (p99 < 1 us, max < 2 us) over every stamp the
	 * driver gets: reported, judged in docs/stamping-results.md */
	{
		double *all = malloc((rig->d.n_st + 1) * sizeof(double));
		size_t n_all = 0;

		if (!all)
			exit(2);
		struct dist ab;

		/* contrast: the time the driver's interrupt handler ran, the
		 * stamp an interrupt-driven capture would take */
		for (size_t i = 0; i < rig->d.n_st; i++)
			all[i] = rig->d.st[i].isr_ns - rig->w.nic.rec[rig->d.st[i].seq].t_arrival_ns;
		struct dist di = dist_of(all, rig->d.n_st);

		printf("[%s] for contrast, interrupt time (driver ISR) - arrival: min %.0f mean %.0f "
		       "p99 %.0f max %.0f ns\n", tag, di.min, di.mean, di.p99, di.max);
		n_all = 0;
		for (size_t i = 0; i < rig->d.n_st; i++) {
			double e = rig->d.st[i].true_ns - rig->w.nic.rec[rig->d.st[i].seq].t_arrival_ns;

			all[n_all++] = e < 0 ? -e : e;
		}
		ab = dist_of(all, n_all);
		printf("[%s] |stamp - arrival| over all %zu stamps: p99 %.0f max %.0f ns: brief's bar "
		       "(p99 < 1000, max < 2000) %s\n", tag, n_all, ab.p99, ab.max,
		       ab.p99 < 1000.0 && ab.max < 2000.0 ? "MET" : "NOT MET");
		free(all);
	}

	/* the card's counters agree with what the bus and the ring show */
	struct slot_counters sc = read_slot(&rig->w);

	printf("[%s] slot %d: captures %u stamped %u batched %u empty %u overflow %u dma_errors %u; "
	       "card reads: cause %zu head %zu ring %zu, stamp writes %zu; ambiguous %u\n", tag, STAMP_SLOT,
	       sc.captures, sc.stamped, sc.batched, sc.empty, sc.overflow, sc.dma_errors, n_cause_r,
	       n_head_r, n_ring_r, n_stamp_w, sc.ambiguous);
	check(sc.captures == n_db, "captures %u, doorbell writes on the bus %zu", sc.captures, n_db);
	check(sc.stamped == rig->d.n_st, "stamped %u, stamps the driver found %zu", sc.stamped, rig->d.n_st);
	check(sc.batched == n_b, "batched %u, batched stamps found %zu", sc.batched, n_b);
	check(sc.overflow == 0 && sc.dma_errors == 0, "overflow %u dma_errors %u", sc.overflow,
	      sc.dma_errors);
	check(n_cause_r == n_db, "cause reads %zu for %zu captures", n_cause_r, n_db);
	/* head_en is set with cause_en (program_slot, unless STAMP_HEAD=0):
	 * an RX head read after a cause read, except in a pass after one
	 * whose head read did not decide (skipped, counted in ambiguous);
	 * none without head_en */
	if (rig_head_en())
		check(n_head_r <= n_cause_r && (n_cause_r == 0 || n_head_r > 0) &&
		      sc.ambiguous <= n_db && n_head_r + sc.ambiguous >= n_cause_r / 2,
		      "RX head reads %zu for %zu cause reads, ambiguous %u", n_head_r, n_cause_r,
		      sc.ambiguous);
	else
		check(n_head_r == 0 && sc.ambiguous == 0, "RX head reads %zu, ambiguous %u without head_en",
		      n_head_r, sc.ambiguous);
	check(n_card_msi <= n_db, "card MSIs %zu > captures %zu", n_card_msi, n_db);
	if (cfg->tx_msi_every_ns > 0) {
		size_t n_tx_msi = 0;

		for (size_t i = 0; i < rig->w.nic.n_msi; i++)
			n_tx_msi += rig->w.nic.msi[i].seq == UINT64_MAX;
		printf("[%s] NIC MSIs raised by TX-style ICS writes: %zu\n", tag, n_tx_msi);
		check(n_tx_msi > 0 && sc.empty > 0, "TX-style MSIs %zu, empty captures %u", n_tx_msi,
		      sc.empty);
	}
	guard_verdict(&rig->w.hb.mem, cfg->ring_n);
	printf("[%s] bus busy %.1f %% of %llu clocks; %.0f stamps/s of simulated time; "
	       "simulation %.2f s wall for %.2f ms simulated (%.0f PCI clocks/s)\n", tag,
	       100.0 * (double)bus_busy / (double)(rig->w.sim.clk - c0 > 0 ? rig->w.sim.clk - c0 : 1),
	       (unsigned long long)(rig->w.sim.clk - c0), (double)rig->d.n_st / sim_s, wall, sim_s * 1e3,
	       (double)run_clocks / wall);
	checker_verdict(&rig->w);
	free(e_db);
	free(e_ar);
	free(e_b);
	free(e_tx);
	free(db_used);
	free(db_clk);
	free(db_master);
	free(db_nic);
	stamp_rig_free(rig);
	free(rig);
}

static unsigned env_u(const char *name, unsigned def)
{
	const char *s = getenv(name);

	return s && *s ? (unsigned)strtoul(s, NULL, 10) : def;
}

static void t_stamp_100k(void)
{
	struct stamp_run r = { 100000.0, env_u("STAMP_PKTS_100K", 3000), 64, &rig_quiet_bridge,
			       LAT_UNIFORM, 2000.0, 3000.0, (double)env_u("STAMP_TX_NS", 25000), 51,
			       env_settle(), 60 };

	stamp_e2e(&r, "100k");
}

/* A doorbell of a slot that is not enabled (a device still sending MSIs
 * while its driver tears the slot down): registers.md says the capture is
 * counted as empty and still raises the card's MSI; the engine must then
 * be idle again. Slot 0 is never programmed, slot 2 is, as in the other
 * tests. Then doorbells of three slots back to back: one card MSI per
 * slot, each with its own vector (4 granted). */
static void t_stamp_disabled_slot(void)
{
	struct world w;

	world_init(&w, true, true, &rig_quiet_bridge, 71);
	world_enumerate(&w);
	if (!w.nic_dev || !w.card_dev) {
		check(0, "enumeration failed");
		world_free(&w);
		return;
	}
	pci_enable_msi(&w.hb, w.card_dev, MSI_ADDR, 0x40, 4);
	program_slot(&w, 16, false, env_settle());
	check(w.problems == 0, "set-up: %s", w.problem);
	/* slot 0: never written; slot 1: only its ring_count written (enable
	 * still 0), the case of tb_synpcix_card */
	card_wr(&w, SYNPCIX_MSI_SLOTS_SLOT_SEL, 1);
	card_wr(&w, SYNPCIX_MSI_SLOTS_RING_COUNT, 0x123);
	for (unsigned slot = 0; slot < 2; slot++) {
		size_t msi0 = w.hb.n_msi;
		uint32_t raised0 = card_rd(&w, SYNPCIX_IRQ_RAISED);

		card_wr(&w, SYNPCIX_RSV_DOORBELLS_BASE + slot * SYNPCIX_RSV_DOORBELLS_STRIDE, 0x41);
		hb_run(&w.hb, 2000);
		uint32_t status = card_rd(&w, SYNPCIX_MSI_SLOTS_STATUS);
		uint32_t raised = card_rd(&w, SYNPCIX_IRQ_RAISED) - raised0;

		printf("after a doorbell of disabled slot %u: status %08X, irq.raised +%u, card MSIs %zu\n",
		       slot, status, raised, w.hb.n_msi - msi0);
		check(!(status & SYNPCIX_MSI_SLOTS_STATUS_BUSY_MASK),
		      "slot %u: engine still busy 30 us after a doorbell of a disabled slot", slot);
		check(raised == 1 && w.hb.n_msi - msi0 == 1,
		      "slot %u: irq.raised +%u, card MSIs %zu, want 1 and 1", slot, raised,
		      w.hb.n_msi - msi0);
		if (status & SYNPCIX_MSI_SLOTS_STATUS_BUSY_MASK)
			break;   /* window accesses would be retried for ever */
		card_wr(&w, SYNPCIX_MSI_SLOTS_SLOT_SEL, slot);
		uint32_t cap = card_rd(&w, SYNPCIX_MSI_SLOTS_CAPTURES);
		uint32_t emp = card_rd(&w, SYNPCIX_MSI_SLOTS_EMPTY);

		check(cap == 1 && emp == 1, "slot %u: captures %u empty %u, want 1 and 1", slot, cap, emp);
	}
	/* three slots' doorbells posted back to back: the card's MSI request
	 * queue (card top) must send each slot's vector once */
	size_t m0 = w.hb.n_msi;

	for (unsigned slot = 0; slot < 4; slot++)
		if (slot != STAMP_SLOT)
			hb_submit(&w.hb, PCI_CMD_MEM_WRITE, w.card_dev->bar[0].addr +
				  SYNPCIX_RSV_DOORBELLS_BASE + slot * SYNPCIX_RSV_DOORBELLS_STRIDE, 0, 0x41);
	hb_run(&w.hb, 3000);
	unsigned seen[4] = { 0, 0, 0, 0 };

	for (size_t i = m0; i < w.hb.n_msi; i++)
		if (w.hb.msi[i].addr == MSI_ADDR && (w.hb.msi[i].data & ~3u) == 0x40)
			seen[w.hb.msi[i].data & 3]++;
	printf("back-to-back doorbells of slots 0, 1, 3: card MSIs for vectors 0..3: %u %u %u %u\n",
	       seen[0], seen[1], seen[2], seen[3]);
	check(seen[0] == 1 && seen[1] == 1 && seen[2] == 0 && seen[3] == 1 &&
	      w.hb.n_msi - m0 == 3, "card MSIs per vector %u %u %u %u (of %zu), want 1 1 0 1",
	      seen[0], seen[1], seen[2], seen[3], w.hb.n_msi - m0);
	checker_verdict(&w);
	world_free(&w);
}

/* the same without TX-style MSIs: every NIC MSI announces an RX entry */
static void t_stamp_100k_rx_only(void)
{
	struct stamp_run r = { 100000.0, env_u("STAMP_PKTS_100K", 3000), 64, &rig_quiet_bridge,
			       LAT_UNIFORM, 2000.0, 3000.0, 0.0, 51, env_settle(), 60 };

	stamp_e2e(&r, "100k-rx");
}

static void t_stamp_1488k(void)
{
	struct stamp_run r = { 1488095.0, env_u("STAMP_PKTS_1488K", 6000), 256, &rig_fast_bridge,
			       LAT_UNIFORM, 3000.0, 5000.0, 0.0, 52, env_settle(), 60 };

	stamp_e2e(&r, "1488k");
}

/* Overload: more doorbells than the engine can take. A slow host bridge
 * (every ring read waits and is often retried) makes each capture take
 * microseconds while the CPU posts doorbell writes back to back (every few
 * clocks, as a storm of TX/link MSIs would); the capture FIFO (256) fills
 * and the lost doorbells must be counted: captures + overflow = doorbells
 * written, nothing hangs, nothing is written outside the ring. */
static void t_stamp_overload(void)
{
	static const struct pci_target_policy slow_bridge = { 3, 12, 6, 40, 20, false, 0 };
	struct world w;
	struct pci_monitor mon;
	uint32_t ring_n = 64, n_door = env_u("STAMP_OVERLOAD_DOORBELLS", 1200);

	world_init(&w, true, true, &slow_bridge, 61);
	world_enumerate(&w);
	if (!w.nic_dev || !w.card_dev) {
		check(0, "enumeration failed");
		world_free(&w);
		return;
	}
	pci_enable_msi(&w.hb, w.card_dev, MSI_ADDR, 0x40, 4);
	fill_guard(&w.hb.mem, ring_n);
	for (uint32_t i = 0; i < ring_n; i++) {   /* entries not completed: empty captures */
		host_mem_write32(&w.hb.mem, RING_BASE + 16 * i, BUF_BASE + BUF_SIZE * i, 0);
		host_mem_write32(&w.hb.mem, RING_BASE + 16 * i + 4, 0, 0);
		host_mem_write32(&w.hb.mem, RING_BASE + 16 * i + 8, 0, 0);
		host_mem_write32(&w.hb.mem, RING_BASE + 16 * i + 12, 0, 0);
	}
	/* three completed entries, then none */
	for (uint32_t i = 0; i < 3; i++)
		host_mem_write32(&w.hb.mem, RING_BASE + 16 * i + 12, E1000_RXD_STAT_DD, 0);
	program_slot(&w, ring_n, true, env_settle());
	check(w.problems == 0, "set-up: %s", w.problem);
	pci_monitor_init(&mon, &w.sim);
	pci_sim_add_hook(&w.sim, pci_monitor_hook, &mon);
	uint32_t door = w.card_dev->bar[0].addr + SYNPCIX_RSV_DOORBELLS_BASE +
			STAMP_SLOT * SYNPCIX_RSV_DOORBELLS_STRIDE;
	uint64_t c0 = w.sim.clk;

	for (uint32_t k = 0; k < n_door;) {
		if (!hb_queue_full(&w.hb)) {
			hb_submit(&w.hb, PCI_CMD_MEM_WRITE, door, 0, 0x41);
			k++;
		}
		pci_sim_step(&w.sim);
	}
	uint64_t posted = w.sim.clk - c0;
	/* let the engine drain: status.busy = 0 */
	int busy = 1;

	for (int i = 0; i < 400 && busy; i++) {
		hb_run(&w.hb, 2000);
		busy = card_rd(&w, SYNPCIX_MSI_SLOTS_STATUS) & SYNPCIX_MSI_SLOTS_STATUS_BUSY_MASK;
	}
	check(!busy, "engine still busy after the storm");
	struct slot_counters sc = read_slot(&w);
	size_t n_db = 0, n_msi = 0;

	for (size_t i = 0; i < mon.n; i++) {
		const struct pci_txn *t = &mon.log[i];

		if (t->cmd == PCI_CMD_MEM_WRITE && t->addr == door && t->words == 1)
			n_db++;
		if (t->master == 1 && t->cmd == PCI_CMD_MEM_WRITE && t->words > 0) {
			bool stamp = t->addr >= RING_BASE && t->addr < RING_BASE + 16 * ring_n &&
				     (t->addr - RING_BASE) % 16 == 0;

			if (t->addr == MSI_ADDR)
				n_msi++;
			else
				check(stamp, "card write at %08X", t->addr);
		}
	}
	printf("overload: %u doorbells posted in %llu clocks (%.0f ns apart), %zu completed on the bus\n",
	       n_door, (unsigned long long)posted, (double)posted * PCI_PERIOD_NS / n_door, n_db);
	printf("overload: captures %u, overflow %u, empty %u, stamped %u, batched %u, dma_errors %u; "
	       "card MSIs %zu; bridge target retries %llu\n", sc.captures, sc.overflow, sc.empty,
	       sc.stamped, sc.batched, sc.dma_errors, n_msi, (unsigned long long)w.hb.t.retries);
	check(n_db == n_door, "%zu of %u doorbell writes completed", n_db, n_door);
	check(sc.overflow > 0, "no overflow counted: the storm did not overload the engine");
	check(sc.captures + sc.overflow == n_door, "captures %u + overflow %u != %u doorbells",
	      sc.captures, sc.overflow, n_door);
	/* the three entries are stamped once each (exactly by the first
	 * capture and by waiting captures it takes over, or batched); every
	 * other capture finds nothing */
	check(sc.stamped == 3, "stamped %u, want 3", sc.stamped);
	check(sc.empty + (sc.stamped - sc.batched) == sc.captures, "empty %u + exact %u != captures %u",
	      sc.empty, sc.stamped - sc.batched, sc.captures);
	check(sc.dma_errors == 0, "dma errors %u", sc.dma_errors);
	check(n_msi >= 1, "no card MSI");
	for (uint32_t i = 0; i < 3; i++) {
		uint32_t hi = host_mem_read32(&w.hb.mem, RING_BASE + 16 * i + 4);

		check((hi >> 26) == STAMP_MARKER && ((hi >> 16) & 0xFF) == i && (i > 0 || !((hi >> 24) & 1)),
		      "entry %u stamp upper word %08X", i, hi);
	}
	guard_verdict(&w.hb.mem, ring_n);
	checker_verdict(&w);
	pci_monitor_free(&mon);
	world_free(&w);
}

/* Same seeds, same run: two identical random scenarios (random bridge
 * target, NIC traffic, driver with random latency) in one process must
 * give the same bus, clock for clock, and the same host memory. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001B3ull;
	return h;
}

static uint64_t scenario(uint64_t seed, uint64_t *bus_hash)
{
	struct world w;
	struct pci_target_policy pol = { 2, 4, 2, 20, 10, false, 0 };
	struct rx_driver d;
	uint64_t h = 0xCBF29CE484222325ull;
	uint8_t buf[BUF_SIZE];

	world_init(&w, true, true, &pol, seed);
	world_enumerate(&w);
	pci_enable_msi(&w.hb, w.nic_dev, MSI_ADDR, 0x41, 1);
	rxd_setup(&d, &w, 32, 1000.0, 4000.0, seed);
	nic_e1000_traffic(&w.nic, 400000.0, 128, 200, pci_sim_ns(&w.sim) + 1000.0);
	for (int i = 0; i < 40000; i++) {
		pci_sim_step(&w.sim);
		h = fnv(h, &w.sim.sig, sizeof(w.sim.sig));
	}
	*bus_hash = h;
	h = 0xCBF29CE484222325ull;
	for (uint32_t i = 0; i < 32; i++) {
		host_mem_read(&w.hb.mem, BUF_BASE + BUF_SIZE * i, buf, sizeof(buf));
		h = fnv(h, buf, sizeof(buf));
	}
	check(w.chk.violations == 0, "seed %llu: %s", (unsigned long long)seed, w.chk.first_msg);
	check(d.delivered > 100, "seed %llu: only %llu packets delivered", (unsigned long long)seed,
	      (unsigned long long)d.delivered);
	free(d.icr);
	world_free(&w);
	return h;
}

static void t_deterministic(void)
{
	uint64_t b1, b2, b3;
	uint64_t m1 = scenario(31, &b1), m2 = scenario(31, &b2), m3 = scenario(32, &b3);

	printf("seed 31: bus %016llx memory %016llx; again: %016llx %016llx; seed 32: bus %016llx\n",
	       (unsigned long long)b1, (unsigned long long)m1, (unsigned long long)b2,
	       (unsigned long long)m2, (unsigned long long)b3);
	check(b1 == b2 && m1 == m2, "the same seed gave a different run");
	/* memory holds the same packets whatever the timing: only the bus differs */
	check(b1 != b3 && m1 == m3, "seed 32: bus %s, memory %s", b1 == b3 ? "the same (seed not used)" : "differs",
	      m1 == m3 ? "the same" : "differs (timing changed the data)");
}

/* ---- checker self-test ------------------------------------------------- */

/* A real trace (bridge, NIC DMA through a random bridge target, register
 * reads, master aborts), then one targeted corruption per rule. */
struct trace {
	struct pci_sig *s;
	size_t n;
};

static void record_trace(struct trace *tr)
{
	struct world w;
	struct pci_target_policy pol = { 2, 3, 2, 20, 20, false, 0 };
	struct rx_driver d;

	world_init(&w, false, true, &pol, 21);
	world_enumerate(&w);
	pci_enable_msi(&w.hb, w.nic_dev, MSI_ADDR, 0x41, 1);
	rxd_setup(&d, &w, 32, 500.0, 500.0, 3);
	nic_e1000_traffic(&w.nic, 500000.0, 100, 40, pci_sim_ns(&w.sim) + 1000.0);
	tr->n = 0;
	tr->s = malloc(sizeof(*tr->s) * 60000);
	if (!tr->s)
		exit(2);
	for (int i = 0; i < 60000; i++) {
		pci_sim_step(&w.sim);
		tr->s[tr->n++] = w.sim.sig;
		if (i == 30000)   /* a master abort in the trace */
			hb_submit(&w.hb, PCI_CMD_CFG_READ, 1u << (16 + 9), 0, 0);
	}
	check(w.chk.violations == 0, "self-test trace not clean: %s", w.chk.first_msg);
	check(d.delivered == 40, "self-test trace delivered %llu of 40 packets",
	      (unsigned long long)d.delivered);
	free(d.icr);
	world_free(&w);
}

static struct pci_checker judge(const struct trace *tr)
{
	struct pci_checker c;

	pci_checker_init(&c);
	c.quiet = true;
	for (size_t i = 0; i < tr->n; i++)
		pci_checker_clock(&c, &tr->s[i], i + 1);
	return c;
}

/* find clock k >= from where pred holds; -1 if none */
typedef bool (*trace_pred)(const struct pci_sig *p, const struct pci_sig *s,
			   const struct pci_sig *nx);

static long find(const struct trace *tr, size_t from, trace_pred f)
{
	for (size_t k = from > 0 ? from : 1; k + 1 < tr->n; k++)
		if (f(&tr->s[k - 1], &tr->s[k], &tr->s[k + 1]))
			return (long)k;
	return -1;
}

static bool is_addr(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)nx;
	return p->frame && !s->frame;
}
static bool is_write_addr(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	return is_addr(p, s, nx) && s->cbe == PCI_CMD_MEM_WRITE;
}
static bool is_xfer(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)p;
	(void)nx;
	return !s->irdy && !s->trdy;
}
static bool is_last_xfer(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)nx;
	return !p->frame && s->frame && !s->irdy;
}
static bool is_trdy_release(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)p;
	return s->drv[PCI_TRDY] >= 0 && s->trdy && nx->drv[PCI_TRDY] == PCI_DRV_NONE;
}
static bool is_write_wait(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	/* a waiting write data phase followed by another clock of it */
	(void)p;
	return !s->irdy && s->trdy && s->stop && !nx->irdy && s->cbe == 0 && s->drv[PCI_AD] >= 0 &&
	       s->drv[PCI_AD] == s->drv[PCI_FRAME] && s->drv[PCI_TRDY] >= 0;
}
static bool is_stop_frame(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)p;
	return !s->stop && !s->frame && !nx->stop;
}
static bool is_idle_run(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	return pci_idle(p) && pci_idle(s) && pci_idle(nx) && s->trdy && s->devsel;
}
static bool is_ad_handover(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)nx;
	return p->drv[PCI_AD] == PCI_DRV_NONE && s->drv[PCI_AD] >= 0 && !s->frame;
}
static bool is_wait(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	(void)nx;
	return !p->irdy && !s->irdy && s->trdy && s->stop && !s->devsel;
}
static bool is_wait_last(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	return is_wait(p, s, nx) && s->frame;
}

/* the address phase of a write whose data phases last six clocks or more */
static long find_long_write(const struct trace *tr, size_t from)
{
	for (size_t k = from; k + 8 < tr->n; k++) {
		bool ok = is_write_addr(&tr->s[k - 1], &tr->s[k], &tr->s[k + 1]);

		for (size_t i = k + 1; ok && i <= k + 6; i++)
			ok = !tr->s[i].irdy;
		if (ok)
			return (long)k;
	}
	return -1;
}

static void expect_caught(const struct trace *base, long k, const char *what, enum pci_rule rule,
			  void (*mutate)(struct pci_sig *s, long k))
{
	if (k < 0) {
		check(0, "self-test: no place in the trace for '%s'", what);
		return;
	}
	struct trace t = { malloc(sizeof(*base->s) * base->n), base->n };

	if (!t.s)
		exit(2);
	memcpy(t.s, base->s, sizeof(*base->s) * base->n);
	mutate(t.s, k);
	struct pci_checker c = judge(&t);

	printf("self-test %-44s -> %s\n", what, c.violations ? c.first_msg : "NOT CAUGHT");
	check(c.count[rule] > 0, "self-test: '%s' not caught as %s", what, pci_rule_name[rule]);
	/* the corruptions span up to six clocks from k */
	check(c.violations == 0 || (c.first_clk >= (uint64_t)k && c.first_clk <= (uint64_t)k + 7),
	      "self-test: '%s' first reported at clock %llu, corrupted at %ld", what,
	      (unsigned long long)c.first_clk, k + 1);
	free(t.s);
}

static void m_contention(struct pci_sig *s, long k) { s[k].drv[PCI_AD] = PCI_DRV_MANY; }
static void m_turnaround(struct pci_sig *s, long k) { s[k - 1].drv[PCI_AD] = (int8_t)((s[k].drv[PCI_AD] + 1) % 3); }
static void m_release_low(struct pci_sig *s, long k) { s[k].trdy = 0; }
static void m_frame_deassert(struct pci_sig *s, long k) { s[k].irdy = 1; }
static void m_frame_reassert(struct pci_sig *s, long k) { s[k + 1].frame = 0; s[k + 1].irdy = 0; }
static void m_irdy_hold(struct pci_sig *s, long k) { s[k + 1].irdy = 1; }
static void m_trdy_hold(struct pci_sig *s, long k) { s[k].irdy = 1; s[k + 1].irdy = 0; s[k + 1].trdy = 1; }
static void m_stop_hold(struct pci_sig *s, long k) { s[k + 1].stop = 1; }
static void m_no_devsel(struct pci_sig *s, long k) { s[k].devsel = 1; }
static void m_devsel_late(struct pci_sig *s, long k)
{
	/* delay the claim: DEVSEL# (and the data phase) five clocks late */
	for (long i = k + 1; i <= k + 5; i++)
		s[i].devsel = 1;
	s[k + 5].devsel = 0;
}
static void m_master_abort(struct pci_sig *s, long k)
{
	/* the empty-slot read: keep IRDY# asserted three more clocks */
	for (long i = k + 1; i < k + 10; i++)
		if (s[i].irdy) {
			for (long j = i; j < i + 3; j++) {
				s[j].irdy = 0;
				s[j].cbe = s[i - 1].cbe;   /* byte enables held too */
			}
			break;
		}
}
static void m_outside(struct pci_sig *s, long k) { s[k].trdy = 0; }
static void m_stable(struct pci_sig *s, long k) { s[k + 1].ad ^= 0x100; s[k + 2].par ^= 1; }
static void m_ad_undriven(struct pci_sig *s, long k) { s[k].drv[PCI_AD] = PCI_DRV_NONE; }
static void m_parity(struct pci_sig *s, long k) { s[k + 1].par ^= 1; }

static bool is_mabort(const struct pci_sig *p, const struct pci_sig *s, const struct pci_sig *nx)
{
	return is_addr(p, s, nx) && s->cbe == PCI_CMD_CFG_READ && s->ad == 1u << (16 + 9);
}

static void t_checker_selftest(void)
{
	struct trace tr;

	record_trace(&tr);
	struct pci_checker clean = judge(&tr);

	printf("baseline trace: %zu clocks, %llu transactions, %llu retries, %llu disconnects, "
	       "%llu wait clocks, %llu master aborts, %llu violations\n", tr.n,
	       (unsigned long long)clean.transactions, (unsigned long long)clean.retries,
	       (unsigned long long)clean.disconnects, (unsigned long long)clean.wait_clocks,
	       (unsigned long long)clean.master_aborts, (unsigned long long)clean.violations);
	check(clean.violations == 0, "baseline trace judged dirty: %s", clean.first_msg);
	long mab = find(&tr, 30000, is_mabort);

	expect_caught(&tr, find(&tr, 100, is_addr), "two drivers on AD", PCI_R_CONTENTION, m_contention);
	expect_caught(&tr, find(&tr, 100, is_ad_handover), "AD handed over without turnaround",
		      PCI_R_TURNAROUND, m_turnaround);
	expect_caught(&tr, find(&tr, 100, is_trdy_release), "TRDY# released while low",
		      PCI_R_RELEASE_LOW, m_release_low);
	expect_caught(&tr, find(&tr, 100, is_last_xfer), "FRAME# deasserted without IRDY#",
		      PCI_R_FRAME_DEASSERT, m_frame_deassert);
	expect_caught(&tr, find(&tr, 100, is_wait_last), "FRAME# reasserted in a waiting phase",
		      PCI_R_FRAME_REASSERT, m_frame_reassert);
	expect_caught(&tr, find(&tr, 100, is_wait), "IRDY# dropped while waiting",
		      PCI_R_IRDY_HOLD, m_irdy_hold);
	expect_caught(&tr, find(&tr, 100, is_xfer), "TRDY# dropped before completion",
		      PCI_R_TRDY_HOLD, m_trdy_hold);
	expect_caught(&tr, find(&tr, 100, is_stop_frame), "STOP# dropped before FRAME#",
		      PCI_R_STOP_HOLD, m_stop_hold);
	expect_caught(&tr, find(&tr, 100, is_xfer), "TRDY# without DEVSEL#", PCI_R_NO_DEVSEL,
		      m_no_devsel);
	expect_caught(&tr, find_long_write(&tr, 100), "DEVSEL# 5 clocks after address",
		      PCI_R_DEVSEL_LATE, m_devsel_late);
	expect_caught(&tr, mab, "master abort with IRDY# held", PCI_R_MASTER_ABORT, m_master_abort);
	expect_caught(&tr, find(&tr, 100, is_idle_run), "TRDY# on an idle bus", PCI_R_OUTSIDE,
		      m_outside);
	expect_caught(&tr, find(&tr, 100, is_write_wait), "write data changed while waiting",
		      PCI_R_STABLE, m_stable);
	expect_caught(&tr, find(&tr, 100, is_xfer), "AD undriven in a transfer", PCI_R_AD_UNDRIVEN,
		      m_ad_undriven);
	expect_caught(&tr, find(&tr, 100, is_addr), "bad address parity", PCI_R_PARITY, m_parity);
	check(mab >= 0, "no master abort in the trace");
	free(tr.s);
}

/* The checker on a live bus: one agent at a time breaks one rule on
 * purpose (PCI_TFAULT_* / PCI_MFAULT_*), the rest is a normal run of NIC
 * traffic and register reads; the checker must name that rule. */
static void live_fault(const char *what, int bridge_tfault, int nic_tfault, int bridge_mfault,
		       enum pci_rule rule)
{
	struct world w;
	struct pci_target_policy pol = { 2, 2, 1, 0, 0, false, bridge_tfault };
	struct rx_driver d;

	world_init(&w, false, true, &rig_quiet_bridge, 41);
	w.chk.quiet = true;
	world_enumerate(&w);
	pci_enable_msi(&w.hb, w.nic_dev, MSI_ADDR, 0x41, 1);
	rxd_setup(&d, &w, 32, 500.0, 500.0, 41);
	/* faults from here on: enumeration and setup ran on a correct bus */
	w.hb.t.pol = pol;
	w.nic.t.pol.fault = nic_tfault;
	w.hb.m.fault = bridge_mfault;
	nic_e1000_traffic(&w.nic, 500000.0, 64, 20, pci_sim_ns(&w.sim) + 1000.0);
	for (int i = 0; i < 20000 && !w.chk.count[rule]; i++)
		pci_sim_step(&w.sim);
	printf("live %-40s -> %s\n", what, w.chk.violations ? w.chk.first_msg : "NOT CAUGHT");
	check(w.chk.count[rule] > 0, "live fault '%s' not caught as %s", what, pci_rule_name[rule]);
	free(d.icr);
	world_free(&w);
}

static void t_checker_live(void)
{
	live_fault("bridge target: bad PAR on read data", PCI_TFAULT_BAD_PAR, 0, 0, PCI_R_PARITY);
	live_fault("bridge target: TRDY# released while low", PCI_TFAULT_NO_HIGH, 0, 0,
		   PCI_R_RELEASE_LOW);
	live_fault("NIC registers: DEVSEL# at A+5", 0, PCI_TFAULT_LATE_DEVSEL, 0, PCI_R_DEVSEL_LATE);
	live_fault("bridge master: IRDY# dropped while waiting", 0, 0, PCI_MFAULT_IRDY_EARLY,
		   PCI_R_IRDY_HOLD);
	live_fault("bridge master: AD driven into read turnaround", 0, 0, PCI_MFAULT_NO_TURN,
		   PCI_R_TURNAROUND);
}

/* The demo's interrupt-latency model (stamp_rig.c, isr_latency_thesis)
 * against its source, the thesis's Table 5.7 (100 kpps column, arrival ->
 * software stamp, us): the model runs from the interrupt, so 0.7 us of
 * NIC path is added back before comparing. Tolerances: 0.1 us on the
 * body's quantiles and mean, 0.3 us on the p99 (the second peak's mass). */
static void t_isr_model(void)
{
	static const struct { const char *what; double q, want, tol; } row[] = {
		{ "p25", 0.25, 7.07, 0.1 }, { "p50", 0.50, 7.36, 0.1 },
		{ "p75", 0.75, 7.61, 0.1 }, { "p99", 0.99, 11.49, 0.3 },
	};
	size_t n = 1000000;
	double *v = malloc(n * sizeof(double)), sum = 0;
	struct pci_rng r;

	if (!v)
		exit(2);
	pci_rng_seed(&r, 9);
	for (size_t i = 0; i < n; i++) {
		v[i] = (isr_latency_thesis(&r) + 700.0) / 1000.0;
		sum += v[i];
	}
	qsort(v, n, sizeof(double), cmp_double);
	printf("model + 0.7 us (us): mean %.2f min %.2f p25 %.2f p50 %.2f p75 %.2f p99 %.2f max %.2f\n",
	       sum / (double)n, v[0], v[n / 4], v[n / 2], v[3 * n / 4], v[n * 99 / 100], v[n - 1]);
	check(fabs(sum / (double)n - 7.42) <= 0.1, "mean %.2f us, table 7.42", sum / (double)n);
	for (size_t k = 0; k < sizeof(row) / sizeof(row[0]); k++) {
		double got = v[(size_t)(row[k].q * (double)(n - 1))];

		check(fabs(got - row[k].want) <= row[k].tol, "%s %.2f us, table %.2f", row[k].what, got,
		      row[k].want);
	}
	/* 10^6 draws, not the table's 10^7: min above its 4.50, max in its
	 * tens of us */
	check(v[0] >= 4.5 && v[n - 1] >= 15.0 && v[n - 1] <= 45.0, "min %.2f max %.2f us", v[0],
	      v[n - 1]);
	free(v);
}

/* ---- main ---------------------------------------------------------------- */

/*
 * open: a test that shows a known, not yet fixed bug of the design (the
 * reason, where it is written up). `--list` (what `make test-pcibus` runs)
 * leaves it out so the suite judges what works; `--list-open` names it,
 * the suite prints it as a note, and `make stamp-bench` still runs it and
 * shows the failure. Remove the mark with the fix.
 */
/*
 * Event stamps to the host ring (event block 1.1, docs/stamping.md 12):
 * edges on both event inputs, each stamp read from host memory where the
 * card's DMA put it, against the true edge time (card time - true time
 * calibrated through the register pops first); the ring base's ignored
 * low bits, the FIFO drained by the card, nothing written outside words
 * 0..2 of the entries used, the register path unchanged for the host
 * meanwhile (scratch), disable waits for busy = 0. Every bus cycle goes
 * through the protocol checker.
 */
#define EVR_BASE 0x00300000u
static void t_event_ring(void)
{
	struct world w;
	enum { N = 6 };
	uint64_t at[N];
	uint32_t bytes, size_log2, ctrl;

	world_init(&w, true, false, &rig_quiet_bridge, 5);
	world_enumerate(&w);
	if (!w.card_dev) {
		check(0, "card not found");
		world_free(&w);
		return;
	}
	double off = calibrate_card_time(&w);

	ctrl = card_rd(&w, SYNPCIX_EVENT_RING_CTRL);
	size_log2 = (ctrl & SYNPCIX_EVENT_RING_CTRL_SIZE_LOG2_MASK) >>
		    SYNPCIX_EVENT_RING_CTRL_SIZE_LOG2_SHIFT;
	bytes = 16u << size_log2;
	check((card_rd(&w, SYNPCIX_EVENT_BASE + SYNPCIX_BLK_VERSION) & 0xFFFF) >= 1 && size_log2 >= 3,
	      "event block 0x%08X, ring_ctrl 0x%08X", card_rd(&w, SYNPCIX_EVENT_BASE + SYNPCIX_BLK_VERSION), ctrl);
	/* the ring and a guard word on either side, all 0 */
	for (uint32_t a = EVR_BASE - 4; a < EVR_BASE + bytes + 4; a += 4)
		host_mem_write32(&w.hb.mem, a, 0, 0);
	card_wr(&w, SYNPCIX_EVENT_RING_BASE, EVR_BASE | (bytes - 4));   /* junk below the size */
	card_wr(&w, SYNPCIX_EVENT_RING_RD, 0);
	card_wr(&w, SYNPCIX_EVENT_RING_CTRL, SYNPCIX_EVENT_RING_CTRL_ENABLE_MASK);
	card_wr(&w, SYNPCIX_EVENT_CTRL, 3);   /* inputs 0 and 1, rising edges */
	for (int k = 0; k < N; k++) {
		at[k] = card_agent_next_edge_ps(w.card) +
			(uint64_t)(30 + k) * (uint64_t)(PCI_PERIOD_NS * 1000.0 + 0.5);
		card_agent_set_event(w.card, 1u << (k & 1), at[k]);
		hb_run(&w.hb, 60);
		card_agent_set_event(w.card, 0, card_agent_next_edge_ps(w.card));
		/* the host's register traffic goes on meanwhile */
		card_wr(&w, SYNPCIX_ID_SCRATCH, 0x5A000000u + (uint32_t)k);
		check(card_rd(&w, SYNPCIX_ID_SCRATCH) == 0x5A000000u + (uint32_t)k,
		      "scratch read back wrong while the ring runs");
		hb_run(&w.hb, 60);
	}
	hb_run(&w.hb, 400);
	double worst = 0;
	for (int k = 0; k < N; k++) {
		uint32_t e = EVR_BASE + 16u * (uint32_t)k;
		uint32_t lo = host_mem_read32(&w.hb.mem, e), hi = host_mem_read32(&w.hb.mem, e + 4);
		uint32_t info = host_mem_read32(&w.hb.mem, e + 8);
		double d = (double)((uint64_t)hi << 32 | lo) - (double)at[k] / 1000.0 - off;

		check((info & SYNPCIX_EVENT_STAMP_INFO_VALID_MASK) &&
		      (info & SYNPCIX_EVENT_STAMP_INFO_CHANNEL_MASK) == (uint32_t)(k & 1) &&
		      fabs(d) <= 8.0,
		      "entry %d: info %08X, stamp - (truth + calibration) %.1f ns", k, info, d);
		check(host_mem_read32(&w.hb.mem, e + 12) == 0, "entry %d word 3 written", k);
		if (fabs(d) > worst)
			worst = fabs(d);
	}
	check(host_mem_read32(&w.hb.mem, EVR_BASE + 16u * N + 8) == 0, "an entry beyond the %d stamps", N);
	check(host_mem_read32(&w.hb.mem, EVR_BASE - 4) == 0 &&
	      host_mem_read32(&w.hb.mem, EVR_BASE + bytes) == 0, "write outside the ring");
	ctrl = card_rd(&w, SYNPCIX_EVENT_RING_CTRL);
	check((ctrl & SYNPCIX_EVENT_RING_CTRL_WR_MASK) >> SYNPCIX_EVENT_RING_CTRL_WR_SHIFT == N &&
	      !(ctrl & SYNPCIX_EVENT_RING_CTRL_OVERRUNS_MASK),
	      "ring_ctrl 0x%08X: wr, want %d, no overruns", ctrl, N);
	check((card_rd(&w, SYNPCIX_EVENT_STATUS) & SYNPCIX_EVENT_STATUS_LEVEL_MASK) == 0,
	      "the card left stamps in the FIFO");
	card_wr(&w, SYNPCIX_EVENT_CTRL, 0);
	card_wr(&w, SYNPCIX_EVENT_RING_CTRL, 0);
	/* a status poll of the block's own may still be in flight at the
	 * disable (an event.status read takes ~19 bus clocks): busy must clear
	 * within that one read, as the driver waits for it before freeing */
	int polls = 0;
	do
		ctrl = card_rd(&w, SYNPCIX_EVENT_RING_CTRL);
	while ((ctrl & SYNPCIX_EVENT_RING_CTRL_BUSY_MASK) && ++polls < 4);
	check(!(ctrl & (SYNPCIX_EVENT_RING_CTRL_BUSY_MASK | SYNPCIX_EVENT_RING_CTRL_DMA_ERROR_MASK)),
	      "ring_ctrl 0x%08X after disable (%d reads)", ctrl, polls + 1);
	printf("event ring: %d stamps in host memory by DMA, worst |stamp - truth - calibration| %.1f ns\n",
	       N, worst);
	checker_verdict(&w);
	world_free(&w);
}

static const struct {
	const char *name;
	void (*fn)(void);
	const char *open;
} tests[] = {
	{ "checker_selftest", t_checker_selftest, NULL },
	{ "checker_live", t_checker_live, NULL },
	{ "enumerate", t_enumerate, NULL },
	{ "card_regs", t_card_regs, NULL },
	{ "random_waits", t_random_waits, NULL },
	{ "nic_100k", t_nic_100k, NULL },
	{ "nic_1488k", t_nic_1488k, NULL },
	{ "nic_msi_to_card", t_nic_msi_to_card, NULL },
	{ "deterministic", t_deterministic, NULL },
	{ "stamp_100k", t_stamp_100k, NULL },
	/* the late-MSI pairing race, closed by pairing by count (the card
	 * reads RDH after ICR: docs/stamping.md 5) */
	{ "stamp_100k_rx_only", t_stamp_100k_rx_only, NULL },
	{ "stamp_1488k", t_stamp_1488k, NULL },
	{ "stamp_overload", t_stamp_overload, NULL },
	{ "stamp_disabled_slot", t_stamp_disabled_slot, NULL },
	{ "isr_model", t_isr_model, NULL },
	{ "event_ring", t_event_ring, NULL },
};

int main(int argc, char **argv)
{
	size_t nt = sizeof(tests) / sizeof(tests[0]);

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (size_t i = 0; i < nt; i++)
			if (!tests[i].open)
				printf("%s\n", tests[i].name);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "--list-open")) {
		for (size_t i = 0; i < nt; i++)
			if (tests[i].open)
				printf("%s: %s\n", tests[i].name, tests[i].open);
		return 0;
	}
	if (argc != 2) {
		fprintf(stderr, "usage: %s --list | --list-open | TEST\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < nt; i++)
		if (!strcmp(argv[1], tests[i].name)) {
			tests[i].fn();
			if (failures) {
				printf("%s: FAIL (%d checks)\n", tests[i].name, failures);
				return 1;
			}
			printf("%s: PASS\n", tests[i].name);
			return 0;
		}
	fprintf(stderr, "%s: no test '%s' (--list shows them)\n", argv[0], argv[1]);
	return 2;
}
