// SPDX-License-Identifier: GPL-2.0-only
/*
 * Co-simulation: the driver core (driver/core/, the same source that is
 * compiled into synpcix.ko) against the Verilator model of the card's
 * gateware (sim/verilator/card_sim.h), through the user-space access layer.
 * Delays of the core advance simulated time; the system-time bracket of a
 * clock read is the simulation's true time, so read jitter and adjfine
 * accuracy are measured against truth.
 *
 * The MSI capture slots are cosim_slot.c's. Output format: cosim.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "cosim.h"
#include "world.h"

int failures;

static struct card *card;

static void sim_udelay(void *ctx, unsigned int us)
{
	card_run_for(ctx, us * 1000.0);
}

static u64 sim_systime(void *ctx)
{
	return (u64)llround(card_now_ns(ctx));
}

const struct spx_os_ops sim_ops = {
	.read32 = card_read32,
	.write32 = card_write32,
	.udelay = sim_udelay,
	.systime_ns = sim_systime,
};

/*
 * Card time against true time: one bracketed read gives card ns at the
 * midpoint of the bracket. Returns card_ns - true_ns (ns, double) and the
 * bracket width.
 */
static double card_offset(struct spx_hw *hw, double *width)
{
	spx_systs sts;
	u64 ns;
	u32 frac;

	if (spx_read_time(hw, &ns, &frac, &sts))
		return NAN;
	if (width)
		*width = (double)(sts.post_ns - sts.pre_ns);
	/* card time is ~2^60 ns: subtract in integers first, a double of
	 * the absolute time would keep only 256 ns
	 */
	return (double)(s64)(ns - sts.pre_ns) + frac / 4294967296.0 -
	       (double)(sts.post_ns - sts.pre_ns) / 2.0;
}

/*
 * Card time minus true time straight from the model (its timebase port, no
 * register access): the reference for checking stamps and output edges.
 * card_offset() above goes through the driver's read, whose latch sits at a
 * fixed point inside the read, not at its middle; the difference between
 * the two is printed as the read's bracket bias.
 */
static double model_offset(void)
{
	return (double)card_time_ns(card) - card_now_ns(card);
}

static void pulse(double t_ns, int pin, double width_ns)
{
	card_input_at(card, t_ns, pin, 1);
	card_input_at(card, t_ns + width_ns, pin, 0);
}

/*
 * Event ring (event block 1.1): host memory is one aligned ring at a bus
 * address below 4 GiB (the card's ring base is 32-bit); the DMA callback
 * writes only inside it (words 0..2 of an entry), anything else is a
 * master abort, as an unclaimed address on the bus, and is counted.
 */
static struct {
	u32 *mem;
	u64 bus;
	u32 bytes;
	unsigned long outside, words;
} evr;

static int evring_dma(void *ctx, int write, uint64_t addr, uint32_t *words, unsigned n)
{
	(void)ctx;
	if (!write || addr < evr.bus || addr + 4ULL * n > evr.bus + evr.bytes ||
	    ((addr - evr.bus) & 12) == 12) {
		evr.outside++;
		return CARD_DMA_MASTER_ABORT;
	}
	memcpy((char *)evr.mem + (addr - evr.bus), words, 4 * n);
	evr.words += n;
	return CARD_DMA_OK;
}

/* n rising edges of input ch, spacing_ns apart from card_now + lead */
static void evring_pulses(int ch, int n, double lead_ns, double spacing_ns, double *times)
{
	double t0 = card_now_ns(card) + lead_ns;
	int i;

	for (i = 0; i < n; i++) {
		times[i] = t0 + i * spacing_ns;
		pulse(times[i], CARD_PIN_EVENT(ch), spacing_ns / 2);
		/* keep the model's input queue short */
		if (i % 8 == 7)
			card_run_for(card, times[i] - card_now_ns(card) + 1.0);
	}
	card_run_for(card, times[n - 1] - card_now_ns(card) + 20000.0);
}

static void evring_test(struct spx_hw *hw)
{
	enum { N = 300 };
	static double times[N];
	struct spx_event ev;
	double off0, worst = 0;
	u32 bytes = 0, entries, ovr = 0;
	int err, got, i, bad = 0;
	u16 seq0 = 0;
	int first = hw->n_events >= 2 ? 4 : 3;	/* stamps of the first part */

	err = spx_evring_bytes(hw, &bytes);
	TEST("evring-supported", err == 0 && bytes >= 16 && !(bytes & (bytes - 1)),
	     "err %d, %u bytes (event block version 0x%08x)", err, bytes,
	     hw->version[SPX_BLK_EVENT]);
	if (err)
		return;
	entries = bytes / SPX_EVRING_ENTRY_BYTES;
	evr.bytes = bytes;
	evr.bus = 0x12345000ULL;
	evr.mem = aligned_alloc(bytes, bytes);
	if (!evr.mem) {
		TEST("evring-alloc", 0, "out of memory");
		return;
	}
	card_set_dma(card, evring_dma, NULL);

	TEST("evring-start-refuses-misaligned",
	     spx_evring_start(hw, evr.mem, evr.bus + 16, bytes) == -EINVAL, "accepted");
	TEST("evring-start-refuses-above-4g",
	     spx_evring_start(hw, evr.mem, 0x100000000ULL, bytes) == -EINVAL, "accepted");
	err = spx_evring_start(hw, evr.mem, evr.bus, bytes);
	spx_event_enable(hw, 0, true, false);
	if (hw->n_events >= 2)
		spx_event_enable(hw, 1, true, true);

	/* four stamps, one on the falling edge of input 1: right time, no MMIO */
	off0 = model_offset();
	evring_pulses(0, 3, 5000.3, 3000.0, times);
	if (hw->n_events >= 2) {
		times[3] = card_now_ns(card) + 4000.6;
		pulse(times[3], CARD_PIN_EVENT(1), 1500);
		card_run_for(card, 30000);
		times[3] += 1500;
	}
	{
		unsigned long rd = hw->os.reads, wr = hw->os.writes;
		for (i = 0; i < first; i++) {
			got = spx_evring_poll(hw, &ev);
			if (got != 1 || ev.channel != (i < 3 ? 0u : 1u) ||
			    fabs((double)ev.ns - (times[i] + off0)) >= 16.0) {
				printf("# evring entry %d: got %d ch %u, stamp - truth %.1f ns\n", i,
				       got, ev.channel, (double)ev.ns - (times[i] + off0));
				bad++;
			}
			if (i == 0)
				seq0 = ev.seq;
		}
		TEST("evring-stamps", err == 0 && bad == 0 && spx_evring_poll(hw, &ev) == 0,
		     "start %d, %d bad entries (or a fifth)", err, bad);
		TEST("evring-poll-no-mmio", hw->os.reads == rd && hw->os.writes == wr,
		     "%lu reads, %lu writes", hw->os.reads - rd, hw->os.writes - wr);
	}
	TEST("evring-register-pop-refused", spx_event_pop(hw, &ev) == -EBUSY, "pop allowed");
	err = spx_evring_ack(hw, &ovr);
	TEST("evring-ack", err == 0 && ovr == 0, "err %d, overruns %u", err, ovr);

	/*
	 * An enabled ring with nothing pending must not delay the host: a
	 * register read that waits behind one of the ring's own event.status
	 * reads latches the time up to 19 bus clocks later than its bracket
	 * says (phc2sys and gettimex64 pair the latch with the bracket). So
	 * reads at every phase against the ring's activity take the same bus
	 * clocks (the card's clock-domain crossing moves them by one at most).
	 */
	{
		u64 c0, c1, mn = ~0ULL, mx = 0;

		for (i = 0; i < 96; i++) {
			card_run_for(card, 15.0 * (i % 23) + 3.0);
			c0 = card_bus_clocks(card);
			card_read32(card, hw->base[SPX_BLK_CLOCK] + SPX_REL(CLOCK, TIME_NS_LO));
			c1 = card_bus_clocks(card);
			mn = c1 - c0 < mn ? c1 - c0 : mn;
			mx = c1 - c0 > mx ? c1 - c0 : mx;
		}
		printf("# evring idle: time_ns_lo reads took %llu..%llu bus clocks\n",
		       (unsigned long long)mn, (unsigned long long)mx);
		TEST("evring-idle-reads-do-not-wait", mx - mn <= 1, "%llu..%llu bus clocks",
		     (unsigned long long)mn, (unsigned long long)mx);
	}

	/* the driver behind: N edges into the ring without taking any */
	off0 = model_offset();
	evring_pulses(0, N, 2000.0, 3000.0, times);
	for (i = 0; i < (int)entries; i++) {
		got = spx_evring_poll(hw, &ev);
		if (got != 1 || fabs((double)ev.ns - (times[i] + off0)) >= 16.0) {
			if (bad++ < 3)
				printf("# evring full-ring entry %d: got %d, stamp - truth %.1f ns\n",
				       i, got, (double)ev.ns - (times[i] + off0));
		} else if (fabs((double)ev.ns - (times[i] + off0)) > worst) {
			worst = fabs((double)ev.ns - (times[i] + off0));
		}
	}
	got = spx_evring_poll(hw, &ev);
	err = spx_evring_ack(hw, &ovr);
	TEST("evring-full-drops-and-counts", bad == 0 && got == 0 && err == 0 &&
	     ovr == (u32)(N - (int)entries),
	     "%d bad entries, extra %d, ack %d, overruns %u (want %d)", bad, got, err, ovr,
	     N - (int)entries);
	printf("# evring: %u entries, %d edges into a full ring, worst |stamp - truth| %.1f ns, "
	       "%lu words written\n", entries, N, worst, evr.words);
	/* after the drops the ring goes on (wrapped), the sequence shows the gap */
	evring_pulses(0, 2, 3000.0, 2000.0, times);
	got = spx_evring_poll(hw, &ev);
	TEST("evring-wraps-after-overrun", got == 1 && spx_evring_poll(hw, &ev) == 1 &&
	     (u16)(ev.seq - seq0) == (u16)(first + N + 1) && hw->events_lost >= (u64)(N - (int)entries),
	     "got %d seq %u (first %u), lost %llu", got, ev.seq, seq0,
	     (unsigned long long)hw->events_lost);
	spx_evring_ack(hw, NULL);

	/* stop: the register path again */
	err = spx_evring_stop(hw);
	evring_pulses(0, 1, 3000.0, 2000.0, times);
	got = spx_event_pop(hw, &ev);
	TEST("evring-stop-then-register-pop", err == 0 && got == 1, "stop %d pop %d", err, got);

	/* a ring at an address nothing answers: DMA error, the ring stops */
	{
		unsigned long outside = evr.outside;

		err = spx_evring_start(hw, evr.mem, 0x30000000ULL, bytes);
		evring_pulses(0, 2, 3000.0, 2000.0, times);
		got = spx_evring_ack(hw, NULL);
		TEST("evring-dma-error-stops", err == 0 && got == -EIO && evr.outside == outside + 1,
		     "start %d ack %d, %lu rejected writes", err, got, evr.outside - outside);
		err = spx_evring_stop(hw);
		TEST("evring-stop-after-error", err == 0, "%d", err);
	}
	spx_event_enable(hw, 0, false, false);
	if (hw->n_events >= 2)
		spx_event_enable(hw, 1, false, false);
	while (spx_event_pop(hw, &ev) == 1)
		;
	card_set_dma(card, NULL, NULL);
	TEST("evring-writes-only-in-ring", evr.outside == 1, "%lu writes outside", evr.outside);
	free(evr.mem);
}

/*
 * The card's own servo, driven through the core (what the sysfs files
 * show): a GPS receiver and a +20 ppm oscillator from the simulation's world
 * models, one PPS interval = 10 ms of simulated time standing for 1 s.
 * SERVO mode must lock within 10 (scaled) seconds, the status must say so,
 * adjfine must be refused meanwhile, and losing PPS must give HOLDOVER.
 */
static void servo_test(void)
{
	const struct world_params wp = { .interval_ns = 10e6, .offset_ppm = 20.0,
					 .seed = 7, .phase_faithful = 1 };
	static struct world wo;
	struct spx_pps_status st;
	struct spx_hw h;
	int k, lock_k = -1, err;

	world_init(&wo, &wp);
	memset(&h, 0, sizeof(h));
	h.os.ops = &sim_ops;
	h.os.ctx = wo.card;
	h.os.log_level = 2;
	err = spx_probe(&h);
	world_probe(&wo);
	world_config_servo(&wo, 0.7, 0.3, 1.0);	/* time-scaled register setup */
	world_run_until(&wo, 0.5 * wo.interval_ns);
	world_set_time(&wo, 0);
	err = err ? err : spx_pps_set_mode(&h, SPX_PPS_SERVO);
	for (k = 1; k <= 30 && !err; k++) {
		world_run_to_second(&wo, k);
		if (spx_pps_get_status(&h, &st) == 0 && st.state == SYNPCIX_PPS_STATUS_STATE_LOCKED) {
			lock_k = k;
			break;
		}
	}
	/* the oscillator offset is scaled with the second (x100 here) */
	printf("# servo: +20 ppm oscillator locked at scaled second %d, offset %d ns, freq_adj %+.2f ppm (scaled back)\n",
	       lock_k, st.offset_ns,
	       spx_period_to_ppb(h.nominal_period_fp, h.nominal_period_fp + (s64)st.freq_adj) *
	       wo.scale / 1000.0);
	/* the lock-time bar (< 10 s from 100 ppm) is the gateware's test; here
	 * the driver must see the lock the card reports */
	TEST("servo-locks", !err && lock_k > 0 && st.present &&
	     st.mode == SPX_PPS_SERVO, "err %d, state %u after %d s", err, st.state, k - 1);
	TEST("servo-status-offset", abs(st.offset_ns) < 100 && st.edges >= 2,
	     "offset %d ns, %u edges", st.offset_ns, st.edges);
	TEST("servo-owns-frequency", spx_adj_fine(&h, 65536) == -EBUSY, "adjfine not refused");

	wo.gps_on = 0;
	world_run_to_second(&wo, k + 3);
	err = spx_pps_get_status(&h, &st);
	TEST("servo-holdover-on-pps-loss", !err && st.state == SYNPCIX_PPS_STATUS_STATE_HOLDOVER &&
	     !st.present && st.losses >= 1, "err %d state %u present %d losses %u", err, st.state,
	     st.present, st.losses);
	TEST("servo-off", spx_pps_set_mode(&h, SPX_PPS_OFF) == 0 &&
	     spx_adj_fine(&h, 0) == 0, "mode off or adjfine failed");
	world_free(&wo);
}

int main(int argc, char **argv)
{
	struct spx_hw hw;
	double off0, off1, w, t;
	u64 ns, b0, b1, r0;
	int err;

	/* "cosim slots": only the MSI capture slot part (quick to iterate on) */
	if (argc == 2 && !strcmp(argv[1], "slots")) {
		slot_tests();
		return failures ? 1 : 0;
	}
	if (argc != 1) {
		fprintf(stderr, "usage: %s [slots]\n", argv[0]);
		return 2;
	}

	card = card_new();
	if (!card) {
		printf("not ok card-model: card_new failed\n");
		return 1;
	}
	card_run_for(card, 1000);
	memset(&hw, 0, sizeof(hw));
	hw.os.ops = &sim_ops;
	hw.os.ctx = card;
	hw.os.log_level = 2;

	/* --- discovery */
	err = spx_probe(&hw);
	TEST("probe", err == 0 && hw.present[SPX_BLK_CLOCK], "err %d: %s", err,
	     spx_os_last_log);
	if (err)
		return 1;
	printf("# card: %u blocks, %u Hz, %u event input(s), FIFO %u, capture delay %" PRIu64
	       " ns, perout delay %" PRIu64 " ns, pps %d event %d perout %d\n",
	       hw.n_blocks, hw.clk_hz, hw.n_events, hw.fifo_depth, hw.capture_delay_ns,
	       hw.perout_delay_ns, hw.present[SPX_BLK_PPS], hw.present[SPX_BLK_EVENT],
	       hw.present[SPX_BLK_PEROUT]);
	TEST("nominal-period-8ns", hw.nominal_period_fp == 8ULL << 32,
	     "0x%" PRIx64, hw.nominal_period_fp);

	/* --- set, then read */
	t = card_now_ns(card);
	err = spx_set_time(&hw, 1700000000000000000ULL);
	off0 = card_offset(&hw, &w);
	TEST("settime-then-read", err == 0 &&
	     fabs(off0 - (1700000000000000000.0 - t)) < 2000.0,
	     "err %d, read %.0f ns after the set", err, off0 - (1700000000000000000.0 - t));

	/* the rest works near 10000 s, where a double still resolves 0.002 ns */
	spx_set_time(&hw, 10000000000000ULL);

	/* --- read cost and back-to-back jitter */
	{
		enum { N = 1000 };
		double sum = 0, sum2 = 0, mn = 1e30, mx = -1e30, o, first = 0;
		unsigned long reads = hw.os.reads;
		int i;

		b0 = card_bus_clocks(card);
		for (i = 0; i < N; i++) {
			o = card_offset(&hw, NULL);
			if (!i)
				first = o;
			o -= first;
			sum += o;
			sum2 += o * o;
			mn = o < mn ? o : mn;
			mx = o > mx ? o : mx;
		}
		b1 = card_bus_clocks(card);
		sum /= N;
		printf("# gettimex64: %.1f bus cycles (%.0f ns) and %.1f register reads per read; "
		       "card-minus-true offset over %d back-to-back reads: sd %.2f ns, peak-to-peak %.2f ns\n",
		       (double)(b1 - b0) / N, (double)(b1 - b0) * CARD_BUS_PERIOD_NS / N,
		       (double)(hw.os.reads - reads) / N, N, sqrt(sum2 / N - sum * sum), mx - mn);
		TEST("gettimex64-jitter-below-2-clocks", mx - mn < 16.0, "p-p %.2f ns", mx - mn);
	}

	/* --- adjtime, both signs, 64-bit */
	off0 = card_offset(&hw, NULL);
	err = spx_adj_time(&hw, 1500000000LL);
	off1 = card_offset(&hw, NULL);
	TEST("adjtime-positive", err == 0 && fabs(off1 - off0 - 1.5e9) < 16.0,
	     "err %d, moved %.1f ns", err, off1 - off0);
	off0 = off1;
	err = spx_adj_time(&hw, -5000000000000LL);
	off1 = card_offset(&hw, NULL);
	TEST("adjtime-negative-64bit", err == 0 && fabs(off1 - off0 + 5e12) < 16.0,
	     "err %d, moved %.1f ns", err, off1 - off0);

	/* --- the driver's read against the model's own clock */
	{
		double w2, b = card_offset(&hw, &w2) - model_offset();

		printf("# read bracket bias: the driver's read (midpoint of its pre/post bracket, %.0f ns wide) minus the card's clock: %+.1f ns\n",
		       w2, b);
		TEST("read-bracket-bias-inside-bracket", fabs(b) < w2 / 2.0,
		     "bias %+.1f ns, bracket %.0f ns", b, w2);
	}

	/* --- PPS input in REPORT mode: time-scaled (1 ms "seconds") */
	if (hw.present[SPX_BLK_PPS]) {
		double te, expect;
		int got;

		card_write32(card, hw.base[SPX_BLK_PPS] + SPX_REL(PPS, INTERVAL_NS), 1000000);
		card_write32(card, hw.base[SPX_BLK_PPS] + SPX_REL(PPS, MIN_GAP_NS), 500000);
		err = spx_pps_set_mode(&hw, SPX_PPS_REPORT);
		off0 = model_offset();
		te = card_now_ns(card) + 20000.3;
		pulse(te, CARD_PIN_PPS, 100000);
		card_run_for(card, 200000);
		got = spx_pps_poll(&hw, &ns);
		expect = te + off0;
		TEST("extts-pps-stamp", err == 0 && got == 1 && fabs((double)ns - expect) < 16.0,
		     "err %d got %d, stamp 0x%" PRIx64 " - truth %.1f ns", err, got, ns,
		     (double)ns - expect);
		TEST("extts-pps-read-clears", spx_pps_poll(&hw, &ns) == 0, "second poll found a stamp");
		spx_pps_set_mode(&hw, SPX_PPS_OFF);
	} else {
		TEST("extts-pps-stamp", 0, "card model has no PPS block");
	}

	/* --- event inputs */
	if (hw.n_events >= 1) {
		struct spx_event ev;
		double te, expect;
		int got;

		err = spx_event_enable(&hw, 0, true, false);
		off0 = model_offset();
		te = card_now_ns(card) + 5000.7;
		pulse(te, CARD_PIN_EVENT(0), 1000);
		card_run_for(card, 20000);
		got = spx_event_pop(&hw, &ev);
		expect = te + off0;
		TEST("extts-event-rising", err == 0 && got == 1 && ev.channel == 0 &&
		     fabs((double)ev.ns - expect) < 16.0,
		     "err %d got %d ch %u, stamp 0x%" PRIx64 " - truth %.1f ns", err, got,
		     ev.channel, ev.ns, (double)ev.ns - expect);
		TEST("extts-event-fifo-empty", spx_event_pop(&hw, &ev) == 0, "FIFO not empty");

		if (hw.n_events >= 2) {
			err = spx_event_enable(&hw, 1, true, true);
			te = card_now_ns(card) + 3000.2;
			pulse(te, CARD_PIN_EVENT(1), 2000);	/* falling at te + 2000 */
			card_run_for(card, 20000);
			got = spx_event_pop(&hw, &ev);
			expect = te + 2000 + off0;
			TEST("extts-event-falling", err == 0 && got == 1 && ev.channel == 1 &&
			     fabs((double)ev.ns - expect) < 16.0,
			     "err %d got %d ch %u, stamp - truth %.1f ns", err, got, ev.channel,
			     (double)ev.ns - expect);
			spx_event_enable(&hw, 1, false, false);
		}

		/* stamp extension across the 2^32 ns wrap of the low word */
		err = spx_set_time(&hw, 0x5fffff000ULL);
		off0 = card_offset(&hw, NULL);
		spx_read_time(&hw, &r0, NULL, NULL);	/* ref before the wrap */
		te = card_now_ns(card) + (0x600000000ULL - r0) + 1000.0;
		pulse(te, CARD_PIN_EVENT(0), 1000);
		card_run_for(card, (0x600000000ULL - r0) + 20000.0);
		got = spx_event_pop(&hw, &ev);
		TEST("stamp-extension-across-wrap", err == 0 && got == 1 &&
		     spx_extend_stamp(r0, ev.ns & 0xffffffffULL, 32) == ev.ns &&
		     ev.ns > 0x600000000ULL,
		     "err %d got %d ref 0x%" PRIx64 " stamp 0x%" PRIx64 " extended 0x%" PRIx64,
		     err, got, r0, ev.ns, spx_extend_stamp(r0, ev.ns & 0xffffffffULL, 32));
		spx_event_enable(&hw, 0, false, false);
		evring_test(&hw);
	} else {
		TEST("extts-event-rising", 0, "card model has no event inputs");
	}

	/* --- periodic output: edges land where asked */
	if (hw.present[SPX_BLK_PEROUT]) {
		double edges[16], start_true;
		u64 start;
		int n, i, bad = 0;

		off0 = model_offset();
		spx_read_time(&hw, &ns, NULL, NULL);
		start = ns + 1500000;	/* 1.5 ms ahead (> the 1 ms margin) */
		card_perout_edges(card, edges, 16);	/* forget older edges */
		err = spx_perout_set(&hw, start, 100000, 20000);
		card_run_for(card, 1500000 + 5 * 100000 + 50000);
		n = card_perout_edges(card, edges, 16);
		start_true = (double)start - off0;
		for (i = 0; i < n && i < 5; i++) {
			double e = edges[i] - (start_true + i * 100000.0);

			/* Judged against true time through off0, a bracketed
			 * register read: where inside the bracket the card
			 * samples its time is a fixed internal latency, not the
			 * midpoint, which biases off0 by up to a clock. So two
			 * clocks here; tb_clock_core checks the output's own
			 * latency exactly (perout looped into an event input). */
			if (fabs(e) > 16.0)
				bad++;
			if (i == 0)
				printf("# perout: first edge %+.1f ns from the asked time\n", e);
		}
		TEST("perout-edges-where-asked", err == 0 && n >= 5 && !bad,
		     "err %d, %d edges, %d off by more than two clocks", err, n, bad);
		spx_perout_disable(&hw);
	} else {
		TEST("perout-edges-where-asked", 0, "card model has no perout block");
	}

	/* --- adjfine, measured as a frequency over simulated time (last: it
	 * changes the rate every test above assumes nominal) */
	{
		static const long ppb[] = { 100000, -250000, 1000, 1, 0 };
		/*
		 * Both reads start at true times congruent modulo 120 ns, the
		 * common period of the 8 ns timebase and 15 ns bus clocks, so
		 * the clock-domain crossing delays the two samples equally and
		 * the card-time difference is exact (the fraction included).
		 * Span: 120 ns * 83334 = 10.00008 ms.
		 */
		const double grid = 120.0, span = 120.0 * 83334;
		size_t i;

		for (i = 0; i < sizeof(ppb) / sizeof(ppb[0]); i++) {
			char name[64];
			double t0;
			long double d, got;
			u64 n0, n1;
			u32 f0, f1;

			err = spx_adj_fine(&hw, (s64)ppb[i] * 65536 / 1000);
			t0 = ceil(card_now_ns(card) / grid + 1) * grid;
			card_run_until(card, t0);
			spx_read_time(&hw, &n0, &f0, NULL);
			card_run_until(card, t0 + span);
			spx_read_time(&hw, &n1, &f1, NULL);
			d = (long double)(s64)(n1 - n0) + ((long double)f1 - f0) / 4294967296.0L;
			got = (d / span - 1) * 1e9L;
			snprintf(name, sizeof(name), "adjfine-%+ldppb", ppb[i]);
			printf("# adjfine %+ld ppb: measured %+.3Lf ppb over %.2f ms (error %+.3Lf ppb)\n",
			       ppb[i], got, span / 1e6, got - ppb[i]);
			/* scaled ppm truncation (< 1/65.536 ppb) plus rounding of
			 * the increment to 2^-32 ns (0.058 ppb at 8 ns) */
			TEST(name, err == 0 && fabsl(got - ppb[i]) < 0.1L,
			     "err %d, measured %+.3Lf ppb", err, got);
		}
	}

	TEST("locking-balanced", hw.os.lock_errors == 0 && hw.os.lock_depth == 0,
	     "%lu lock errors", hw.os.lock_errors);
	printf("# simulated %.3f ms, %" PRIu64 " timebase clocks\n", card_now_ns(card) / 1e6,
	       card_tb_clocks(card));
	card_free(card);
	servo_test();
	slot_tests();
	return failures ? 1 : 0;
}
