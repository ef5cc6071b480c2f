// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the SynPCI-X driver core (driver/core/synpcix_hw.c) in user
 * space: the arithmetic against 128-bit reference computations, and the
 * register sequences against a small register-level test card that follows
 * the semantics written in hdl/regmap/synpcix.toml (snapshot latch, staged
 * commands with pending bits, FIFO pop, header chain). The test card is a
 * test fixture, not the card: co-simulation against the Verilator model of
 * the real gateware is a separate suite.
 *
 * Output: one line per test, "ok NAME" or "not ok NAME: why"; exit status 1
 * when any test failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "synpcix_hw.h"

typedef unsigned __int128 u128;

#include "unit.h"

/* ------------------------------------------------------------------ */
/* Arithmetic                                                           */
/* ------------------------------------------------------------------ */

static u64 ref_mul_div_round(u64 a, u64 b, u64 d)
{
	u128 q;

	if (!d)
		return UINT64_MAX;
	q = ((u128)a * b + d / 2) / d;
	return q > UINT64_MAX ? UINT64_MAX : (u64)q;
}

static void test_mul_div(void)
{
	static const u64 edge[] = { 0, 1, 2, 3, 0xffffffffULL, 0x100000000ULL,
				    0x7fffffffffffffffULL, 0x8000000000000000ULL,
				    UINT64_MAX, 1000000000ULL, 65536000000ULL };
	size_t i, j, k;
	int n;

	begin("mul_div_round/edges");
	for (i = 0; i < sizeof(edge) / 8; i++)
		for (j = 0; j < sizeof(edge) / 8; j++)
			for (k = 0; k < sizeof(edge) / 8; k++) {
				u64 got = spx_mul_div_round(edge[i], edge[j], edge[k]);
				u64 want = ref_mul_div_round(edge[i], edge[j], edge[k]);

				CHECK(got == want, "%" PRIu64 "*%" PRIu64 "/%" PRIu64
				      " = %" PRIu64 ", want %" PRIu64,
				      edge[i], edge[j], edge[k], got, want);
			}
	end();

	begin("mul_div_round/random-1e6");
	for (n = 0; n < 1000000; n++) {
		u64 a = rnd() >> (rnd() & 63), b = rnd() >> (rnd() & 63);
		u64 d = rnd() >> (rnd() & 63);
		u64 got = spx_mul_div_round(a, b, d);
		u64 want = ref_mul_div_round(a, b, d);

		CHECK(got == want, "%" PRIu64 "*%" PRIu64 "/%" PRIu64 " = %" PRIu64
		      ", want %" PRIu64, a, b, d, got, want);
		if (test_failed)
			break;
	}
	end();

	begin("mul_div_round/halves-round-up");
	CHECK(spx_mul_div_round(1, 1, 2) == 1, "0.5 -> 1");
	CHECK(spx_mul_div_round(3, 1, 2) == 2, "1.5 -> 2");
	CHECK(spx_mul_div_round(1, 1, 3) == 0, "0.33 -> 0");
	CHECK(spx_mul_div_round(2, 1, 3) == 1, "0.67 -> 1");
	CHECK(spx_mul_div_round(5, 0, 0) == UINT64_MAX, "d=0 saturates");
	end();
}

#define NOM8 ((u64)8 << 32)

/* reference: nominal * (1 + sppm / 65536e6), rounded, clamped */
static u64 ref_period(u64 nom, s64 sppm)
{
	__int128 p = (__int128)nom * 65536000000LL + (__int128)nom * sppm;
	__int128 q;

	/* round half away from zero in the delta, as the core does */
	if (sppm >= 0)
		q = (p + 32768000000LL) / 65536000000LL;
	else
		q = nom - (((__int128)nom * -(__int128)sppm + 32768000000LL) /
			   65536000000LL);
	if (q < (__int128)SPX_PERIOD_MIN_FP)
		return SPX_PERIOD_MIN_FP;
	if (q > (__int128)SPX_PERIOD_MAX_FP)
		return SPX_PERIOD_MAX_FP;
	return (u64)q;
}

static void test_scaled_ppm(void)
{
	bool clamped;
	u64 p;
	int n;

	begin("adjfine/zero-is-nominal");
	p = spx_scaled_ppm_to_period(NOM8, 0, &clamped);
	CHECK(p == NOM8 && !clamped, "got 0x%" PRIx64, p);
	end();

	begin("adjfine/one-ppm");
	/* 8 ns * 1e-6 = 8e-6 ns = 34359.738 units of 2^-32 ns -> 34360 */
	p = spx_scaled_ppm_to_period(NOM8, 65536, &clamped);
	CHECK(p == NOM8 + 34360 && !clamped, "+1 ppm: delta %" PRId64,
	      (s64)(p - NOM8));
	p = spx_scaled_ppm_to_period(NOM8, -65536, &clamped);
	CHECK(p == NOM8 - 34360 && !clamped, "-1 ppm: delta %" PRId64,
	      (s64)(p - NOM8));
	end();

	begin("adjfine/smallest-steps-round");
	/* 1 scaled_ppm = 1/65536 ppm: 8 ns * 1.526e-11 = 0.524 units -> 1 */
	CHECK(spx_scaled_ppm_to_period(NOM8, 1, NULL) == NOM8 + 1, "+1 -> +1");
	CHECK(spx_scaled_ppm_to_period(NOM8, -1, NULL) == NOM8 - 1, "-1 -> -1");
	/* 0.4 units rounds to nothing: sppm such that delta < 0.5 is none at 8 ns;
	 * at 1 ns nominal 1 sppm = 0.0655 units -> 0 */
	CHECK(spx_scaled_ppm_to_period(1ULL << 32, 1, NULL) == 1ULL << 32,
	      "1 ns, +1 sppm rounds to 0");
	CHECK(spx_scaled_ppm_to_period(1ULL << 32, 8, NULL) == (1ULL << 32) + 1,
	      "1 ns, +8 sppm = 0.524 rounds to 1");
	end();

	begin("adjfine/one-ppb-resolution");
	/* 1 ppb: what linuxptp asks for as scaled_ppm 65.536 -> 66 */
	p = spx_scaled_ppm_to_period(NOM8, 66, NULL);
	CHECK(p - NOM8 == 35, "+1 ppb: delta %" PRIu64 " (8 ns * 1.007e-9 = 34.6)",
	      p - NOM8);
	CHECK(spx_period_to_ppb(NOM8, p) == 1, "back to ppb: %" PRId64,
	      spx_period_to_ppb(NOM8, p));
	end();

	begin("adjfine/extremes-clamp");
	p = spx_scaled_ppm_to_period(NOM8, INT64_MAX, &clamped);
	CHECK(p == SPX_PERIOD_MAX_FP && clamped, "S64_MAX: 0x%" PRIx64, p);
	p = spx_scaled_ppm_to_period(NOM8, INT64_MIN, &clamped);
	CHECK(p == SPX_PERIOD_MIN_FP && clamped, "S64_MIN: 0x%" PRIx64, p);
	/* exactly -87.5 %: 8 ns -> 1 ns, on the limit, not clamped */
	p = spx_scaled_ppm_to_period(NOM8, -875000LL * 65536, &clamped);
	CHECK(p == SPX_PERIOD_MIN_FP && !clamped, "-87.5%%: 0x%" PRIx64 " %d", p,
	      clamped);
	p = spx_scaled_ppm_to_period(NOM8, -875001LL * 65536, &clamped);
	CHECK(p == SPX_PERIOD_MIN_FP && clamped, "below 1 ns clamps");
	/* +100 %: 16 ns fits the 8 whole-ns bits (up to 255.99.. ns) */
	p = spx_scaled_ppm_to_period(NOM8, 1000000LL * 65536, &clamped);
	CHECK(p == 16ULL << 32 && !clamped, "+100%%: 0x%" PRIx64, p);
	/* +3100 %: 8 ns -> 256 ns does not: clamps to 255.99.. ns */
	p = spx_scaled_ppm_to_period(NOM8, 31000000LL * 65536, &clamped);
	CHECK(p == SPX_PERIOD_MAX_FP && clamped, "+3100%%: 0x%" PRIx64, p);
	CHECK(SPX_PERIOD_MAX_FP == (256ULL << 32) - 1, "max period 0x%llx",
	      (unsigned long long)SPX_PERIOD_MAX_FP);
	p = spx_scaled_ppm_to_period(250ULL << 32, 65536LL * 100000, &clamped);
	CHECK(p == SPX_PERIOD_MAX_FP && clamped, "250 ns +10%% clamps");
	/* the QEMU card's 248 ns (clock-scale 31): +1 ppm = 248e-6 ns */
	p = spx_scaled_ppm_to_period(248ULL << 32, 65536, &clamped);
	CHECK(p == (248ULL << 32) + 1065152 && !clamped,
	      "248 ns +1 ppm: delta %" PRId64 " (248e-6 * 2^32 = 1065151.9)",
	      (s64)(p - (248ULL << 32)));
	CHECK(spx_period_to_ppb(248ULL << 32, p) == 1000, "back: %" PRId64,
	      spx_period_to_ppb(248ULL << 32, p));
	end();

	begin("adjfine/max-adj");
	CHECK(spx_max_adj_ppb(NOM8) == 875000000, "8 ns: %d", spx_max_adj_ppb(NOM8));
	CHECK(spx_max_adj_ppb(1ULL << 32) == 0, "1 ns: no room down");
	CHECK(spx_max_adj_ppb(10ULL << 32) == 900000000,
	      "10 ns: down room 9 ns -> %d", spx_max_adj_ppb(10ULL << 32));
	CHECK(spx_max_adj_ppb(200ULL << 32) == 279999999,
	      "200 ns: up room 55.99.. ns -> %d", spx_max_adj_ppb(200ULL << 32));
	CHECK(spx_max_adj_ppb(255ULL << 32) == 3921568,
	      "255 ns: up room 0.99.. ns -> %d", spx_max_adj_ppb(255ULL << 32));
	CHECK(spx_max_adj_ppb(256ULL << 32) == 0, "256 ns nominal is invalid");
	CHECK(spx_max_adj_ppb(0) == 0, "0 ns nominal is invalid");
	/* max_adj in scaled ppm (what ptp core passes, truncation up to
	 * 65535/65536 ppm more) must not clamp */
	spx_scaled_ppm_to_period(NOM8, -(875000000LL * 65536 / 1000), &clamped);
	CHECK(!clamped, "-max_adj clamps");
	spx_scaled_ppm_to_period(NOM8, 875000000LL * 65536 / 1000 + 65535, &clamped);
	CHECK(!clamped, "+max_adj clamps");
	end();

	begin("adjfine/random-vs-128bit-reference");
	for (n = 0; n < 200000; n++) {
		u64 nom = SPX_PERIOD_MIN_FP + rnd() % (SPX_PERIOD_MAX_FP - SPX_PERIOD_MIN_FP);
		s64 sppm = (s64)(rnd() >> (rnd() % 64)) * ((rnd() & 1) ? 1 : -1);
		u64 got = spx_scaled_ppm_to_period(nom, sppm, NULL);
		u64 want = ref_period(nom, sppm);

		CHECK(got == want, "nom 0x%" PRIx64 " sppm %" PRId64 ": 0x%" PRIx64
		      " want 0x%" PRIx64, nom, sppm, got, want);
		if (test_failed)
			break;
	}
	end();

	begin("adjfine/ppb-round-trip");
	for (n = -1000000; n <= 1000000; n += 997) {
		s64 ppb = (s64)n * 100;	/* +-100 ppm range in 99.7 ppb steps */
		s64 sppm = ppb * 65536 / 1000;
		s64 back = spx_period_to_ppb(NOM8, spx_scaled_ppm_to_period(NOM8, sppm, NULL));

		/* one 2^-32 ns unit at 8 ns is 0.116 ppb */
		CHECK(back >= ppb - 1 && back <= ppb + 1, "%" PRId64 " ppb came back %" PRId64,
		      ppb, back);
		if (test_failed)
			break;
	}
	end();
}

static void test_extend(void)
{
	begin("extend/no-wrap");
	CHECK(spx_extend_stamp(0x100000500ULL, 0x400, 32) == 0x100000400ULL, "before");
	CHECK(spx_extend_stamp(0x100000500ULL, 0x600, 32) == 0x100000600ULL, "after");
	CHECK(spx_extend_stamp(0x100000500ULL, 0x500, 32) == 0x100000500ULL, "equal");
	end();

	begin("extend/low-bits-wrap");
	/* stamp taken just before the low 32 bits wrapped, ref just after */
	CHECK(spx_extend_stamp(0x200000010ULL, 0xfffffff0ULL, 32) == 0x1fffffff0ULL,
	      "stamp before wrap: 0x%" PRIx64,
	      spx_extend_stamp(0x200000010ULL, 0xfffffff0ULL, 32));
	/* ref read just before the wrap, stamp just after */
	CHECK(spx_extend_stamp(0x1fffffff0ULL, 0x10, 32) == 0x200000010ULL,
	      "stamp after wrap");
	end();

	begin("extend/half-window-edges");
	/* +2^31 - 1 after ref is after; 2^31 after is taken as before */
	CHECK(spx_extend_stamp(0x500000000ULL, 0x7fffffffULL, 32) == 0x57fffffffULL,
	      "max forward");
	CHECK(spx_extend_stamp(0x500000000ULL, 0x80000000ULL, 32) == 0x480000000ULL,
	      "half is backward");
	end();

	begin("extend/widths");
	CHECK(spx_extend_stamp(12345, 0xdeadbeefcafeULL, 64) == 0xdeadbeefcafeULL, "64 bits");
	CHECK(spx_extend_stamp(12345, 1, 0) == 12345, "0 bits");
	CHECK(spx_extend_stamp(10, 1, 1) == 9, "1 bit: window is [-1, 0]");
	CHECK(spx_extend_stamp(10, 0, 1) == 10, "1 bit same");
	CHECK(spx_extend_stamp(0x123456789aULL, 0x89, 8) == 0x1234567889ULL,
	      "8 bits back 0x11");
	CHECK(spx_extend_stamp(0xffffffffffffff00ULL, 0x10, 8) == 0xffffffffffffff10ULL,
	      "near U64_MAX");
	CHECK(spx_extend_stamp(0xfffffffffffffff0ULL, 0x05, 8) == 0x5ULL,
	      "wraps modulo 2^64 forward");
	end();

	begin("extend/random-within-window");
	for (int n = 0; n < 200000; n++) {
		unsigned int bits = 1 + rnd() % 63;
		u64 half = 1ULL << (bits - 1);
		u64 ref = rnd();
		s64 off = (s64)(rnd() % (2 * half)) - (s64)half; /* [-half, half) */
		u64 truth = ref + (u64)off;
		u64 got = spx_extend_stamp(ref, truth & ((1ULL << bits) - 1), bits);

		CHECK(got == truth, "bits %u ref 0x%" PRIx64 " off %" PRId64 ": 0x%" PRIx64,
		      bits, ref, off, got);
		if (test_failed)
			break;
	}
	end();
}

static void test_perout_start(void)
{
	begin("perout/first-start");
	CHECK(spx_perout_first_start(1000, 5000, 100, 10) == 5000, "future start kept");
	CHECK(spx_perout_first_start(5000, 1000, 1000, 0) == 5000, "exactly on an edge");
	CHECK(spx_perout_first_start(5001, 1000, 1000, 0) == 6000, "just past an edge");
	CHECK(spx_perout_first_start(5000, 1000, 1000, 1) == 6000, "margin pushes on");
	CHECK(spx_perout_first_start(3000000000ULL, 0, 1000000000ULL, 1000000) ==
	      4000000000ULL, "start 0 keeps the second phase");
	CHECK(spx_perout_first_start(100, 50, 0, 0) == 50, "period 0 left alone");
	end();
}

/* ------------------------------------------------------------------ */
/* Register-level test card (fixture; semantics of synpcix.toml)       */
/* ------------------------------------------------------------------ */

/*
 * The test card has the clock-side blocks (id .. perout, the first five of
 * enum spx_block); the capture unit's blocks are tested with their own
 * card in test_slot.c.
 */
#define TC_NBLK (SPX_BLK_PEROUT + 1)

struct tcard {
	u32 base[TC_NBLK];
	u32 size[TC_NBLK];
	u32 next[TC_NBLK];	/* NEXT words */
	u32 type_override[TC_NBLK];
	bool dead;			/* reads all ones (card removed) */
	bool stuck;			/* commands never complete */

	/* clock */
	u128 time_fp;			/* ns << 32 | frac, 96 bits */
	u64 period_fp;
	u32 latch_hi, latch_frac;
	u32 set_lo, set_hi, set_frac, adj_lo, adj_hi, per_ns, per_frac;
	u32 pending;
	int pending_polls;
	/* pps */
	u32 pps_ctrl, pps_status, pps_lo, pps_hi, pps_latch_hi;
	/* events */
	u32 ev_ctrl;
	struct { u64 ns; u32 info; } fifo[16];
	int fifo_n;
	u32 ev_hi, ev_info;
	/* event ring registers (event 1.1) */
	u32 ring_ctrl_rd;		/* what ring_ctrl reads */
	u32 ring_base, ring_rd, ring_ctrl_wr;
	unsigned long ring_rd_writes;
	/* perout */
	u32 po_ctrl, po_start_lo, po_start_hi, po_period, po_width;
	u32 po_armed_lo, po_armed_hi, po_arms;
	u32 features, clk_hz;
	unsigned long accesses;
};

static const u32 tc_types[TC_NBLK] = {
	SYNPCIX_ID_TYPE_ID, SYNPCIX_CLOCK_TYPE_ID, SYNPCIX_PPS_TYPE_ID,
	SYNPCIX_EVENT_TYPE_ID, SYNPCIX_PEROUT_TYPE_ID,
};
static const u32 tc_versions[TC_NBLK] = {
	SYNPCIX_ID_VERSION, SYNPCIX_CLOCK_VERSION, SYNPCIX_PPS_VERSION,
	SYNPCIX_EVENT_VERSION, SYNPCIX_PEROUT_VERSION,
};

/* layout of the reference map, chained in address order */
static void tc_init(struct tcard *c)
{
	static const u32 ref_base[TC_NBLK] = {
		SYNPCIX_ID_BASE, SYNPCIX_CLOCK_BASE, SYNPCIX_PPS_BASE,
		SYNPCIX_EVENT_BASE, SYNPCIX_PEROUT_BASE,
	};
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < TC_NBLK; i++) {
		c->base[i] = ref_base[i];
		c->size[i] = i + 1 < TC_NBLK ? ref_base[i + 1] - ref_base[i] : 0x40;
		c->next[i] = i + 1 < TC_NBLK ? ref_base[i + 1] : 0;
	}
	c->period_fp = NOM8;
	c->time_fp = (u128)1000 << 32;
	c->features = SPX_FIELD(ID, FEATURES, N_EVENTS, 2) |
		      SPX_FIELD(ID, FEATURES, FIFO_LOG2, 4) |
		      SPX_FIELD(ID, FEATURES, CAPTURE_DELAY, 3) |
		      SPX_FIELD(ID, FEATURES, PEROUT_DELAY, 2);
	c->clk_hz = 125000000;
}

/* which block holds offset off; -1 if none; *rel = offset in the block */
static int tc_decode(struct tcard *c, u32 off, u32 *rel)
{
	for (int i = 0; i < TC_NBLK; i++)
		if (off >= c->base[i] && off < c->base[i] + c->size[i]) {
			*rel = off - c->base[i];
			return i;
		}
	return -1;
}

static void tc_tick(struct tcard *c)
{
	/* every bus access takes one timebase clock */
	c->time_fp += c->period_fp;
	c->accesses++;
	if (c->pending && !c->stuck && --c->pending_polls <= 0) {
		if (c->pending & SYNPCIX_CLOCK_CTRL_SET_MASK)
			c->time_fp = (u128)((u64)c->set_hi << 32 | c->set_lo) << 32 |
				     c->set_frac;
		if (c->pending & SYNPCIX_CLOCK_CTRL_ADJUST_MASK) {
			s64 adj = (s64)((u64)c->adj_hi << 32 | c->adj_lo);

			c->time_fp += (u128)((__int128)adj * ((__int128)1 << 32));
			c->time_fp &= ((u128)1 << 96) - 1;
		}
		if (c->pending & SYNPCIX_CLOCK_CTRL_PERIOD_MASK)
			c->period_fp = (u64)c->per_ns << 32 | c->per_frac;
		c->pending = 0;
	}
}

static u32 tc_read(void *ctx, u32 off)
{
	struct tcard *c = ctx;
	u32 rel;
	int b;

	if (c->dead)
		return 0xffffffff;
	tc_tick(c);
	b = tc_decode(c, off, &rel);
	if (b < 0)
		return 0;
	if (rel == SYNPCIX_BLK_TYPE)
		return c->type_override[b] ? c->type_override[b] : tc_types[b];
	if (rel == SYNPCIX_BLK_VERSION)
		return tc_versions[b];
	if (rel == SYNPCIX_BLK_NEXT)
		return c->next[b];
	switch (b) {
	case SPX_BLK_ID:
		if (rel == SPX_REL(ID, MAGIC))
			return SYNPCIX_ID_MAGIC_RESET;
		if (rel == SPX_REL(ID, FEATURES))
			return c->features;
		if (rel == SPX_REL(ID, CLK_HZ))
			return c->clk_hz;
		if (rel == SPX_REL(ID, BUILD))
			return 0x1234abcd;
		return 0;
	case SPX_BLK_CLOCK:
		if (rel == SPX_REL(CLOCK, CTRL))
			return c->pending;
		if (rel == SPX_REL(CLOCK, TIME_NS_LO)) {
			u64 ns = (u64)(c->time_fp >> 32);

			c->latch_hi = (u32)(ns >> 32);
			c->latch_frac = (u32)c->time_fp;
			return (u32)ns;
		}
		if (rel == SPX_REL(CLOCK, TIME_NS_HI))
			return c->latch_hi;
		if (rel == SPX_REL(CLOCK, TIME_FRAC))
			return c->latch_frac;
		if (rel == SPX_REL(CLOCK, PERIOD_NS) || rel == SPX_REL(CLOCK, EFF_PERIOD_NS))
			return (u32)(c->period_fp >> 32);
		if (rel == SPX_REL(CLOCK, PERIOD_FRAC) || rel == SPX_REL(CLOCK, EFF_PERIOD_FRAC))
			return (u32)c->period_fp;
		return 0;
	case SPX_BLK_PPS:
		if (rel == SPX_REL(PPS, CTRL))
			return c->pps_ctrl;
		if (rel == SPX_REL(PPS, STATUS))
			return c->pps_status;
		if (rel == SPX_REL(PPS, STAMP_NS_LO)) {
			c->pps_status &= ~SYNPCIX_PPS_STATUS_STAMP_NEW_MASK;
			c->pps_latch_hi = c->pps_hi;
			return c->pps_lo;
		}
		if (rel == SPX_REL(PPS, STAMP_NS_HI))
			return c->pps_latch_hi;
		return 0;
	case SPX_BLK_EVENT:
		if (rel == SPX_REL(EVENT, CTRL))
			return c->ev_ctrl;
		if (rel == SPX_REL(EVENT, STATUS))
			return (u32)c->fifo_n;
		if (rel == SPX_REL(EVENT, STAMP_NS_LO)) {
			u64 ns = 0;

			c->ev_info = 0;
			if (c->fifo_n) {
				ns = c->fifo[0].ns;
				c->ev_info = c->fifo[0].info;
				memmove(c->fifo, c->fifo + 1, --c->fifo_n * sizeof(c->fifo[0]));
			}
			c->ev_hi = (u32)(ns >> 32);
			return (u32)ns;
		}
		if (rel == SPX_REL(EVENT, STAMP_NS_HI))
			return c->ev_hi;
		if (rel == SPX_REL(EVENT, STAMP_INFO))
			return c->ev_info;
		if (rel == SPX_REL(EVENT, RING_CTRL))
			return c->ring_ctrl_rd;
		return 0;
	case SPX_BLK_PEROUT:
		if (rel == SPX_REL(PEROUT, CTRL))
			return c->po_ctrl;
		return 0;
	}
	return 0;
}

static void tc_write(void *ctx, u32 off, u32 val)
{
	struct tcard *c = ctx;
	u32 rel;
	int b;

	if (c->dead)
		return;
	tc_tick(c);
	b = tc_decode(c, off, &rel);
	if (b == SPX_BLK_CLOCK) {
		if (rel == SPX_REL(CLOCK, CTRL)) {
			c->pending |= val & 7;
			c->pending_polls = 3;
		} else if (rel == SPX_REL(CLOCK, SET_NS_LO)) {
			c->set_lo = val;
		} else if (rel == SPX_REL(CLOCK, SET_NS_HI)) {
			c->set_hi = val;
		} else if (rel == SPX_REL(CLOCK, SET_FRAC)) {
			c->set_frac = val;
		} else if (rel == SPX_REL(CLOCK, ADJ_NS_LO)) {
			c->adj_lo = val;
		} else if (rel == SPX_REL(CLOCK, ADJ_NS_HI)) {
			c->adj_hi = val;
		} else if (rel == SPX_REL(CLOCK, PERIOD_NS)) {
			c->per_ns = val;
		} else if (rel == SPX_REL(CLOCK, PERIOD_FRAC)) {
			c->per_frac = val;
		}
	} else if (b == SPX_BLK_PPS && rel == SPX_REL(PPS, CTRL)) {
		c->pps_ctrl = val;
	} else if (b == SPX_BLK_EVENT && rel == SPX_REL(EVENT, CTRL)) {
		c->ev_ctrl = val;
	} else if (b == SPX_BLK_EVENT && rel == SPX_REL(EVENT, RING_BASE)) {
		c->ring_base = val;
	} else if (b == SPX_BLK_EVENT && rel == SPX_REL(EVENT, RING_RD)) {
		c->ring_rd = val;
		c->ring_rd_writes++;
	} else if (b == SPX_BLK_EVENT && rel == SPX_REL(EVENT, RING_CTRL)) {
		c->ring_ctrl_wr = val;
	} else if (b == SPX_BLK_PEROUT) {
		if (rel == SPX_REL(PEROUT, CTRL)) {
			if ((val & 1) && !(c->po_ctrl & 1)) {
				c->po_armed_lo = c->po_start_lo;
				c->po_armed_hi = c->po_start_hi;
				c->po_arms++;
			}
			c->po_ctrl = val;
		} else if (rel == SPX_REL(PEROUT, START_NS_LO)) {
			c->po_start_lo = val;
		} else if (rel == SPX_REL(PEROUT, START_NS_HI)) {
			c->po_start_hi = val;
		} else if (rel == SPX_REL(PEROUT, PERIOD_NS)) {
			c->po_period = val;
		} else if (rel == SPX_REL(PEROUT, WIDTH_NS)) {
			c->po_width = val;
		}
	}
}

static const struct spx_os_ops tc_ops = {
	.read32 = tc_read,
	.write32 = tc_write,
};

static void hw_init(struct spx_hw *hw, struct tcard *c)
{
	memset(hw, 0, sizeof(*hw));
	hw->os.ops = &tc_ops;
	hw->os.ctx = c;
	hw->os.log_level = 0;
}

static void test_probe(void)
{
	struct tcard c;
	struct spx_hw hw;
	int err;

	begin("probe/reference-map");
	tc_init(&c);
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == 0, "probe %d: %s", err, spx_os_last_log);
	CHECK(hw.n_blocks == 5, "%u blocks", hw.n_blocks);
	for (int i = 0; i < TC_NBLK; i++)
		CHECK(hw.present[i] && hw.base[i] == c.base[i], "block %s", spx_block_name(i));
	CHECK(hw.n_events == 2 && hw.fifo_depth == 16, "features");
	CHECK(hw.nominal_period_fp == NOM8, "nominal 0x%" PRIx64, hw.nominal_period_fp);
	CHECK(hw.capture_delay_ns == 24 && hw.perout_delay_ns == 16, "delays");
	CHECK(hw.build == 0x1234abcd, "build");
	end();

	begin("probe/relocated-blocks-are-followed");
	tc_init(&c);
	/* id, pps, clock, perout, event; NEXT in that order */
	c.base[SPX_BLK_PPS] = 0x040; c.size[SPX_BLK_PPS] = 0x80;
	c.base[SPX_BLK_CLOCK] = 0x0c0; c.size[SPX_BLK_CLOCK] = 0x40;
	c.base[SPX_BLK_PEROUT] = 0x100; c.size[SPX_BLK_PEROUT] = 0x40;
	c.base[SPX_BLK_EVENT] = 0x400; c.size[SPX_BLK_EVENT] = 0x40;
	c.next[SPX_BLK_ID] = 0x040; c.next[SPX_BLK_PPS] = 0x0c0;
	c.next[SPX_BLK_CLOCK] = 0x100; c.next[SPX_BLK_PEROUT] = 0x400;
	c.next[SPX_BLK_EVENT] = 0;
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == 0, "probe %d: %s", err, spx_os_last_log);
	CHECK(hw.base[SPX_BLK_CLOCK] == 0x0c0 && hw.base[SPX_BLK_EVENT] == 0x400,
	      "bases %x %x", hw.base[SPX_BLK_CLOCK], hw.base[SPX_BLK_EVENT]);
	{
		u64 ns;

		CHECK(spx_set_time(&hw, 777000) == 0, "set");
		CHECK(spx_read_time(&hw, &ns, NULL, NULL) == 0 && ns >= 777000 &&
		      ns < 777000 + 200, "read %" PRIu64, ns);
	}
	end();

	begin("probe/optional-blocks-absent");
	tc_init(&c);
	c.next[SPX_BLK_CLOCK] = 0;	/* chain ends after the clock */
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == 0, "probe %d", err);
	CHECK(!hw.present[SPX_BLK_PPS] && !hw.present[SPX_BLK_EVENT] &&
	      !hw.present[SPX_BLK_PEROUT] && hw.n_events == 0, "optional blocks");
	{
		struct spx_event ev;
		u64 ns;

		CHECK(spx_event_pop(&hw, &ev) == -EOPNOTSUPP, "event pop");
		CHECK(spx_pps_poll(&hw, &ns) == -EOPNOTSUPP, "pps poll");
		CHECK(spx_perout_set(&hw, 0, 1000000, 1000) == -EOPNOTSUPP, "perout");
		CHECK(spx_event_enable(&hw, 0, true, false) == -EINVAL, "event enable");
	}
	end();

	begin("probe/unknown-and-newer-blocks");
	tc_init(&c);
	c.type_override[SPX_BLK_EVENT] = (SYNPCIX_BLOCK_TYPE_PREFIX << 16) | 0x77;
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == 0 && !hw.present[SPX_BLK_EVENT] && hw.present[SPX_BLK_PEROUT],
	      "unknown block skipped, walk goes on (%d)", err);
	end();

	begin("probe/rejects-bad-chains");
	tc_init(&c);
	c.next[SPX_BLK_PEROUT] = c.base[SPX_BLK_CLOCK];	/* loop back */
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == -EIO && strstr(spx_os_last_log, "bad NEXT"), "loop: %d %s", err,
	      spx_os_last_log);
	tc_init(&c);
	c.next[SPX_BLK_PPS] = 0x102;	/* unaligned */
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == -EIO, "unaligned NEXT");
	tc_init(&c);
	c.next[SPX_BLK_PPS] = 0xffc;	/* header would leave the window */
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == -EIO, "NEXT outside window");
	tc_init(&c);
	c.next[SPX_BLK_ID] = 0x080;	/* skips the clock */
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == -ENODEV && strstr(spx_os_last_log, "clock"), "clock missing: %d %s",
	      err, spx_os_last_log);
	tc_init(&c);
	c.type_override[SPX_BLK_ID] = 0x12345678;
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == -ENODEV && strstr(spx_os_last_log, "not a SynPCI-X"),
	      "foreign window: %d %s", err, spx_os_last_log);
	tc_init(&c);
	c.dead = true;
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == -ENODEV && strstr(spx_os_last_log, "all ones"), "dead card: %d %s",
	      err, spx_os_last_log);
	end();

	begin("probe/next-to-missing-block-ends-chain");
	tc_init(&c);
	c.next[SPX_BLK_PEROUT] = 0x200;	/* names a block nothing answers for */
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == 0 && hw.n_blocks == 5 && hw.present[SPX_BLK_PEROUT] &&
	      !hw.present[SPX_BLK_MSI_SLOTS] && hw.n_slots == 0, "probe %d, %u blocks",
	      err, hw.n_blocks);
	CHECK(strstr(spx_os_last_log, "chain ends there"), "says so: %s", spx_os_last_log);
	tc_init(&c);
	c.next[SPX_BLK_ID] = 0x200;	/* ... before the clock: still refused */
	hw_init(&hw, &c);
	err = spx_probe(&hw);
	CHECK(err == -ENODEV && strstr(spx_os_last_log, "clock"), "clock missing: %d %s",
	      err, spx_os_last_log);
	end();

	begin("probe/odd-clock-frequency-falls-back");
	tc_init(&c);
	c.clk_hz = 0;
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == 0 && hw.nominal_period_fp == NOM8, "0 Hz");
	tc_init(&c);
	c.clk_hz = 100000000;
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == 0 && hw.nominal_period_fp == 10ULL << 32, "100 MHz");
	tc_init(&c);
	c.clk_hz = 3;
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == 0 && hw.nominal_period_fp == NOM8, "3 Hz");
	/* a slowed clock (QEMU card at clock-scale 25: 5 MHz, 200 ns) */
	tc_init(&c);
	c.clk_hz = 5000000;
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == 0 && hw.nominal_period_fp == 200ULL << 32, "5 MHz");
	/* 3.90625 MHz would need 256 ns: out of range, falls back */
	tc_init(&c);
	c.clk_hz = 3906250;
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == 0 && hw.nominal_period_fp == NOM8, "3.90625 MHz");
	tc_init(&c);
	c.clk_hz = 3906251;
	hw_init(&hw, &c);
	CHECK(spx_probe(&hw) == 0 && hw.nominal_period_fp > 255ULL << 32 &&
	      hw.nominal_period_fp <= SPX_PERIOD_MAX_FP, "3.906251 MHz: 0x%" PRIx64,
	      hw.nominal_period_fp);
	end();
}

static void test_clock_ops(void)
{
	struct tcard c;
	struct spx_hw hw;
	spx_systs sts;
	u64 ns, t0, t1;
	u32 frac;

	tc_init(&c);
	hw_init(&hw, &c);
	spx_probe(&hw);

	begin("clock/snapshot-read");
	c.time_fp = (u128)0x00000001fffffff8ULL << 32 | 0x80000000u;
	CHECK(spx_read_time(&hw, &ns, &frac, &sts) == 0, "read");
	/* the lo read latched hi: 0x1_fffffff8 + 8 = 0x2_00000000 at latch */
	CHECK(ns == 0x200000000ULL && frac == 0x80000000u,
	      "consistent across the lo wrap: 0x%" PRIx64 " frac 0x%x", ns, frac);
	CHECK(sts.pre_ns && sts.post_ns >= sts.pre_ns, "system bracket");
	end();

	begin("clock/set-then-read");
	CHECK(spx_set_time(&hw, 1700000000123456789ULL) == 0, "set");
	CHECK(spx_read_time(&hw, &ns, NULL, NULL) == 0, "read");
	CHECK(ns >= 1700000000123456789ULL && ns < 1700000000123456789ULL + 100,
	      "read %" PRIu64, ns);
	end();

	begin("clock/adjtime-positive-negative-64bit");
	spx_read_time(&hw, &t0, NULL, NULL);
	CHECK(spx_adj_time(&hw, 5000000000000LL) == 0, "+5000 s");
	spx_read_time(&hw, &t1, NULL, NULL);
	CHECK(t1 - t0 >= 5000000000000ULL && t1 - t0 < 5000000000000ULL + 200,
	      "+5000 s: moved %" PRIu64, t1 - t0);
	CHECK(spx_adj_time(&hw, -7000000000000LL) == 0, "-7000 s");
	spx_read_time(&hw, &t0, NULL, NULL);
	CHECK(t1 - t0 <= 7000000000000ULL && t1 - t0 > 7000000000000ULL - 200,
	      "-7000 s: moved %" PRId64, (s64)(t0 - t1));
	CHECK(spx_adj_time(&hw, -1) == 0 && c.adj_hi == 0xffffffff && c.adj_lo == 0xffffffff,
	      "-1 is two's complement");
	end();

	begin("clock/adjfine-loads-period");
	CHECK(spx_adj_fine(&hw, 65536) == 0, "+1 ppm");
	CHECK(c.period_fp == NOM8 + 34360, "period 0x%" PRIx64, c.period_fp);
	{
		u64 loaded, eff;

		CHECK(spx_get_period(&hw, &loaded, &eff) == 0 && loaded == NOM8 + 34360 &&
		      eff == loaded, "readback");
	}
	CHECK(spx_adj_fine(&hw, INT64_MIN) == 0 && c.period_fp == SPX_PERIOD_MIN_FP,
	      "clamped extreme loads 1 ns");
	/* the whole 8-bit ns field goes out: 248 ns and a fraction */
	CHECK(spx_set_period(&hw, (248ULL << 32) | 0x80000000u) == 0 &&
	      c.per_ns == 248 && c.per_frac == 0x80000000u &&
	      c.period_fp == ((248ULL << 32) | 0x80000000u), "248.5 ns loads: 0x%" PRIx64,
	      c.period_fp);
	CHECK(spx_set_period(&hw, SPX_PERIOD_MAX_FP) == 0 && c.per_ns == 255,
	      "255.99.. ns loads");
	CHECK(spx_set_period(&hw, 256ULL << 32) == -ERANGE, "256 ns rejected");
	CHECK(spx_set_period(&hw, 0) == -ERANGE, "0 rejected");
	spx_adj_fine(&hw, 0);
	end();

	begin("clock/adjfine-refused-while-servo-runs");
	CHECK(spx_pps_set_mode(&hw, SPX_PPS_SERVO) == 0, "servo on");
	CHECK(spx_adj_fine(&hw, 100) == -EBUSY, "busy");
	CHECK(spx_pps_set_mode(&hw, SPX_PPS_OFF) == 0, "servo off");
	CHECK(spx_adj_fine(&hw, 100) == 0, "allowed again");
	spx_adj_fine(&hw, 0);
	end();

	begin("clock/command-timeout");
	c.stuck = true;
	CHECK(spx_set_time(&hw, 5) == -ETIMEDOUT, "set times out");
	CHECK(spx_adj_time(&hw, 5) == -ETIMEDOUT, "adjust times out");
	c.stuck = false;
	c.pending = 0;
	end();

	begin("clock/card-removed");
	c.dead = true;
	CHECK(spx_read_time(&hw, &ns, NULL, NULL) == -ENODEV, "read");
	CHECK(spx_set_time(&hw, 5) == -ENODEV, "set");
	CHECK(spx_adj_fine(&hw, 5) == -ENODEV, "adjfine");
	CHECK(spx_pps_poll(&hw, &ns) == -ENODEV, "pps");
	{
		struct spx_event ev;

		CHECK(spx_event_pop(&hw, &ev) == -ENODEV, "event");
	}
	c.dead = false;
	end();

	begin("locking/balanced");
	CHECK(hw.os.lock_errors == 0 && hw.os.lock_depth == 0, "errors %lu depth %d",
	      hw.os.lock_errors, hw.os.lock_depth);
	end();
}

static void test_inputs_outputs(void)
{
	struct tcard c;
	struct spx_hw hw;
	struct spx_event ev;
	struct spx_pps_status st;
	u64 ns;

	tc_init(&c);
	hw_init(&hw, &c);
	spx_probe(&hw);

	begin("pps/report-stamp");
	CHECK(spx_pps_set_mode(&hw, SPX_PPS_REPORT) == 0, "mode");
	CHECK((c.pps_ctrl & SYNPCIX_PPS_CTRL_MODE_MASK) == SYNPCIX_PPS_CTRL_MODE_REPORT,
	      "ctrl 0x%x", c.pps_ctrl);
	CHECK(spx_pps_poll(&hw, &ns) == 0, "nothing yet");
	c.pps_lo = 0x00000010;
	c.pps_hi = 0x5;
	c.pps_status = SYNPCIX_PPS_STATUS_STAMP_NEW_MASK | SYNPCIX_PPS_STATUS_PRESENT_MASK |
		       SYNPCIX_PPS_STATUS_STATE_LOCKED;
	CHECK(spx_pps_poll(&hw, &ns) == 1 && ns == 0x500000010ULL - 24,
	      "stamp minus capture delay: 0x%" PRIx64, ns);
	CHECK(spx_pps_poll(&hw, &ns) == 0, "read clears stamp_new");
	CHECK(spx_pps_get_status(&hw, &st) == 0 && st.present &&
	      st.state == SYNPCIX_PPS_STATUS_STATE_LOCKED && st.mode == SPX_PPS_REPORT,
	      "status");
	CHECK(spx_pps_set_mode(&hw, 3) == -EINVAL, "mode 3 rejected");
	CHECK(spx_pps_set_falling(&hw, true) == 0 &&
	      c.pps_ctrl == (SYNPCIX_PPS_CTRL_FALLING_MASK | SYNPCIX_PPS_CTRL_MODE_REPORT),
	      "falling edge set, mode kept: 0x%x", c.pps_ctrl);
	CHECK(spx_pps_get_status(&hw, &st) == 0 && st.falling, "status shows falling");
	spx_pps_set_mode(&hw, SPX_PPS_OFF);
	CHECK(c.pps_ctrl == SYNPCIX_PPS_CTRL_FALLING_MASK, "polarity kept");
	CHECK(spx_pps_set_falling(&hw, false) == 0 && c.pps_ctrl == 0, "rising again");
	end();

	begin("event/enable-bits");
	CHECK(spx_event_enable(&hw, 1, true, true) == 0, "ch1 falling");
	CHECK(c.ev_ctrl == (SPX_FIELD(EVENT, CTRL, ENABLE, 2) | SPX_FIELD(EVENT, CTRL, FALLING, 2)),
	      "ctrl 0x%x", c.ev_ctrl);
	CHECK(spx_event_enable(&hw, 0, true, false) == 0, "ch0");
	CHECK(spx_event_enable(&hw, 1, false, false) == 0, "ch1 off");
	CHECK(c.ev_ctrl == SPX_FIELD(EVENT, CTRL, ENABLE, 1), "ctrl 0x%x", c.ev_ctrl);
	CHECK(spx_event_enable(&hw, 2, true, false) == -EINVAL, "ch2 does not exist");
	end();

	begin("event/fifo-pop-and-sequence-gaps");
	c.fifo[0].ns = 0x700000100ULL;
	c.fifo[0].info = SYNPCIX_EVENT_STAMP_INFO_VALID_MASK | SPX_FIELD(EVENT, STAMP_INFO, SEQ, 0xfffe) | 1;
	c.fifo[1].ns = 0x700000200ULL;
	c.fifo[1].info = SYNPCIX_EVENT_STAMP_INFO_VALID_MASK | SPX_FIELD(EVENT, STAMP_INFO, SEQ, 0xffff);
	c.fifo[2].ns = 0x700000300ULL;
	c.fifo[2].info = SYNPCIX_EVENT_STAMP_INFO_VALID_MASK | SPX_FIELD(EVENT, STAMP_INFO, SEQ, 3) | 1;
	c.fifo_n = 3;
	CHECK(spx_event_pop(&hw, &ev) == 1 && ev.ns == 0x700000100ULL - 24 && ev.channel == 1 &&
	      ev.seq == 0xfffe && ev.lost_before == 0, "first");
	CHECK(spx_event_pop(&hw, &ev) == 1 && ev.channel == 0 && ev.lost_before == 0,
	      "second");
	CHECK(spx_event_pop(&hw, &ev) == 1 && ev.seq == 3 && ev.lost_before == 3,
	      "gap across the 16-bit wrap: lost %u", ev.lost_before);
	CHECK(hw.events_lost == 3, "lost total %" PRIu64, hw.events_lost);
	CHECK(spx_event_pop(&hw, &ev) == 0, "empty");
	end();

	begin("perout/arm");
	c.time_fp = (u128)10000000000ULL << 32;	/* t = 10 s */
	CHECK(spx_perout_set(&hw, 12000000000ULL, 1000000000, 100000000) == 0, "arm");
	CHECK(((u64)c.po_armed_hi << 32 | c.po_armed_lo) == 12000000000ULL - 16 &&
	      c.po_period == 1000000000 && c.po_width == 100000000 && (c.po_ctrl & 1),
	      "armed 0x%x%08x", c.po_armed_hi, c.po_armed_lo);
	CHECK(spx_perout_set(&hw, 2000000000ULL, 1000000000, 100000000) == 0, "past start");
	CHECK(((u64)c.po_armed_hi << 32 | c.po_armed_lo) == 11000000000ULL - 16,
	      "moved to the next second: %" PRIu64, (u64)c.po_armed_hi << 32 | c.po_armed_lo);
	CHECK(c.po_arms == 2, "re-armed through enable 0 -> 1");
	CHECK(spx_perout_set(&hw, 0, 127, 10) == -EINVAL, "period < 16 clocks");
	CHECK(spx_perout_set(&hw, 0, 128, 10) == 0, "period = 16 clocks");
	CHECK(spx_perout_set(&hw, 0, 1000, 1000) == -EINVAL, "width = period");
	CHECK(spx_perout_set(&hw, 0, 1000, 0) == -EINVAL, "width 0");
	c.po_arms = 0;
	/* t = 10 s: the card's 48-bit modular compare takes starts < 2^47 ns ahead */
	/* (the test card's time moves a period per access: 1 us either side) */
	CHECK(spx_perout_set(&hw, 10000000000ULL + (1ULL << 47) - 1000, 1000000000,
			     100000000) == 0, "start 2^47 - 1 us ahead (armed)");
	CHECK(spx_perout_set(&hw, 10000000000ULL + (1ULL << 47) + 1000, 1000000000,
			     100000000) == -ERANGE, "start 2^47 + 1 us ahead refused");
	CHECK(spx_perout_set(&hw, ~0ULL, 1000000000, 100000000) == -ERANGE,
	      "start at the end of time refused");
	CHECK(c.po_arms == 1, "refused starts left the output alone: %u arms", c.po_arms);
	CHECK(spx_perout_disable(&hw) == 0 && c.po_ctrl == 0, "disable");
	end();

	begin("locking/balanced-io");
	CHECK(hw.os.lock_errors == 0 && hw.os.lock_depth == 0, "errors %lu", hw.os.lock_errors);
	end();
}

/* an entry as the card writes it: time words, then stamp_info */
static void ring_put(u32 *mem, unsigned int idx, u64 ns, u32 info)
{
	mem[idx * 4] = (u32)ns;
	mem[idx * 4 + 1] = (u32)(ns >> 32);
	mem[idx * 4 + 2] = info;
}

static void test_event_ring(void)
{
	struct tcard c;
	struct spx_hw hw;
	struct spx_event ev;
	u32 bytes = 0, ovr = 0, *mem;
	unsigned int i;
	int ret;

	tc_init(&c);
	hw_init(&hw, &c);
	spx_probe(&hw);
	mem = aligned_alloc(128, 128);
	if (!mem)
		return;

	begin("evring/no-ring-in-build");
	CHECK(spx_evring_bytes(&hw, &bytes) == -EOPNOTSUPP, "size_log2 0 taken for a ring");
	end();

	begin("evring/size-and-refusals");
	c.ring_ctrl_rd = SPX_FIELD(EVENT, RING_CTRL, SIZE_LOG2, 3);	/* 8 entries */
	CHECK(spx_evring_bytes(&hw, &bytes) == 0 && bytes == 128, "bytes %u", bytes);
	CHECK(spx_evring_start(&hw, mem, 0x2010, 128) == -EINVAL, "misaligned accepted");
	CHECK(spx_evring_start(&hw, mem, 0xFFFFFF80ULL + 0x80, 128) == -EINVAL, "above 4 GiB");
	CHECK(spx_evring_start(&hw, mem, 0x2000, 256) == -EINVAL, "wrong size accepted");
	CHECK(c.ring_ctrl_wr == 0 && c.ring_base == 0, "refusal touched the card");
	end();

	begin("evring/start-clears-and-programs");
	memset(mem, 0xff, 128);
	ret = spx_evring_start(&hw, mem, 0x2000, 128);
	for (i = 0; i < 32 && mem[i] == 0; i++)
		;
	CHECK(ret == 0 && i == 32, "start %d, word %u not cleared", ret, i);
	CHECK(c.ring_base == 0x2000 && c.ring_rd == 0 &&
	      c.ring_ctrl_wr == SYNPCIX_EVENT_RING_CTRL_ENABLE_MASK,
	      "base 0x%x rd %u ctrl 0x%x", c.ring_base, c.ring_rd, c.ring_ctrl_wr);
	CHECK(spx_event_pop(&hw, &ev) == -EBUSY, "register pop while the ring runs");
	end();

	begin("evring/poll-takes-and-clears");
	CHECK(spx_evring_poll(&hw, &ev) == 0, "empty ring gave an entry");
	ring_put(mem, 0, 0x500000123ULL, SYNPCIX_EVENT_STAMP_INFO_VALID_MASK |
		 SPX_FIELD(EVENT, STAMP_INFO, SEQ, 7) | SPX_FIELD(EVENT, STAMP_INFO, CHANNEL, 1));
	ret = spx_evring_poll(&hw, &ev);
	CHECK(ret == 1 && ev.ns == 0x500000123ULL - hw.capture_delay_ns && ev.channel == 1 &&
	      ev.seq == 7 && mem[2] == 0, "ret %d ns 0x%llx ch %u seq %u word2 0x%x", ret,
	      (unsigned long long)ev.ns, ev.channel, ev.seq, mem[2]);
	CHECK(spx_evring_poll(&hw, &ev) == 0, "entry taken twice");
	end();

	begin("evring/ack-once-per-batch");
	CHECK(spx_evring_ack(&hw, &ovr) == 0 && c.ring_rd == 1 && c.ring_rd_writes == 2,
	      "rd %u after %lu writes", c.ring_rd, c.ring_rd_writes);
	CHECK(spx_evring_ack(&hw, NULL) == 0 && c.ring_rd_writes == 2, "ack without entries wrote");
	end();

	begin("evring/wrap-and-sequence-gap");
	/* entries 1..7 and then 0 again (the second lap), seq 8..15 with 12 missing */
	for (i = 1; i <= 8; i++)
		ring_put(mem, i & 7, 1000 + i, SYNPCIX_EVENT_STAMP_INFO_VALID_MASK |
			 SPX_FIELD(EVENT, STAMP_INFO, SEQ, 7 + i + (i >= 5)));
	for (i = 0; i < 8 && spx_evring_poll(&hw, &ev) == 1; i++)
		;
	CHECK(i == 8 && ev.seq == 16 && hw.events_lost == 1, "took %u, last seq %u, lost %llu", i,
	      ev.seq, (unsigned long long)hw.events_lost);
	c.ring_ctrl_rd |= SPX_FIELD(EVENT, RING_CTRL, OVERRUNS, 1);
	CHECK(spx_evring_ack(&hw, &ovr) == 0 && c.ring_rd == 9 && ovr == 1,
	      "rd %u overruns %u", c.ring_rd, ovr);
	end();

	begin("evring/dma-error");
	c.ring_ctrl_rd |= SYNPCIX_EVENT_RING_CTRL_DMA_ERROR_MASK;
	CHECK(spx_evring_ack(&hw, NULL) == -EIO, "error not reported");
	end();

	begin("evring/stop-waits-for-busy");
	c.ring_ctrl_rd |= SYNPCIX_EVENT_RING_CTRL_BUSY_MASK;
	CHECK(spx_evring_stop(&hw) == -ETIMEDOUT && hw.evring_mem == mem, "stopped while busy");
	c.ring_ctrl_rd &= ~SYNPCIX_EVENT_RING_CTRL_BUSY_MASK;
	CHECK(spx_evring_stop(&hw) == 0 && !hw.evring_mem && c.ring_ctrl_wr == 0, "not stopped");
	CHECK(spx_event_pop(&hw, &ev) == 0, "register pop after stop");
	CHECK(hw.os.lock_errors == 0 && hw.os.lock_depth == 0, "errors %lu", hw.os.lock_errors);
	end();
	free(mem);
}

int main(void)
{
	test_mul_div();
	test_scaled_ppm();
	test_extend();
	test_perout_start();
	test_probe();
	test_clock_ops();
	test_inputs_outputs();
	test_event_ring();
	return failures ? 1 : 0;
}
