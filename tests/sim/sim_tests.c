// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verilator tests of the card model (clock core + capture unit), through
 * the register port, doorbells, the DMA and interrupt callbacks and the
 * pins only (offsets from build/gen/synpcix_regs.h). One binary, one
 * test per invocation: sim_tests NAME. Exit 0 = pass; every failure prints
 * what it expected and what it read. Scaled second: see docs/simulation.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synpcix_regs.h"
#include "world.h"

#define INTERVAL_NS 10e6	/* the scaled second of the servo tests */
#define FIFO_MAX 4096

static struct world w;
static int failures;
static double err[FIFO_MAX], tt[FIFO_MAX];

#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("  FAIL: " __VA_ARGS__); \
	printf("  (%s:%d)\n", __FILE__, __LINE__); } } while (0)
#define RD(off) card_read32(w.card, (off))
#define WR(off, v) card_write32(w.card, (off), (v))

static void start(double ppm, uint64_t seed)
{
	struct world_params p = { .interval_ns = INTERVAL_NS, .offset_ppm = ppm, .seed = seed,
				  .phase_faithful = 1 };

	world_init(&w, &p);
	world_probe(&w);
}

/* A world whose oscillator is exact and whose GPS is off. */
static void start_ideal(void)
{
	start(0.0, 7);
	w.gps_on = 0;
	w.osc.p.rw_ppb_rt_s = 0;
	w.osc.p.tc_ppm_per_c = 0;
}

static uint64_t read_time(double *t)
{
	return world_read_time(&w, t);
}

static int test_id_walk(void)
{
	static const uint32_t types[] = { SYNPCIX_ID_TYPE_ID, SYNPCIX_CLOCK_TYPE_ID,
		SYNPCIX_PPS_TYPE_ID, SYNPCIX_EVENT_TYPE_ID, SYNPCIX_PEROUT_TYPE_ID,
		SYNPCIX_MSI_SLOTS_TYPE_ID, SYNPCIX_DMA_TYPE_ID, SYNPCIX_IRQ_TYPE_ID };
	static const uint32_t bases[] = { SYNPCIX_ID_BASE, SYNPCIX_CLOCK_BASE,
		SYNPCIX_PPS_BASE, SYNPCIX_EVENT_BASE, SYNPCIX_PEROUT_BASE,
		SYNPCIX_MSI_SLOTS_BASE, SYNPCIX_DMA_BASE, SYNPCIX_IRQ_BASE };
	const unsigned nb = sizeof(bases) / sizeof(bases[0]);
	uint32_t off = 0;
	unsigned n = 0;

	start_ideal();
	CHECK(RD(SYNPCIX_ID_MAGIC) == SYNPCIX_ID_MAGIC_RESET, "magic %08x\n", RD(SYNPCIX_ID_MAGIC));
	CHECK(RD(SYNPCIX_ID_CLK_HZ) == 125000000u, "clk_hz %u\n", RD(SYNPCIX_ID_CLK_HZ));
	/* clock_core's five blocks, then the capture unit's three */
	do {
		uint32_t type = RD(off), ver = RD(off + 4), next = RD(off + 8);

		CHECK(n < nb, "chain longer than %u blocks\n", nb);
		if (n >= nb)
			break;
		CHECK(off == bases[n], "block %u at 0x%x, expected 0x%x\n", n, off, bases[n]);
		CHECK(type == types[n], "block %u type %08x, expected %08x\n", n, type, types[n]);
		CHECK(ver >> 16 == 1, "block %u version %08x\n", n, ver);
		CHECK(next == 0 || next > off, "block %u next 0x%x goes backwards\n", n, next);
		off = next;
		n++;
	} while (off);
	CHECK(n == nb, "walked %u blocks, expected %u\n", n, nb);
	uint32_t f = RD(SYNPCIX_ID_FEATURES);
	CHECK(((f & SYNPCIX_ID_FEATURES_N_EVENTS_MASK) >> SYNPCIX_ID_FEATURES_N_EVENTS_SHIFT) >= 2,
	      "features %08x: fewer than 2 event inputs\n", f);
	return 0;
}

static int test_scratch(void)
{
	static const uint32_t pat[] = { 0, 0xFFFFFFFFu, 0xA5C3F00Fu, 0x5A3C0FF0u, 1, 0x80000000u };

	start_ideal();
	for (unsigned i = 0; i < sizeof(pat) / sizeof(pat[0]); i++) {
		WR(SYNPCIX_ID_SCRATCH, pat[i]);
		uint32_t v = RD(SYNPCIX_ID_SCRATCH);

		CHECK(v == pat[i], "scratch wrote %08x read %08x\n", pat[i], v);
	}
	(void)RD(SYNPCIX_ID_BAD_ACCESS);
	WR(SYNPCIX_ID_MAGIC, 0);
	CHECK(RD(SYNPCIX_ID_MAGIC) == SYNPCIX_ID_MAGIC_RESET, "write to read-only magic changed it\n");
	uint32_t bad = RD(SYNPCIX_ID_BAD_ACCESS);
	CHECK(bad == 1, "bad_access %u after one write to a read-only register\n", bad);
	CHECK(RD(SYNPCIX_ID_BAD_ACCESS) == 0, "bad_access not cleared by reading\n");
	return 0;
}

static int test_set_time(void)
{
	const uint64_t T = 0x123456789ABCDEull;
	double t0, t1;

	start_ideal();
	WR(SYNPCIX_CLOCK_SET_NS_LO, (uint32_t)T);
	WR(SYNPCIX_CLOCK_SET_NS_HI, (uint32_t)(T >> 32));
	WR(SYNPCIX_CLOCK_SET_FRAC, 0);
	double ts = card_now_ns(w.card);
	WR(SYNPCIX_CLOCK_CTRL, SYNPCIX_CLOCK_CTRL_SET_MASK);
	for (int i = 0; i < 100 && (RD(SYNPCIX_CLOCK_CTRL) & SYNPCIX_CLOCK_CTRL_SET_MASK); i++)
		;
	CHECK(!(RD(SYNPCIX_CLOCK_CTRL) & SYNPCIX_CLOCK_CTRL_SET_MASK), "set still pending\n");
	uint64_t a = read_time(&t0);
	card_run_for(w.card, 1e6);
	uint64_t b = read_time(&t1);
	/* time after set = T + (true time since the set took effect) */
	CHECK(a >= T && a - T <= (uint64_t)(t0 - ts) + 100, "read %llu after setting %llu (%.0f ns later)\n",
	      (unsigned long long)a, (unsigned long long)T, t0 - ts);
	CHECK(llabs((long long)(b - a) - llround(t1 - t0)) <= 16,
	      "time advanced %lld ns in %.0f true ns (exact oscillator)\n", (long long)(b - a), t1 - t0);
	return 0;
}

/* Rate of the card's time against true time over dt_ns. */
static double measure_rate(double dt_ns)
{
	double t0, t1;
	uint64_t a = read_time(&t0);

	card_run_for(w.card, dt_ns);
	uint64_t b = read_time(&t1);
	return (double)(b - a) / (t1 - t0);
}

static int test_period(void)
{
	start_ideal();
	/* 20 ms windows: the reads bracketing each window are good to ~8 ns,
	 * so the rate is known to ~0.1 ppm (2 ms gave +-1.3 ppm: flaky) */
	double r0 = measure_rate(2e7);
	/* adjfine +100 ppm: period = 8 ns * (1 + 100e-6) */
	uint64_t p = (uint64_t)llround(8.0 * (1 + 100e-6) * 4294967296.0);

	WR(SYNPCIX_CLOCK_PERIOD_NS, (uint32_t)(p >> 32));
	WR(SYNPCIX_CLOCK_PERIOD_FRAC, (uint32_t)p);
	WR(SYNPCIX_CLOCK_CTRL, SYNPCIX_CLOCK_CTRL_PERIOD_MASK);
	double r1 = measure_rate(2e7);
	CHECK(fabs(r0 - 1.0) < 0.5e-6 * 20, "rate at nominal period %.9f\n", r0);
	CHECK(fabs((r1 - r0) * 1e6 - 100.0) < 1.0, "period +100 ppm changed the rate by %.3f ppm\n",
	      (r1 - r0) * 1e6);
	CHECK(RD(SYNPCIX_CLOCK_EFF_PERIOD_FRAC) == (uint32_t)p, "eff_period_frac %08x, loaded %08x\n",
	      RD(SYNPCIX_CLOCK_EFF_PERIOD_FRAC), (uint32_t)p);
	return 0;
}

static int adjust_by(int64_t d)
{
	double t0, t1;
	uint64_t a = read_time(&t0);

	WR(SYNPCIX_CLOCK_ADJ_NS_LO, (uint32_t)(uint64_t)d);
	WR(SYNPCIX_CLOCK_ADJ_NS_HI, (uint32_t)((uint64_t)d >> 32));
	WR(SYNPCIX_CLOCK_CTRL, SYNPCIX_CLOCK_CTRL_ADJUST_MASK);
	uint64_t b = read_time(&t1);
	long long got = (long long)(b - a) - llround(t1 - t0);

	CHECK(llabs(got - d) <= 16, "adjust %lld moved the time by %lld\n", (long long)d, got);
	return 0;
}

static int test_adjust(void)
{
	start_ideal();
	world_set_time(&w, 1000000000000ll);
	adjust_by(1000000);
	adjust_by(-1000000);
	adjust_by(-3000000000ll);	/* more than 32 bits of ns */
	adjust_by(37);
	return 0;
}

/* Servo on from the given offset; returns the lock time in scaled s. */
static double lock_from(double ppm, uint64_t seed)
{
	start(ppm, seed);
	world_config_servo(&w, 0.7, 0.3, 1.0);
	world_events(&w, 4);
	world_run_until(&w, 0.5 * w.interval_ns);
	world_set_time(&w, 0);
	world_pps_mode(&w, SYNPCIX_PPS_CTRL_MODE_SERVO);
	for (int k = 1; k <= 20; k++) {
		world_run_to_second(&w, k);
		world_pop_errors(&w, err, tt, FIFO_MAX);
		if (world_pps_state(&w) == SYNPCIX_PPS_STATUS_STATE_LOCKED)
			return k - 0.5;
	}
	return NAN;
}

/* RMS and max of the truth errors over the next n seconds. */
static void truth_stats(int n, double *rms, double *maxe)
{
	int64_t k0 = (int64_t)world_now_s(&w) + 1;
	double s2 = 0;
	long m = 0;

	*maxe = 0;
	for (int64_t k = k0; k < k0 + n; k++) {
		world_run_to_second(&w, k);
		int c = world_pop_errors(&w, err, tt, FIFO_MAX);

		for (int i = 0; i < c; i++) {
			s2 += err[i] * err[i];
			if (fabs(err[i]) > *maxe)
				*maxe = fabs(err[i]);
		}
		m += c;
	}
	*rms = m ? sqrt(s2 / m) : INFINITY;
}

static int lock_test(double ppm)
{
	double lt = lock_from(ppm, ppm > 0 ? 11 : 12), rms, maxe;

	CHECK(lt < 10.0, "%+.0f ppm: no LOCKED within 10 s (%.1f)\n", ppm, lt);
	if (isnan(lt))
		return 0;
	truth_stats(10, &rms, &maxe);
	printf("  %+.0f ppm: lock %.1f s, then RMS %.2f ns, max %.1f ns\n", ppm, lt, rms, maxe);
	CHECK(rms < 20.0, "RMS error after lock %.2f ns\n", rms);
	CHECK(world_pps_state(&w) == SYNPCIX_PPS_STATUS_STATE_LOCKED, "lost lock\n");
	return 0;
}

static int test_lock_plus(void) { return lock_test(+100.0); }
static int test_lock_minus(void) { return lock_test(-100.0); }

/* Locked servo for the fault tests. */
static int locked(void)
{
	double lt = lock_from(100.0, 21);

	CHECK(!isnan(lt), "did not lock\n");
	return !isnan(lt);
}

static int test_glitch(void)
{
	if (!locked())
		return 0;
	int64_t k = (int64_t)world_now_s(&w) + 3;	/* not yet scheduled */
	uint32_t g0 = RD(SYNPCIX_PPS_GLITCHES), e0 = RD(SYNPCIX_PPS_EDGES);

	gps_fault(&w.gps, k, GPS_GLITCH, 40.0);		/* 5 clocks < min_width */
	gps_fault(&w.gps, k + 1, GPS_GLITCH, 5000.0);	/* clean pulse, too soon */
	double rms, maxe;
	truth_stats(5, &rms, &maxe);
	uint32_t g = RD(SYNPCIX_PPS_GLITCHES) - g0, e = RD(SYNPCIX_PPS_EDGES) - e0;
	CHECK(g == 2, "glitches +%u, expected +2\n", g);
	CHECK(e == 5, "edges +%u over 5 s with 2 glitches, expected +5\n", e);
	CHECK(maxe < 100, "time error %.1f ns around the glitches\n", maxe);
	CHECK(world_pps_state(&w) == SYNPCIX_PPS_STATUS_STATE_LOCKED, "lost lock\n");
	return 0;
}

static int test_far_off(void)
{
	if (!locked())
		return 0;
	int64_t k = (int64_t)world_now_s(&w) + 3;
	uint32_t r0 = RD(SYNPCIX_PPS_REJECTS), s0 = RD(SYNPCIX_PPS_STEPS);

	gps_fault(&w.gps, k, GPS_FAR, 10000.0);		/* 10 us late, > reject 2 us */
	double rms, maxe;
	truth_stats(5, &rms, &maxe);
	uint32_t r = RD(SYNPCIX_PPS_REJECTS) - r0;
	CHECK(r == 1, "rejects +%u, expected +1\n", r);
	CHECK(RD(SYNPCIX_PPS_STEPS) == s0, "the servo stepped on a far-off edge\n");
	CHECK(maxe < 100, "time yanked: max error %.1f ns\n", maxe);
	CHECK(world_pps_state(&w) == SYNPCIX_PPS_STATUS_STATE_LOCKED, "lost lock\n");
	return 0;
}

static int test_holdover(void)
{
	if (!locked())
		return 0;
	int64_t k = (int64_t)world_now_s(&w) + 3;
	uint32_t l0 = RD(SYNPCIX_PPS_LOSSES);

	gps_outage(&w.gps, k, k + 10);
	world_run_to_second(&w, k + 2);
	world_pop_errors(&w, err, tt, FIFO_MAX);
	CHECK(world_pps_state(&w) == SYNPCIX_PPS_STATUS_STATE_HOLDOVER, "state %u 2 s into the outage\n",
	      world_pps_state(&w));
	CHECK(RD(SYNPCIX_PPS_LOSSES) - l0 == 1, "losses +%u\n", RD(SYNPCIX_PPS_LOSSES) - l0);
	CHECK(!(RD(SYNPCIX_PPS_STATUS) & SYNPCIX_PPS_STATUS_PRESENT_MASK), "present during outage\n");
	double rms, maxe;
	truth_stats(8, &rms, &maxe);
	printf("  holdover: max error %.1f ns over 10 s without PPS\n", maxe);
	CHECK(maxe < 2000, "holdover error %.1f ns after 10 s\n", maxe);
	int relock = 0;
	for (int64_t j = k + 11; j < k + 25 && !relock; j++) {
		world_run_to_second(&w, j);
		world_pop_errors(&w, err, tt, FIFO_MAX);
		relock = world_pps_state(&w) == SYNPCIX_PPS_STATUS_STATE_LOCKED;
	}
	CHECK(relock, "no LOCKED within 14 s of PPS coming back\n");
	return 0;
}

static int test_report(void)
{
	start_ideal();
	w.gps_on = 1;
	w.gps.p.jitter_rms_ns = 0;	/* edges exactly on the second */
	world_config_servo(&w, 0.7, 0.3, 1.0);
	world_run_until(&w, 0.5 * w.interval_ns);
	world_set_time(&w, 0);
	world_pps_mode(&w, SYNPCIX_PPS_CTRL_MODE_REPORT);
	double t0;
	int64_t off = (int64_t)read_time(&t0) - llround(t0);	/* card - true, bus-read bias */
	for (int k = 1; k <= 4; k++) {
		world_run_to_second(&w, k);
		uint32_t st = RD(SYNPCIX_PPS_STATUS);
		CHECK(st & SYNPCIX_PPS_STATUS_STAMP_NEW_MASK, "second %d: no stamp_new\n", k);
		uint64_t s = RD(SYNPCIX_PPS_STAMP_NS_LO);
		s |= (uint64_t)RD(SYNPCIX_PPS_STAMP_NS_HI) << 32;
		long long e = (long long)(s - w.capture_delay_ns) - (long long)(k * INTERVAL_NS) - off;
		CHECK(llabs(e) < 200, "second %d: stamp %llu is %lld ns from the true edge\n", k,
		      (unsigned long long)s, e);
		CHECK(!(RD(SYNPCIX_PPS_STATUS) & SYNPCIX_PPS_STATUS_STAMP_NEW_MASK),
		      "stamp_new not cleared by reading stamp_ns_lo\n");
		CHECK(RD(SYNPCIX_PPS_FREQ_ADJ) == 0, "REPORT mode changed the frequency\n");
	}
	CHECK((RD(SYNPCIX_PPS_STATUS) & SYNPCIX_PPS_STATUS_STATE_MASK) == 0, "REPORT mode not FREERUN\n");
	return 0;
}

static int test_fifo_overflow(void)
{
	start_ideal();
	uint32_t f = RD(SYNPCIX_ID_FEATURES);
	unsigned depth = 1u << ((f & SYNPCIX_ID_FEATURES_FIFO_LOG2_MASK) >> SYNPCIX_ID_FEATURES_FIFO_LOG2_SHIFT);
	unsigned extra = 5, total = depth + extra;

	WR(SYNPCIX_EVENT_CTRL, 1u << SYNPCIX_EVENT_CTRL_ENABLE_SHIFT);
	double t = card_now_ns(w.card) + 1000;
	for (unsigned i = 0; i < total; i++) {
		card_input_at(w.card, t + i * 400.0, CARD_PIN_EVENT(0), 1);
		card_input_at(w.card, t + i * 400.0 + 200, CARD_PIN_EVENT(0), 0);
	}
	card_run_for(w.card, 1000 + total * 400.0 + 1000);
	uint32_t lvl = RD(SYNPCIX_EVENT_STATUS) & SYNPCIX_EVENT_STATUS_LEVEL_MASK;
	CHECK(lvl == depth, "FIFO level %u after %u edges, depth %u\n", lvl, total, depth);
	CHECK(RD(SYNPCIX_EVENT_OVERFLOWS) == extra, "overflows %u, expected %u\n",
	      RD(SYNPCIX_EVENT_OVERFLOWS), extra);
	uint16_t prev = 0;
	unsigned n = 0, gaps = 0;
	for (;;) {
		(void)RD(SYNPCIX_EVENT_STAMP_NS_LO);
		uint32_t info = RD(SYNPCIX_EVENT_STAMP_INFO);
		if (!(info & SYNPCIX_EVENT_STAMP_INFO_VALID_MASK))
			break;
		uint16_t seq = (info & SYNPCIX_EVENT_STAMP_INFO_SEQ_MASK) >> SYNPCIX_EVENT_STAMP_INFO_SEQ_SHIFT;
		if (n && seq != (uint16_t)(prev + 1))
			gaps += (uint16_t)(seq - prev - 1);
		prev = seq;
		n++;
	}
	/* the FIFO keeps the oldest entries: the lost ones come after them,
	 * so the gap shows at the next stamp */
	card_input_at(w.card, card_now_ns(w.card) + 1000, CARD_PIN_EVENT(0), 1);
	card_input_at(w.card, card_now_ns(w.card) + 1200, CARD_PIN_EVENT(0), 0);
	card_run_for(w.card, 2000);
	(void)RD(SYNPCIX_EVENT_STAMP_NS_LO);
	uint32_t info = RD(SYNPCIX_EVENT_STAMP_INFO);
	uint16_t seq = (info & SYNPCIX_EVENT_STAMP_INFO_SEQ_MASK) >> SYNPCIX_EVENT_STAMP_INFO_SEQ_SHIFT;
	gaps += (uint16_t)(seq - prev - 1);
	CHECK(n == depth, "popped %u stamps, depth %u\n", n, depth);
	CHECK(gaps == extra, "sequence gaps %u, expected %u\n", gaps, extra);
	return 0;
}

static int test_perout(void)
{
	start_ideal();
	card_loop_perout(w.card, 1);
	WR(SYNPCIX_EVENT_CTRL, 2u << SYNPCIX_EVENT_CTRL_ENABLE_SHIFT);
	double t0;
	uint64_t now = read_time(&t0);
	uint64_t start = now + 100000;
	const uint32_t period = 20000, width = 4000;
	uint32_t f = RD(SYNPCIX_ID_FEATURES);
	uint64_t po_delay = ((f & SYNPCIX_ID_FEATURES_PEROUT_DELAY_MASK) >> SYNPCIX_ID_FEATURES_PEROUT_DELAY_SHIFT) * 8u;

	WR(SYNPCIX_PEROUT_START_NS_LO, (uint32_t)start);
	WR(SYNPCIX_PEROUT_START_NS_HI, (uint32_t)(start >> 32));
	WR(SYNPCIX_PEROUT_PERIOD_NS, period);
	WR(SYNPCIX_PEROUT_WIDTH_NS, width);
	WR(SYNPCIX_PEROUT_CTRL, SYNPCIX_PEROUT_CTRL_ENABLE_MASK);
	card_run_for(w.card, 100000 + 5 * period + 1000.0);
	double te[16];
	int ne = card_perout_edges(w.card, te, 16);
	CHECK(ne == 6, "%d perout rising edges in 5 periods after start, expected 6\n", ne);
	for (int i = 1; i < ne; i++)
		CHECK(fabs(te[i] - te[i - 1] - period) <= 8.0, "perout edges %.1f ns apart\n", te[i] - te[i - 1]);
	for (int i = 0; i < ne; i++) {
		(void)0;
		uint32_t lo = RD(SYNPCIX_EVENT_STAMP_NS_LO), hi = RD(SYNPCIX_EVENT_STAMP_NS_HI);
		uint32_t info = RD(SYNPCIX_EVENT_STAMP_INFO);
		uint64_t s = (uint64_t)hi << 32 | lo;
		uint64_t want = start + (uint64_t)i * period + po_delay + w.capture_delay_ns;
		CHECK((info & SYNPCIX_EVENT_STAMP_INFO_VALID_MASK) && (info & 7) == 1,
		      "perout edge %d: no stamp on event input 1 (info %08x)\n", i, info);
		CHECK(llabs((long long)(s - want)) <= 8, "perout edge %d stamped %llu, expected %llu +-8 "
		      "(start + k*period + perout and capture delays)\n", i, (unsigned long long)s,
		      (unsigned long long)want);
	}
	WR(SYNPCIX_PEROUT_CTRL, 0);
	card_run_for(w.card, 3.0 * period);
	CHECK(card_perout_edges(w.card, te, 16) == 0, "perout still running after disable\n");
	return 0;
}

/*
 * MSI capture slots through the model's doorbell, DMA and interrupt ports:
 * host memory is an array behind the DMA callback; every card write outside
 * the stamp fields of the ring is a failure.
 */
#define HOST_BASE 0x12340000ull
#define HOST_WORDS 2048			/* 8 KiB */
#define RING_N 8
#define STRIDE 16
static uint32_t host[HOST_WORDS];
static unsigned irqs[4], stray_writes, dma_calls;

static int host_dma(void *ctx, int write, uint64_t addr, uint32_t *words, unsigned n)
{
	(void)ctx;
	dma_calls++;
	if (addr < HOST_BASE || addr + 4 * n > HOST_BASE + 4 * HOST_WORDS)
		return CARD_DMA_MASTER_ABORT;
	for (unsigned k = 0; k < n; k++) {
		uint64_t a = addr + 4 * k - HOST_BASE;

		if (write) {
			/* stamp fields: bytes 0..7 of each of the ring's entries */
			if (a >= RING_N * STRIDE || (a % STRIDE) >= 8)
				stray_writes++;
			host[a / 4] = words[k];
		} else {
			words[k] = host[a / 4];
		}
	}
	return CARD_DMA_OK;
}

static void host_irq(void *ctx, unsigned slot)
{
	(void)ctx;
	irqs[slot & 3]++;
}

static uint32_t win_rd(unsigned slot, uint32_t off)
{
	WR(SYNPCIX_MSI_SLOTS_SLOT_SEL, slot);
	return RD(off);
}

static void win_wr(unsigned slot, uint32_t off, uint32_t v)
{
	WR(SYNPCIX_MSI_SLOTS_SLOT_SEL, slot);
	WR(off, v);
}

static uint64_t card_time(void)
{
	uint32_t lo = RD(SYNPCIX_CLOCK_TIME_NS_LO);

	return (uint64_t)RD(SYNPCIX_CLOCK_TIME_NS_HI) << 32 | lo;
}

static void ring_entry(unsigned i, int done)
{
	host[i * 4 + 0] = 0x40000000u + i * 0x800;	/* buffer address */
	host[i * 4 + 1] = 0;
	host[i * 4 + 2] = 64;			/* length */
	host[i * 4 + 3] = done ? 1 : 0;		/* DD */
}

/* Ring slot's doorbell, give the engine time; returns the time bracket. */
static void ring_doorbell(unsigned slot, uint32_t data, uint64_t *t0, uint64_t *t1)
{
	*t0 = card_time();
	WR(SYNPCIX_RSV_DOORBELLS_BASE + slot * SYNPCIX_RSV_DOORBELLS_STRIDE, data);
	*t1 = card_time();
	card_run_for(w.card, 20000.0);
}

static int check_stamp(unsigned i, uint64_t t0, uint64_t t1, unsigned seq, int batched,
		       uint64_t *ns)
{
	uint32_t lo = host[i * 4], hi = host[i * 4 + 1];
	uint64_t t = (uint64_t)(hi & 0xFFFF) << 32 | lo;
	int bad = failures;

	CHECK(hi >> 26 == SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_MARKER_VALID,
	      "entry %u: no marker (%08x %08x)\n", i, hi, lo);
	CHECK(((hi >> 16) & 0xFF) == seq, "entry %u: seq %u, expected %u\n", i, (hi >> 16) & 0xFF, seq);
	CHECK(((hi >> 24) & 1) == (unsigned)batched, "entry %u: batched %u, expected %d\n", i,
	      (hi >> 24) & 1, batched);
	CHECK(t > (t0 & 0xFFFFFFFFFFFFull) && t < (t1 & 0xFFFFFFFFFFFFull),
	      "entry %u: stamp %llu ns outside the doorbell's bracket %llu..%llu\n", i,
	      (unsigned long long)t, (unsigned long long)t0, (unsigned long long)t1);
	*ns = t;
	return failures != bad;
}

static int test_stamp_ring(void)
{
	uint64_t t0, t1, s0, s1, s2;
	const unsigned slot = 1;

	start_ideal();
	memset(host, 0xA5, sizeof(host));
	for (unsigned i = 0; i < RING_N; i++)
		ring_entry(i, i < 3);
	card_set_dma(w.card, host_dma, NULL);
	card_set_irq(w.card, host_irq, NULL);
	CHECK(card_n_slots(w.card) == 4, "n_slots %u\n", card_n_slots(w.card));
	/* wait for the per-slot RAM's initialisation */
	for (int k = 0; k < 100 && (RD(SYNPCIX_MSI_SLOTS_STATUS) & 2); k++)
		card_run_for(w.card, 1000.0);
	win_wr(slot, SYNPCIX_MSI_SLOTS_RING_BASE_LO, (uint32_t)HOST_BASE);
	win_wr(slot, SYNPCIX_MSI_SLOTS_RING_BASE_HI, (uint32_t)(HOST_BASE >> 32));
	win_wr(slot, SYNPCIX_MSI_SLOTS_RING_COUNT, RING_N);
	win_wr(slot, SYNPCIX_MSI_SLOTS_CTRL, SYNPCIX_MSI_SLOTS_CTRL_ENABLE_MASK);
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_RING_COUNT) == RING_N, "ring_count not taken\n");

	/* three completed entries: the first exact, two batched */
	ring_doorbell(slot, 0x4a31, &t0, &t1);
	printf("  doorbell bracket %llu..%llu ns (card time)\n", (unsigned long long)t0,
	       (unsigned long long)t1);
	if (!check_stamp(0, t0, t1, 0, 0, &s0) && !check_stamp(1, t0, t1, 1, 1, &s1) &&
	    !check_stamp(2, t0, t1, 2, 1, &s2))
		CHECK(s0 == s1 && s1 == s2, "batched stamps differ from the exact one\n");
	CHECK(host[3 * 4] == 0x40000000u + 3 * 0x800, "entry 3 (not completed) written\n");
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_INDEX) == 3, "index %u, expected 3\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_INDEX));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_CAPTURES) == 1, "captures %u\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_CAPTURES));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_STAMPED) == 3, "stamped %u\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_STAMPED));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_BATCHED) == 2, "batched %u\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_BATCHED));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_LAST_DATA) == 0x4a31, "last_data %x\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_LAST_DATA));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_LAST_STAMP_LO) == (uint32_t)s0, "last_stamp_lo %u vs %u\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_LAST_STAMP_LO), (uint32_t)s0);
	CHECK(irqs[slot] == 1 && irqs[0] + irqs[2] + irqs[3] == 0,
	      "interrupts per slot %u %u %u %u, expected one on slot %u\n",
	      irqs[0], irqs[1], irqs[2], irqs[3], slot);
	CHECK(RD(SYNPCIX_IRQ_RAISED) == 1, "irq.raised %u\n", RD(SYNPCIX_IRQ_RAISED));

	/* the INTx level: set by the raise, gated by the mask, cleared by W1C */
	CHECK(card_irq_line(w.card) && RD(SYNPCIX_IRQ_STATUS) == 1u << slot,
	      "INTx line %d, irq.status %x after a raise of slot %u\n", card_irq_line(w.card),
	      RD(SYNPCIX_IRQ_STATUS), slot);
	WR(SYNPCIX_IRQ_MASK, 1u << slot);
	CHECK(!card_irq_line(w.card), "INTx line asserted by a masked slot\n");
	WR(SYNPCIX_IRQ_MASK, 0);
	WR(SYNPCIX_IRQ_STATUS, 1u << (slot ^ 1));
	CHECK(card_irq_line(w.card) && RD(SYNPCIX_IRQ_STATUS) == 1u << slot,
	      "clearing another slot's bit dropped the line (status %x)\n", RD(SYNPCIX_IRQ_STATUS));
	WR(SYNPCIX_IRQ_STATUS, 1u << slot);
	CHECK(!card_irq_line(w.card) && RD(SYNPCIX_IRQ_STATUS) == 0,
	      "INTx line %d, irq.status %x after the acknowledge\n", card_irq_line(w.card),
	      RD(SYNPCIX_IRQ_STATUS));

	/* nothing completed: empty, index stays, the interrupt still comes */
	ring_doorbell(slot, 0x4a31, &t0, &t1);
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_EMPTY) == 1, "empty %u\n",
	      win_rd(slot, SYNPCIX_MSI_SLOTS_EMPTY));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_INDEX) == 3, "index moved on an empty capture\n");
	CHECK(irqs[slot] == 2, "no interrupt for the empty capture\n");

	/* masked: pending, no interrupt; unmasked: raised */
	WR(SYNPCIX_IRQ_MASK, 1u << slot);
	ring_entry(3, 1);
	ring_doorbell(slot, 0x4a31, &t0, &t1);
	check_stamp(3, t0, t1, 3, 0, &s0);
	CHECK(irqs[slot] == 2, "interrupt while masked\n");
	CHECK(card_irq_pending(w.card) == 1u << slot && RD(SYNPCIX_IRQ_PENDING) == 1u << slot,
	      "pending %x / %x, expected slot %u\n", card_irq_pending(w.card),
	      RD(SYNPCIX_IRQ_PENDING), slot);
	WR(SYNPCIX_IRQ_MASK, 0);
	card_run_for(w.card, 1000.0);
	CHECK(irqs[slot] == 3 && card_irq_pending(w.card) == 0, "no interrupt after unmask\n");

	/* bad doorbells: not at a line start, unbuilt slot */
	WR(SYNPCIX_RSV_DOORBELLS_BASE + slot * SYNPCIX_RSV_DOORBELLS_STRIDE + 4, 1);
	WR(SYNPCIX_RSV_DOORBELLS_BASE + 9 * SYNPCIX_RSV_DOORBELLS_STRIDE, 1);
	card_run_for(w.card, 20000.0);
	CHECK(card_bad_doorbells(w.card) == 2, "bad doorbells %llu\n",
	      (unsigned long long)card_bad_doorbells(w.card));
	CHECK(win_rd(slot, SYNPCIX_MSI_SLOTS_CAPTURES) == 3, "a bad doorbell was captured\n");
	CHECK(RD(SYNPCIX_RSV_DOORBELLS_BASE) == 0, "doorbell window read not 0\n");
	CHECK(stray_writes == 0, "%u card writes outside the stamp fields\n", stray_writes);

	/* a ring outside host memory: master abort, counted */
	win_wr(2, SYNPCIX_MSI_SLOTS_RING_BASE_LO, 0x1000);
	win_wr(2, SYNPCIX_MSI_SLOTS_RING_COUNT, RING_N);
	win_wr(2, SYNPCIX_MSI_SLOTS_CTRL, SYNPCIX_MSI_SLOTS_CTRL_ENABLE_MASK);
	ring_doorbell(2, 0, &t0, &t1);
	CHECK(win_rd(2, SYNPCIX_MSI_SLOTS_DMA_ERRORS) == 1, "slot 2 dma_errors %u\n",
	      win_rd(2, SYNPCIX_MSI_SLOTS_DMA_ERRORS));
	CHECK(RD(SYNPCIX_DMA_ERRORS) == 1, "dma.errors %u\n", RD(SYNPCIX_DMA_ERRORS));
	CHECK((RD(SYNPCIX_DMA_LAST_ERROR) & 3) == CARD_DMA_MASTER_ABORT, "last_error %x\n",
	      RD(SYNPCIX_DMA_LAST_ERROR));
	CHECK(irqs[2] == 1, "no interrupt after the DMA error\n");
	printf("  %u DMA requests, %llu served, interrupts %u %u %u %u\n", dma_calls,
	       (unsigned long long)card_dma_requests(w.card), irqs[0], irqs[1], irqs[2], irqs[3]);
	return 0;
}

static const struct { const char *name; int (*fn)(void); } tests[] = {
	{ "stamp-ring", test_stamp_ring },
	{ "id-walk", test_id_walk }, { "scratch", test_scratch }, { "set-time", test_set_time },
	{ "period", test_period }, { "adjust", test_adjust }, { "lock-plus100ppm", test_lock_plus },
	{ "lock-minus100ppm", test_lock_minus }, { "glitch", test_glitch },
	{ "far-off", test_far_off }, { "holdover", test_holdover }, { "report", test_report },
	{ "fifo-overflow", test_fifo_overflow }, { "perout", test_perout },
};

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
			printf("%s\n", tests[i].name);
		return 0;
	}
	for (unsigned i = 0; argc == 2 && i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (strcmp(argv[1], tests[i].name))
			continue;
		tests[i].fn();
		if (w.card)
			world_free(&w);
		printf("%s: %s (%d failed checks)\n", tests[i].name, failures ? "FAIL" : "PASS", failures);
		return failures ? 1 : 0;
	}
	fprintf(stderr, "usage: %s --list | TEST\n", argv[0]);
	return 2;
}
