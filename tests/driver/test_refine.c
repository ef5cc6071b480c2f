// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the driver core's stamp refinement
 * (driver/core/synpcix_slot.c: spx_ingress_ns, spx_wire_ns,
 * spx_stamp_refine; docs/driver.md, "Stamp refinement"): the ingress
 * model's rounding and limits, Ethernet wire times at 10/100/1000 Mb/s
 * and other speeds, the batched-stamp bound (first packet, a batched time
 * already later than the bound, exact stamps left alone, stale chains,
 * link down), saturation instead of wrap-around, a 48-bit stamp wrap
 * through spx_stamp_decode, and a property test against a model link:
 * back-to-back frames of random length must come out exact, spaced ones
 * never later than their arrival.
 *
 * Output: one line per test, "ok NAME" or "not ok NAME: why"; exit status 1
 * when any test failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "synpcix_slot.h"

#define UNIT_RNG_SEED 0x452821e638d01377ULL
#include "unit.h"

static struct spx_stamp mk(u64 ns, bool batched)
{
	struct spx_stamp st;

	memset(&st, 0, sizeof(st));
	st.ns = ns;
	st.batched = batched;
	return st;
}

static void t_ingress(void)
{
	struct spx_ingress l = { 0, 0 };

	begin("ingress_model");
	CHECK(spx_ingress_ns(&l, 60) == 0, "zero model gives %d", spx_ingress_ns(&l, 60));
	l.base_ns = 300;
	l.ps_per_byte = 3750;		/* 32 bits at 66 MHz: 15 ns per 4 bytes */
	CHECK(spx_ingress_ns(&l, 0) == 300, "len 0: %d", spx_ingress_ns(&l, 0));
	CHECK(spx_ingress_ns(&l, 60) == 525, "len 60: %d, want 525", spx_ingress_ns(&l, 60));
	CHECK(spx_ingress_ns(&l, 1514) == 300 + 5678, "len 1514: %d, want 5978 (5677.5 rounded)",
	      spx_ingress_ns(&l, 1514));
	l.base_ns = -20;
	l.ps_per_byte = -1250;
	CHECK(spx_ingress_ns(&l, 2) == -23, "negative, -2.5 rounds away from 0: %d",
	      spx_ingress_ns(&l, 2));
	l.base_ns = SPX_INGRESS_BASE_MAX_NS;
	l.ps_per_byte = SPX_INGRESS_PS_PER_BYTE_MAX;
	CHECK(!spx_ingress_check(&l), "limits refused");
	CHECK(spx_ingress_ns(&l, 0xffffffffu) == SPX_INGRESS_BASE_MAX_NS + 2147385,
	      "largest: %d", spx_ingress_ns(&l, 0xffffffffu));
	l.base_ns = -SPX_INGRESS_BASE_MAX_NS;
	l.ps_per_byte = -SPX_INGRESS_PS_PER_BYTE_MAX;
	CHECK(!spx_ingress_check(&l), "negative limits refused");
	CHECK(spx_ingress_ns(&l, 65535) == -SPX_INGRESS_BASE_MAX_NS - 2147385,
	      "most negative: %d", spx_ingress_ns(&l, 65535));
	l.base_ns = SPX_INGRESS_BASE_MAX_NS + 1;
	l.ps_per_byte = 0;
	CHECK(spx_ingress_check(&l) == -ERANGE, "base above the limit accepted");
	CHECK(spx_ingress_ns(&l, 0) == SPX_INGRESS_BASE_MAX_NS, "unchecked base not clamped");
	l.base_ns = 0;
	l.ps_per_byte = -SPX_INGRESS_PS_PER_BYTE_MAX - 1;
	CHECK(spx_ingress_check(&l) == -ERANGE, "per byte below the limit accepted");
	l.ps_per_byte = 0x7fffffff;
	CHECK(spx_ingress_ns(&l, 65535) == 2147385, "unchecked per-byte not clamped: %d",
	      spx_ingress_ns(&l, 65535));
	end();
}

static void t_wire(void)
{
	begin("wire_time");
	/* 64-byte frame at GbE: (64 + 8 + 12) bytes * 8 ns = 672 ns */
	CHECK(spx_wire_ns(60, 1000, false) == 672, "60 without FCS: %u", spx_wire_ns(60, 1000, false));
	CHECK(spx_wire_ns(64, 1000, true) == 672, "64 with FCS: %u", spx_wire_ns(64, 1000, true));
	CHECK(spx_wire_ns(40, 1000, false) == 672, "runt padded to 64: %u",
	      spx_wire_ns(40, 1000, false));
	CHECK(spx_wire_ns(0, 1000, true) == 672, "len 0: %u", spx_wire_ns(0, 1000, true));
	CHECK(spx_wire_ns(1514, 1000, false) == 12304, "1514: %u", spx_wire_ns(1514, 1000, false));
	CHECK(spx_wire_ns(1518, 1000, true) == 12304, "1518 with FCS: %u",
	      spx_wire_ns(1518, 1000, true));
	CHECK(spx_wire_ns(60, 100, false) == 6720, "100 Mb/s: %u", spx_wire_ns(60, 100, false));
	CHECK(spx_wire_ns(60, 10, false) == 67200, "10 Mb/s: %u", spx_wire_ns(60, 10, false));
	CHECK(spx_wire_ns(1514, 10, false) == 1230400, "10 Mb/s 1514: %u",
	      spx_wire_ns(1514, 10, false));
	CHECK(spx_wire_ns(60, 2500, false) == 268, "2.5 Gb/s rounds down: %u",
	      spx_wire_ns(60, 2500, false));
	CHECK(spx_wire_ns(60, 10000, false) == 67, "10 Gb/s: %u", spx_wire_ns(60, 10000, false));
	CHECK(spx_wire_ns(60, 0, false) == 0, "unknown speed: %u", spx_wire_ns(60, 0, false));
	CHECK(spx_wire_ns(0xffffffffu, 10, false) == (65535u + 24u) * 800u,
	      "length clamped to 16 bits: %u", spx_wire_ns(0xffffffffu, 10, false));
	end();
}

static void t_chain_basic(void)
{
	struct spx_ingress l = { 500, 0 };
	struct spx_rx_chain c;
	struct spx_stamp st;
	bool b = true;
	u64 t;

	begin("refine_first_packet");
	spx_rx_chain_init(&c, 1000, false);
	st = mk(10000, true);		/* a batched stamp with nothing before it */
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 10000 && !b, "first batched: %" PRIu64 " bounded %d, want the card's 10000, 0",
	      t, b);
	CHECK(c.valid && c.prev_ns == 10000, "chain not started: valid %d prev %" PRIu64,
	      c.valid, c.prev_ns);
	spx_rx_chain_init(&c, 1000, false);
	st = mk(10000, false);		/* an exact one: ingress latency off */
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 9500 && !b, "first exact: %" PRIu64 " bounded %d, want 9500, 0", t, b);
	end();

	begin("refine_exact_then_batched");
	spx_rx_chain_init(&c, 1000, false);
	st = mk(10000, false);
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 9500 && !b, "exact: %" PRIu64 ", want 9500", t);
	st = mk(10000, true);		/* same capture: found after the first */
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 9500 + 672 && b, "batched: %" PRIu64 " bounded %d, want 10172, 1", t, b);
	t = spx_stamp_refine(&c, &st, 1514, &l, &b);
	CHECK(t == 10172 + 12304 && b, "next batched, 1514 bytes: %" PRIu64, t);
	end();

	begin("refine_batched_later_than_bound");
	spx_rx_chain_init(&c, 1000, false);
	st = mk(10000, false);
	spx_stamp_refine(&c, &st, 60, &l, NULL);
	st = mk(20000, true);		/* capture of a frame long after */
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 20000 && !b, "batched later than the bound: %" PRIu64 " bounded %d", t, b);
	st = mk(20000 + 672, true);	/* another capture, on the bound */
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 20672 && !b, "on the bound: %" PRIu64 " bounded %d", t, b);
	st = mk(20000 + 672, true);	/* one ns below the bound */
	t = spx_stamp_refine(&c, &st, 59, &l, &b);	/* runt: 64 on the wire */
	CHECK(t == 20672 + 672 && b, "below the bound: %" PRIu64 " bounded %d", t, b);
	end();

	begin("refine_exact_left_alone");
	spx_rx_chain_init(&c, 1000, false);
	st = mk(10000, false);
	spx_stamp_refine(&c, &st, 60, &l, NULL);
	st = mk(10100, false);		/* exact, earlier than prev + wire */
	t = spx_stamp_refine(&c, &st, 60, &l, &b);
	CHECK(t == 9600 && !b, "exact moved: %" PRIu64, t);
	CHECK(c.prev_ns == 9600, "chain does not follow the exact stamp: %" PRIu64, c.prev_ns);
	end();

	begin("refine_no_model_no_link");
	spx_rx_chain_init(&c, 0, false);	/* link down / unknown */
	st = mk(10000, false);
	spx_stamp_refine(&c, &st, 60, NULL, NULL);
	st = mk(10000, true);
	t = spx_stamp_refine(&c, &st, 60, NULL, &b);
	CHECK(t == 10000 && !b, "no speed: %" PRIu64 " bounded %d, want the card's time", t, b);
	end();

	begin("refine_speeds");
	{
		static const u32 mbps[] = { 10, 100, 1000 };
		unsigned int i;

		for (i = 0; i < 3; i++) {
			spx_rx_chain_init(&c, mbps[i], true);
			st = mk(1000000, false);
			spx_stamp_refine(&c, &st, 64, NULL, NULL);
			st = mk(1000000, true);
			t = spx_stamp_refine(&c, &st, 64, NULL, &b);
			CHECK(t == 1000000 + 672000 / mbps[i] && b, "%u Mb/s: %" PRIu64,
			      mbps[i], t);
		}
	}
	end();

	begin("refine_stale_chain");
	spx_rx_chain_init(&c, 1000, false);
	st = mk(50000000, false);	/* then the clock is stepped back 40 ms */
	spx_stamp_refine(&c, &st, 60, NULL, NULL);
	st = mk(10000000, true);
	t = spx_stamp_refine(&c, &st, 60, NULL, &b);
	CHECK(t == 10000000 && !b, "stale chain used: %" PRIu64, t);
	st = mk(10000000, true);
	t = spx_stamp_refine(&c, &st, 60, NULL, &b);
	CHECK(t == 10000672 && b, "new chain not started: %" PRIu64, t);
	/* a lead just inside the limit is still physics */
	spx_rx_chain_init(&c, 1000, false);
	st = mk(10000000 + SPX_CHAIN_MAX_LEAD_NS - 672, false);
	spx_stamp_refine(&c, &st, 60, NULL, NULL);
	st = mk(10000000, true);
	t = spx_stamp_refine(&c, &st, 60, NULL, &b);
	CHECK(t == 10000000 + SPX_CHAIN_MAX_LEAD_NS && b, "lead of 1 ms refused: %" PRIu64, t);
	end();

	begin("refine_saturates");
	{
		struct spx_ingress big = { SPX_INGRESS_BASE_MAX_NS, 0 };
		struct spx_ingress neg = { -SPX_INGRESS_BASE_MAX_NS, 0 };

		spx_rx_chain_init(&c, 1000, false);
		st = mk(1000, false);
		t = spx_stamp_refine(&c, &st, 60, &big, NULL);
		CHECK(t == 0, "below 0 wrapped: %" PRIu64, t);
		st = mk(~0ULL - 10, false);
		t = spx_stamp_refine(&c, &st, 60, &neg, NULL);
		CHECK(t == ~0ULL, "above the top wrapped: %" PRIu64, t);
		st = mk(~0ULL - 10, true);	/* prev at the top: bound saturates */
		t = spx_stamp_refine(&c, &st, 60, NULL, &b);
		CHECK(t == ~0ULL && b, "bound wrapped: %" PRIu64 " bounded %d", t, b);
	}
	end();
}

/* Stamps across the 48-bit wrap of the card's stamp field: decoded against
 * a reference time, then refined; the chain runs on through the wrap. */
static void t_wrap(void)
{
	const u64 wrap = 1ULL << SPX_STAMP_NS_BITS;
	const u64 hi = (u64)(SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_MARKER_VALID <<
			     SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_MARKER_SHIFT) << 32;
	const u64 batched = (u64)SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_BATCHED_MASK << 32;
	struct spx_ingress l = { 550, 0 };
	struct spx_rx_chain c;
	struct spx_stamp st;
	u64 base = 5 * wrap - 1000, ref = 5 * wrap, t;
	int err;

	begin("refine_48bit_wrap");
	spx_rx_chain_init(&c, 1000, false);
	err = spx_stamp_decode(hi | (base & (wrap - 1)), ref, 0, &st);
	CHECK(!err && st.ns == base && !st.batched, "exact before the wrap: err %d ns %" PRIu64,
	      err, st.ns);
	t = spx_stamp_refine(&c, &st, 60, &l, NULL);
	CHECK(t == base - 550, "exact refined %" PRIu64, t);
	/* two batched entries of that capture, refined past the wrap */
	for (int i = 1; i <= 2; i++) {
		err = spx_stamp_decode(hi | batched | (base & (wrap - 1)), ref, 0, &st);
		CHECK(!err && st.batched && st.ns == base, "batched decode: err %d", err);
		t = spx_stamp_refine(&c, &st, 60, &l, NULL);
		CHECK(t == base - 550 + 672u * (u64)i, "batched %d: %" PRIu64, i, t);
	}
	/* an exact stamp after the wrap: low bits small */
	err = spx_stamp_decode(hi | 400, ref, 0, &st);
	CHECK(!err && st.ns == 5 * wrap + 400, "after the wrap: %" PRIu64, st.ns);
	t = spx_stamp_refine(&c, &st, 60, &l, NULL);
	CHECK(t == 5 * wrap + 400 - 550, "after the wrap refined: %" PRIu64, t);
	err = spx_stamp_decode(hi | batched | 400, ref, 0, &st);
	t = spx_stamp_refine(&c, &st, 60, &l, NULL);
	CHECK(!err && t == 5 * wrap + 400 - 550 + 672, "batched after the wrap: %" PRIu64, t);
	end();
}

/*
 * A model link and NIC. Back to back 64-byte frames (line rate) whose
 * NIC path is the ingress model (550 ns, below the 672 ns wire time), a
 * capture every 1..8 frames (the first entry exact, the rest batched with
 * its time): every refined stamp must equal the arrival. Then frames of
 * random length with random gaps, the NIC serial (a frame completes its
 * path after the previous one), random extra delays of the MSI: an exact
 * stamp is its arrival plus its extra delay; a batched one is either its
 * card time (then not below the bound) or the bound (then it adds no
 * error to the previous entry's).
 */
static void t_property(void)
{
	struct spx_ingress l = { 550, 0 };
	struct spx_rx_chain c;
	int round;

	begin("refine_property_line_rate");
	for (round = 0; round < 100 && !test_failed; round++) {
		u64 arr = 1000000000ULL + rnd() % 1000000, cap = 0;
		int left = 0;
		u32 i;

		spx_rx_chain_init(&c, 1000, false);
		for (i = 0; i < 300 && !test_failed; i++) {
			struct spx_stamp st;
			u64 t;

			if (i)
				arr += spx_wire_ns(60, 1000, false);
			if (left == 0) {
				cap = arr + 550;
				left = 1 + (int)(rnd() % 8);
				st = mk(cap, false);
			} else {
				st = mk(cap, true);
			}
			left--;
			t = spx_stamp_refine(&c, &st, 60, &l, NULL);
			CHECK(t == arr, "round %d frame %u (%s): refined %" PRIu64 ", arrival %" PRIu64,
			      round, i, st.batched ? "batched" : "exact", t, arr);
		}
	}
	end();

	begin("refine_property_mixed");
	l.base_ns = 420;
	l.ps_per_byte = 3750;
	for (round = 0; round < 200 && !test_failed; round++) {
		u64 arr = 1000000000ULL + rnd() % 1000000, done = 0, cap = 0;
		u64 prev_t = 0, prev_arr = 0;
		int left = 0;
		u32 i, len = 60;

		spx_rx_chain_init(&c, 1000, false);
		for (i = 0; i < 300 && !test_failed; i++) {
			struct spx_stamp st;
			u64 t, extra = rnd() % 700, path;
			bool b;

			if (i) {
				len = 60 + (u32)(rnd() % (1514 - 60 + 1));
				arr += spx_wire_ns(len, 1000, false) + (rnd() & 1 ? rnd() % 20000 : 0);
			}
			path = (u64)spx_ingress_ns(&l, len);
			done = (arr > done ? arr : done) + path;	/* NIC is serial */
			if (left == 0) {
				cap = done + extra;	/* this frame's MSI latched */
				left = 1 + (int)(rnd() % 8);
				st = mk(cap, false);
			} else {
				st = mk(cap, true);	/* completed before the ring read */
			}
			left--;
			t = spx_stamp_refine(&c, &st, len, &l, &b);
			if (!st.batched)
				CHECK(t == cap - path, "round %d frame %u exact: %" PRIu64 " want %" PRIu64,
				      round, i, t, cap - path);
			else if (b)
				CHECK(t == prev_t + spx_wire_ns(len, 1000, false) &&
				      (s64)(t - arr) <= (s64)(prev_t - prev_arr),
				      "round %d frame %u bounded: %" PRIu64 " (arrival %" PRIu64
				      "), previous %" PRIu64 " (arrival %" PRIu64 ")", round, i, t, arr,
				      prev_t, prev_arr);
			else
				CHECK(t == cap && t >= prev_t + spx_wire_ns(len, 1000, false),
				      "round %d frame %u batched: %" PRIu64 ", card %" PRIu64, round, i,
				      t, cap);
			prev_t = t;
			prev_arr = arr;
		}
	}
	end();
}

int main(void)
{
	t_ingress();
	t_wire();
	t_chain_basic();
	t_wrap();
	t_property();
	return failures ? 1 : 0;
}
