// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the MSI slot part of the driver core
 * (driver/core/synpcix_slot.c) in user space: stamp decoding against
 * 128-bit reference arithmetic, ring validation, and the register sequences
 * against a register image with the semantics of hdl/regmap/synpcix.toml
 * that matter here: the slot_sel window onto per-slot registers (slots at
 * or above info.n_slots read 0 and ignore writes), read-only counters,
 * read-to-clear cause_acc, and an engine busy flag with a moving index. It
 * is a test fixture, not the card: the gateware is tested by GHDL and the
 * co-simulation.
 *
 * Output: one line per test, "ok NAME" or "not ok NAME: why"; exit status 1
 * when any test failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

#include "synpcix_slot.h"

#define UNIT_RNG_SEED 0x243f6a8885a308d3ULL
#include "unit.h"

/* ------------------------------------------------------------------ */
/* Register image with the slot window                                 */
/* ------------------------------------------------------------------ */

#define MS(REG) SYNPCIX_MSI_SLOTS_##REG
#define WIN_FIRST MS(CTRL)
#define WIN_END (MS(AMBIGUOUS) + 4)
#define WIN_WORDS ((WIN_END - WIN_FIRST) / 4)
#define W(REG) ((MS(REG) - WIN_FIRST) / 4)

struct scard {
	u32 img[SYNPCIX_REG_WINDOW_BYTES / 4];
	u32 bank[SPX_MAX_SLOTS][WIN_WORDS];
	unsigned int n_slots;	/* slots that exist behind the window */
	unsigned long reads, writes;
	int busy_reads;		/* status reads that still see busy (-1: forever) */
	bool index_moves;	/* while busy, each index read advances it */
	bool dead;
};

static void sc_hdr(struct scard *c, u32 base, u32 type, u32 version, u32 next)
{
	c->img[(base + SYNPCIX_BLK_TYPE) / 4] = type;
	c->img[(base + SYNPCIX_BLK_VERSION) / 4] = version;
	c->img[(base + SYNPCIX_BLK_NEXT) / 4] = next;
}

/* id -> clock -> msi_slots -> dma -> irq, at the reference map's bases */
static void sc_init(struct scard *c, unsigned int n_slots, u32 latch_clks)
{
	unsigned int s;

	memset(c, 0, sizeof(*c));
	c->n_slots = n_slots;
	sc_hdr(c, SYNPCIX_ID_BASE, SYNPCIX_ID_TYPE_ID, SYNPCIX_ID_VERSION, SYNPCIX_CLOCK_BASE);
	c->img[SYNPCIX_ID_MAGIC / 4] = SYNPCIX_ID_MAGIC_RESET;
	c->img[SYNPCIX_ID_CLK_HZ / 4] = 125000000;
	c->img[SYNPCIX_ID_FEATURES / 4] = SPX_FIELD(ID, FEATURES, N_SLOTS, n_slots);
	sc_hdr(c, SYNPCIX_CLOCK_BASE, SYNPCIX_CLOCK_TYPE_ID, SYNPCIX_CLOCK_VERSION,
	       SYNPCIX_MSI_SLOTS_BASE);
	sc_hdr(c, MS(BASE), MS(TYPE_ID), MS(VERSION), SYNPCIX_DMA_BASE);
	c->img[MS(INFO) / 4] = SPX_FIELD(MSI_SLOTS, INFO, N_SLOTS, n_slots) |
			       SPX_FIELD(MSI_SLOTS, INFO, FIFO_LOG2, 8) |
			       SPX_FIELD(MSI_SLOTS, INFO, LATCH_CLKS, latch_clks) |
			       SPX_FIELD(MSI_SLOTS, INFO, RING_LOG2, 12);
	sc_hdr(c, SYNPCIX_DMA_BASE, SYNPCIX_DMA_TYPE_ID, SYNPCIX_DMA_VERSION, SYNPCIX_IRQ_BASE);
	c->img[SYNPCIX_DMA_INFO / 4] = SYNPCIX_DMA_INFO_RESET;
	sc_hdr(c, SYNPCIX_IRQ_BASE, SYNPCIX_IRQ_TYPE_ID, SYNPCIX_IRQ_VERSION, 0);
	for (s = 0; s < SPX_MAX_SLOTS; s++) {
		c->bank[s][W(RING_STRIDE)] = MS(RING_STRIDE_RESET);
		c->bank[s][W(DONE_OFF)] = MS(DONE_OFF_RESET);
		c->bank[s][W(DONE_MASK)] = MS(DONE_MASK_RESET);
	}
}

static u32 sc_sel(struct scard *c)
{
	return c->img[MS(SLOT_SEL) / 4] & MS(SLOT_SEL_SLOT_MASK);
}

static u32 sc_read(void *ctx, u32 off)
{
	struct scard *c = ctx;

	c->reads++;
	if (c->dead)
		return 0xffffffff;
	if (off >= WIN_FIRST && off < WIN_END) {
		u32 s = sc_sel(c), *r, v;

		if (s >= c->n_slots)
			return 0;
		r = &c->bank[s][(off - WIN_FIRST) / 4];
		v = *r;
		if (off == MS(CAUSE_ACC))
			*r = 0;
		if (off == MS(INDEX) && c->index_moves && c->busy_reads)
			*r = (*r + 1) & 0xffff;
		return v;
	}
	if (off == MS(STATUS)) {
		if (c->busy_reads > 0)
			c->busy_reads--;
		return c->busy_reads ? MS(STATUS_BUSY_MASK) : 0;
	}
	return c->img[off / 4];
}

static void sc_write(void *ctx, u32 off, u32 val)
{
	struct scard *c = ctx;

	c->writes++;
	if (c->dead)
		return;
	if (off >= WIN_FIRST && off < WIN_END) {
		u32 s = sc_sel(c);

		/* counters and the latest-capture registers are read only
		 * (the card's writable words: up to index, settle, head_addr_lo) */
		if (s < c->n_slots && (off < MS(CAPTURES) || off == MS(SETTLE) ||
				       off == MS(HEAD_ADDR_LO)))
			c->bank[s][(off - WIN_FIRST) / 4] = val;
		return;
	}
	if (off == SYNPCIX_IRQ_STATUS) {	/* write 1s to clear */
		c->img[off / 4] &= ~val;
		return;
	}
	c->img[off / 4] = val;
}

static const struct spx_os_ops sc_ops = {
	.read32 = sc_read,
	.write32 = sc_write,
};

static int hw_init(struct spx_hw *hw, struct scard *c)
{
	memset(hw, 0, sizeof(*hw));
	hw->os.ops = &sc_ops;
	hw->os.ctx = c;
	return spx_probe(hw);
}

/* ------------------------------------------------------------------ */
/* Discovery                                                            */
/* ------------------------------------------------------------------ */

static struct spx_ring legacy_ring(void);

static void test_probe(void)
{
	struct spx_hw hw;
	struct scard c;
	int err;

	begin("slot-probe/blocks-and-info");
	sc_init(&c, 4, 2);
	err = hw_init(&hw, &c);
	CHECK(err == 0, "probe %d: %s", err, spx_os_last_log);
	CHECK(hw.present[SPX_BLK_MSI_SLOTS] && hw.present[SPX_BLK_DMA] &&
	      hw.present[SPX_BLK_IRQ], "capture blocks found");
	CHECK(hw.base[SPX_BLK_MSI_SLOTS] == MS(BASE) && hw.base[SPX_BLK_IRQ] == SYNPCIX_IRQ_BASE,
	      "bases");
	CHECK(hw.n_slots == 4, "n_slots %u", hw.n_slots);
	CHECK(hw.slot_fifo_depth == 256, "fifo %u", hw.slot_fifo_depth);
	CHECK(hw.latch_clks == 2 && hw.latch_ns == 16, "latch %u clks %" PRIu64 " ns",
	      hw.latch_clks, hw.latch_ns);
	CHECK(hw.addr_bits == 48, "dma.info: %u address bits", hw.addr_bits);
	CHECK(hw.ring_max == 4096, "info.ring_log2: %u entries", hw.ring_max);
	end();

	begin("slot-probe/ring-count-limit");
	sc_init(&c, 4, 2);
	c.img[MS(INFO) / 4] &= ~SPX_FIELD(MSI_SLOTS, INFO, RING_LOG2, 0x1f);
	err = hw_init(&hw, &c);
	CHECK(err == 0 && hw.ring_max == 65535, "no ring_log2 (msi_slots 1.0): %d, %u", err,
	      hw.ring_max);
	{
		struct spx_ring r = legacy_ring();

		r.count = 65535;
		r.base = 0;
		CHECK(spx_slot_program(&hw, 0, &r) == 0, "count 65535 on such a build: %s",
		      spx_os_last_log);
	}
	end();

	begin("slot-probe/dma-address-bits");
	sc_init(&c, 4, 2);
	c.img[(SYNPCIX_DMA_BASE + SYNPCIX_BLK_VERSION) / 4] = SYNPCIX_DMA_VERSION & ~0xffffu;
	err = hw_init(&hw, &c);
	CHECK(err == 0 && hw.addr_bits == 64, "dma block 1.0 (no info): %d, %u bits",
	      err, hw.addr_bits);
	sc_init(&c, 4, 2);
	c.img[SYNPCIX_DMA_INFO / 4] = 70;
	err = hw_init(&hw, &c);
	CHECK(err == 0 && hw.addr_bits == 32 && strstr(spx_os_last_log, "not in 32..64"),
	      "a bad width falls back to 32 and says so: %d, %u bits: %s", err,
	      hw.addr_bits, spx_os_last_log);
	end();

	begin("slot-probe/card-without-capture-unit");
	sc_init(&c, 4, 2);
	c.img[(SYNPCIX_CLOCK_BASE + SYNPCIX_BLK_NEXT) / 4] = 0;	/* chain ends */
	err = hw_init(&hw, &c);
	CHECK(err == 0, "probe %d: %s", err, spx_os_last_log);
	CHECK(hw.n_slots == 0 && !hw.present[SPX_BLK_MSI_SLOTS], "no slots");
	CHECK(strstr(spx_os_last_log, "no msi_slots block"), "says why: %s", spx_os_last_log);
	{
		struct spx_ring r = { .count = 1, .stride = 16, .done_off = 12, .done_mask = 1 };
		struct spx_slot_counters sc;
		u32 v;

		CHECK(spx_slot_program(&hw, 0, &r) == -EOPNOTSUPP, "program");
		CHECK(spx_slot_enable(&hw, 0) == -EOPNOTSUPP, "enable");
		CHECK(spx_slot_read(&hw, 0, &sc) == -EOPNOTSUPP, "read");
		CHECK(spx_irq_mask(&hw, 0, true) == -EOPNOTSUPP, "irq mask");
		CHECK(spx_irq_pending(&hw, &v) == -EOPNOTSUPP, "irq pending");
	}
	end();

	begin("slot-probe/n-slots-clamped-to-window");
	sc_init(&c, 12, 2);
	err = hw_init(&hw, &c);
	CHECK(err == 0 && hw.n_slots == SPX_MAX_SLOTS, "%d %u", err, hw.n_slots);
	end();

	begin("slot-probe/left-enabled-slot-is-disabled");
	sc_init(&c, 4, 2);
	c.bank[1][W(CTRL)] = MS(CTRL_ENABLE_MASK) | MS(CTRL_CAUSE_EN_MASK);
	err = hw_init(&hw, &c);
	CHECK(err == 0, "probe %d", err);
	CHECK(c.bank[1][W(CTRL)] == MS(CTRL_CAUSE_EN_MASK), "ctrl 0x%x", c.bank[1][W(CTRL)]);
	CHECK(strstr(spx_os_last_log, "slot 1 was left enabled"), "log: %s", spx_os_last_log);
	end();

	begin("slot-probe/dead-card");
	sc_init(&c, 4, 2);
	memset(&hw, 0, sizeof(hw));
	hw.os.ops = &sc_ops;
	hw.os.ctx = &c;
	CHECK(spx_probe(&hw) == 0, "probe");
	c.dead = true;
	{
		struct spx_slot_counters sc;
		u32 v;

		CHECK(spx_slot_read(&hw, 0, &sc) == -ENODEV, "read");
		CHECK(spx_irq_pending(&hw, &v) == -ENODEV, "pending");
		CHECK(spx_irq_mask(&hw, 0, true) == -ENODEV, "mask");
		CHECK(spx_slot_disable(&hw, 0) == -ENODEV, "disable");
	}
	end();
}

/* ------------------------------------------------------------------ */
/* Stamps                                                               */
/* ------------------------------------------------------------------ */

#define NS48 ((1ULL << 48) - 1)

static u64 mkstamp(u64 ns, unsigned int seq, bool batched)
{
	return (u64)SPX_STAMP_HI(MARKER_VALID) << (32 + SPX_STAMP_HI(MARKER_SHIFT)) |
	       (u64)batched << (32 + SPX_STAMP_HI(BATCHED_SHIFT)) |
	       (u64)(seq & 0xff) << (32 + SPX_STAMP_HI(SEQ_SHIFT)) | (ns & NS48);
}

static void test_stamps(void)
{
	struct spx_stamp st;
	u64 ref, raw;
	int n, top;

	begin("stamp/layout-constants");
	CHECK(SPX_STAMP_NS_BITS == 48, "%d ns bits", SPX_STAMP_NS_BITS);
	CHECK(SPX_STAMP_HI_RESERVED == (1u << 25), "reserved 0x%x (bit 57)",
	      (unsigned)SPX_STAMP_HI_RESERVED);
	CHECK(mkstamp(0, 0, 0) >> 58 == 0x2d, "marker 0b101101 in 63..58");
	end();

	begin("stamp/decode-fields");
	ref = 1700000000123456789ULL;
	raw = mkstamp(ref + 1000, 0xa5, true);
	CHECK(spx_stamp_decode(raw, ref, 0, &st) == 0, "valid");
	CHECK(st.ns == ref + 1000 && st.ns_low == ((ref + 1000) & NS48),
	      "ns %" PRIu64, st.ns);
	CHECK(st.seq == 0xa5 && st.batched, "seq %u batched %d", st.seq, st.batched);
	raw = mkstamp(ref - 5000, 0x00, false);
	CHECK(spx_stamp_decode(raw, ref, 0, &st) == 0 && st.ns == ref - 5000 &&
	      st.seq == 0 && !st.batched, "stamp before ref");
	raw = mkstamp(ref, 0xff, false);
	CHECK(spx_stamp_decode(raw, ref, 0, &st) == 0 && st.seq == 0xff && !st.batched,
	      "seq 255");
	end();

	begin("stamp/latch-latency-removed");
	ref = 5000000000ULL;
	CHECK(spx_stamp_decode(mkstamp(ref + 16, 1, false), ref, 16, &st) == 0 &&
	      st.ns == ref && st.ns_low == ref + 16, "ns %" PRIu64, st.ns);
	end();

	begin("stamp/rejects-non-stamps");
	/* every combination of bits 63..57 with random lower bits */
	for (top = 0; top < 128; top++) {
		for (n = 0; n < 2000; n++) {
			u64 v = (u64)top << 57 | (rnd() & ((1ULL << 57) - 1));
			bool want = (top >> 1) == 0x2d && !(top & 1);

			CHECK(spx_stamp_is_stamp(v) == want, "0x%016" PRIx64 " taken %s", v,
			      want ? "for no stamp" : "for a stamp");
			if (!want)
				CHECK(spx_stamp_decode(v, 0, 0, &st) == -ENODATA, "decode 0x%016"
				      PRIx64, v);
			if (test_failed)
				break;
		}
		if (test_failed)
			break;
	}
	CHECK(!spx_stamp_is_stamp(0x00000000fffff000ULL), "32-bit buffer address");
	CHECK(!spx_stamp_is_stamp(0x000000123456f000ULL), "64-bit buffer address");
	CHECK(!spx_stamp_is_stamp(0), "zero");
	CHECK(!spx_stamp_is_stamp(~0ULL), "all ones");
	CHECK(!spx_stamp_is_stamp(mkstamp(1, 1, true) | 1ULL << 57), "bit 57 set");
	end();

	begin("stamp/extend-across-2^48-forward");
	/* reference just before a 2^48 boundary, stamp just after it */
	ref = (7ULL << 48) - 100;
	CHECK(spx_stamp_decode(mkstamp((7ULL << 48) + 50, 0, false), ref, 0, &st) == 0 &&
	      st.ns == (7ULL << 48) + 50, "ns 0x%" PRIx64, st.ns);
	end();

	begin("stamp/extend-across-2^48-backward");
	ref = (7ULL << 48) + 100;
	CHECK(spx_stamp_decode(mkstamp((7ULL << 48) - 50, 0, false), ref, 0, &st) == 0 &&
	      st.ns == (7ULL << 48) - 50, "ns 0x%" PRIx64, st.ns);
	/* latch correction across the wrap too */
	CHECK(spx_stamp_decode(mkstamp(7ULL << 48, 0, false), ref, 24, &st) == 0 &&
	      st.ns == (7ULL << 48) - 24, "corrected ns 0x%" PRIx64, st.ns);
	end();

	begin("stamp/extend-random-within-bound");
	for (n = 0; n < 1000000; n++) {
		s64 d = (s64)(rnd() % ((1ULL << 48) - 2)) - (s64)((1ULL << 47) - 1);
		u64 t;

		ref = rnd() >> 2;
		t = ref + (u64)d;
		CHECK(spx_stamp_decode(mkstamp(t, (unsigned)n, n & 1), ref, 0, &st) == 0 &&
		      st.ns == t, "ref %" PRIu64 " d %" PRId64 " got %" PRIu64, ref, d, st.ns);
		if (test_failed)
			break;
	}
	end();
}

/* ------------------------------------------------------------------ */
/* Rings                                                                */
/* ------------------------------------------------------------------ */

/* 8254x legacy RX ring of 256 descriptors at a 4 KiB-aligned address */
static struct spx_ring legacy_ring(void)
{
	return (struct spx_ring){
		.base = 0x12345000ULL, .count = 256, .stride = 16,
		.stamp_off = 0, .done_off = 12, .done_mask = 1, .index = 3,
	};
}

struct bad_case {
	const char *what;
	int err;
	void (*edit)(struct spx_ring *r, struct spx_hw *hw);
};

#define EDIT(name, body) \
	static void name(struct spx_ring *r, struct spx_hw *hw) { (void)hw; body; }
EDIT(e_count0, r->count = 0)
EDIT(e_count_big, r->count = 4097)
EDIT(e_stride_odd, r->stride = 18)
EDIT(e_stride_small, r->stride = 4)
EDIT(e_stride_big, r->stride = 1024)
EDIT(e_stride_1022, r->stride = 1022)
EDIT(e_stamp_unaligned, r->stamp_off = 2)
EDIT(e_stamp_outside, r->stamp_off = 12)
EDIT(e_done_unaligned, r->done_off = 6)
EDIT(e_done_outside, r->done_off = 16)
EDIT(e_mask0, r->done_mask = 0)
EDIT(e_index, r->index = 256)
EDIT(e_base_unaligned, r->base = 0x12345002ULL)
EDIT(e_base_wraps, r->base = ~0ULL - 2047)	/* 4 KiB ring, 2 KiB left */
EDIT(e_base_above_32, { r->base = 0xfffff800ULL; hw->dma_bits = 32; })
EDIT(e_crosses_4g, r->base = 0xfffff800ULL)	/* 4 KiB ring, 2 KiB below 4 GiB */
EDIT(e_crosses_page, { r->stride = 24; r->base = 0; })
EDIT(e_crosses_page_1020, { r->stride = 1020; r->count = 5; r->base = 0; r->index = 0; })
EDIT(e_cause0, { r->cause_en = true; r->cause_addr = 0; })
EDIT(e_cause_unaligned, { r->cause_en = true; r->cause_addr = 0xfebc00c2ULL; })
EDIT(e_cause_above_32, { r->cause_en = true; r->cause_addr = 0x100000000ULL; hw->dma_bits = 32; })
EDIT(e_base_above_48, { r->base = (1ULL << 48) - 2048; hw->dma_bits = 48; })
EDIT(e_cause_above_48, { r->cause_en = true; r->cause_addr = 1ULL << 48; hw->dma_bits = 48; })
EDIT(e_head_no_cause, { r->cause_en = false; r->head_addr = 0xfebc2810ULL; })
EDIT(e_head_unaligned, { r->cause_en = true; r->cause_addr = 0xfebc00c0ULL; r->head_addr = 0xfebc2812ULL; })
EDIT(e_head_other_high, { r->cause_en = true; r->cause_addr = 0xfebc00c0ULL;
			  r->head_addr = 0x1febc2810ULL; })

static const struct bad_case bad[] = {
	{ "count-0", -EINVAL, e_count0 },
	{ "count-above-the-card's-4096", -EINVAL, e_count_big },
	{ "stride-not-multiple-of-4", -EINVAL, e_stride_odd },
	{ "stride-below-8", -EINVAL, e_stride_small },
	{ "stride-above-1020", -EINVAL, e_stride_big },
	{ "stride-1022", -EINVAL, e_stride_1022 },
	{ "stamp-off-unaligned", -EINVAL, e_stamp_unaligned },
	{ "stamp-field-leaves-entry", -EINVAL, e_stamp_outside },
	{ "done-off-unaligned", -EINVAL, e_done_unaligned },
	{ "done-word-leaves-entry", -EINVAL, e_done_outside },
	{ "done-mask-0", -EINVAL, e_mask0 },
	{ "index-not-below-count", -EINVAL, e_index },
	{ "base-unaligned", -EINVAL, e_base_unaligned },
	{ "ring-wraps-64-bit", -ERANGE, e_base_wraps },
	{ "ring-beyond-32-bit-card", -ERANGE, e_base_above_32 },
	{ "ring-crosses-4g", -EINVAL, e_crosses_4g },
	{ "entry-crosses-4k", -EINVAL, e_crosses_page },
	{ "entry-crosses-4k-stride-1020", -EINVAL, e_crosses_page_1020 },
	{ "cause-addr-0", -EINVAL, e_cause0 },
	{ "cause-addr-unaligned", -EINVAL, e_cause_unaligned },
	{ "cause-beyond-32-bit-card", -ERANGE, e_cause_above_32 },
	{ "ring-beyond-48-bit-card", -ERANGE, e_base_above_48 },
	{ "cause-beyond-48-bit-card", -ERANGE, e_cause_above_48 },
	{ "head-addr-without-cause", -EINVAL, e_head_no_cause },
	{ "head-addr-unaligned", -EINVAL, e_head_unaligned },
	{ "head-addr-high-word-not-cause's", -EINVAL, e_head_other_high },
};

static void test_rings(void)
{
	struct spx_slot_counters sc;
	struct spx_ring r;
	struct spx_hw hw;
	struct scard c, snap;
	unsigned int s;
	size_t i;

	begin("ring/program-through-window");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	r = legacy_ring();
	r.base = 0x0000000212345000ULL;
	r.cause_en = true;
	r.cause_addr = 0xfebc00c0ULL;
	CHECK(spx_slot_program(&hw, 2, &r) == 0, "program: %s", spx_os_last_log);
	CHECK(sc_sel(&c) == 2, "slot_sel %u", sc_sel(&c));
	CHECK(c.bank[2][W(RING_BASE_LO)] == 0x12345000 && c.bank[2][W(RING_BASE_HI)] == 2,
	      "base");
	CHECK(c.bank[2][W(RING_COUNT)] == 256 && c.bank[2][W(RING_STRIDE)] == 16 &&
	      c.bank[2][W(STAMP_OFF)] == 0 && c.bank[2][W(DONE_OFF)] == 12 &&
	      c.bank[2][W(DONE_MASK)] == 1 && c.bank[2][W(INDEX)] == 3, "geometry");
	CHECK(c.bank[2][W(CAUSE_ADDR_LO)] == 0xfebc00c0 && c.bank[2][W(CAUSE_ADDR_HI)] == 0,
	      "cause address");
	CHECK(c.bank[2][W(CTRL)] == MS(CTRL_CAUSE_EN_MASK), "ctrl 0x%x: cause on, not enabled",
	      c.bank[2][W(CTRL)]);
	CHECK(c.bank[2][W(HEAD_ADDR_LO)] == 0, "no head address: head_addr_lo 0x%x",
	      c.bank[2][W(HEAD_ADDR_LO)]);
	/* pairing by count: the RX head beside the cause, same high word */
	r.base = 0x0000000212345000ULL;
	r.cause_addr = 0x3febc00c0ULL;
	r.head_addr = 0x3febc2810ULL;
	CHECK(spx_slot_program(&hw, 2, &r) == 0, "program with head: %s", spx_os_last_log);
	CHECK(c.bank[2][W(HEAD_ADDR_LO)] == 0xfebc2810 && c.bank[2][W(CAUSE_ADDR_HI)] == 3,
	      "head address 0x%x, high word %u", c.bank[2][W(HEAD_ADDR_LO)],
	      c.bank[2][W(CAUSE_ADDR_HI)]);
	CHECK(c.bank[2][W(CTRL)] == (MS(CTRL_CAUSE_EN_MASK) | MS(CTRL_HEAD_EN_MASK)),
	      "ctrl 0x%x: cause and head on, not enabled", c.bank[2][W(CTRL)]);
	for (s = 0; s < 4; s++)
		if (s != 2)
			CHECK(c.bank[s][W(RING_COUNT)] == 0 && c.bank[s][W(INDEX)] == 0,
			      "slot %u untouched", s);
	end();

	begin("ring/edge-values-accepted");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	r = legacy_ring();
	r.count = 4096;
	r.base = 0;
	CHECK(spx_slot_program(&hw, 0, &r) == 0, "count 4096 (info.ring_log2 12)");
	r = legacy_ring();
	r.stride = 8;
	r.stamp_off = 0;
	r.done_off = 4;	/* done word inside the stamp field: allowed */
	CHECK(spx_slot_program(&hw, 0, &r) == 0, "stride 8");
	r = legacy_ring();
	r.stride = 1020;
	r.count = 4;
	r.base = 0;
	r.index = 0;
	r.stamp_off = 1012;
	r.done_off = 1016;
	CHECK(spx_slot_program(&hw, 3, &r) == 0, "stride 1020, last fields, 4 entries in a page");
	r = legacy_ring();
	r.base = 0xfffff000ULL;
	r.count = 256;
	hw.dma_bits = 32;
	CHECK(spx_slot_program(&hw, 1, &r) == 0, "ring ending at 4 GiB - 1 on a 32-bit card: %s",
	      spx_os_last_log);
	hw.dma_bits = 0;
	r.base = 0xfffffffffffff000ULL;
	CHECK(spx_slot_program(&hw, 1, &r) == 0, "ring ending at 2^64 - 1");
	hw.dma_bits = 48;
	r.base = (1ULL << 48) - 4096;
	CHECK(spx_slot_program(&hw, 1, &r) == 0, "ring ending at 2^48 - 1 on a 48-bit card: %s",
	      spx_os_last_log);
	hw.dma_bits = 0;
	r = legacy_ring();
	r.cause_en = false;
	r.cause_addr = 3;	/* ignored without cause_en, and not written */
	CHECK(spx_slot_program(&hw, 1, &r) == 0 && c.bank[1][W(CAUSE_ADDR_LO)] == 0,
	      "cause address ignored when off");
	end();

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char name[96];
		int err;

		snprintf(name, sizeof(name), "ring/refuses-%s", bad[i].what);
		begin(name);
		sc_init(&c, 4, 2);
		hw_init(&hw, &c);
		r = legacy_ring();
		bad[i].edit(&r, &hw);
		snap = c;
		err = spx_slot_program(&hw, 1, &r);
		CHECK(err == bad[i].err, "got %d, want %d (%s)", err, bad[i].err, spx_os_last_log);
		CHECK(c.writes == snap.writes && !memcmp(&c, &snap, sizeof(c)),
		      "card written (%lu writes)", c.writes - snap.writes);
		CHECK(!(hw.slot_programmed & 2), "slot marked programmed");
		end();
	}

	begin("ring/refuses-bad-slot");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	r = legacy_ring();
	snap = c;
	CHECK(spx_slot_program(&hw, 4, &r) == -EINVAL, "slot 4 of 4");
	CHECK(spx_slot_enable(&hw, 4) == -EINVAL, "enable slot 4");
	CHECK(spx_slot_read(&hw, 9, &sc) == -EINVAL, "read slot 9");
	CHECK(c.writes == snap.writes, "card written");
	end();

	begin("ring/enable-needs-a-ring");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	snap = c;
	CHECK(spx_slot_enable(&hw, 0) == -EINVAL, "enable unprogrammed");
	CHECK(c.writes == snap.writes, "card written");
	end();

	begin("ring/refuses-change-while-enabled");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	r = legacy_ring();
	CHECK(spx_slot_program(&hw, 0, &r) == 0 && spx_slot_enable(&hw, 0) == 0, "start");
	CHECK(c.bank[0][W(CTRL)] == MS(CTRL_ENABLE_MASK), "enabled on the card");
	snap = c;
	r.count = 128;
	CHECK(spx_slot_program(&hw, 0, &r) == -EBUSY, "reprogram enabled slot");
	CHECK(c.writes == snap.writes && c.bank[0][W(RING_COUNT)] == 256, "card written");
	CHECK(spx_slot_disable(&hw, 0) == 0, "disable");
	CHECK(c.bank[0][W(CTRL)] == 0, "disabled on the card");
	CHECK(spx_slot_program(&hw, 0, &r) == 0 && c.bank[0][W(RING_COUNT)] == 128,
	      "reprogram after disable");
	end();

	begin("slot/disable-waits-for-idle-engine");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	r = legacy_ring();
	spx_slot_program(&hw, 1, &r);
	spx_slot_enable(&hw, 1);
	c.busy_reads = 40;
	c.index_moves = true;
	CHECK(spx_slot_disable(&hw, 1) == 0, "disable");
	CHECK(c.busy_reads == 0, "returned while busy (%d reads left)", c.busy_reads);
	end();

	begin("slot/disable-other-slots-keep-engine-busy");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	spx_slot_program(&hw, 1, &r);
	spx_slot_enable(&hw, 1);
	c.busy_reads = -1;	/* forever, but this slot's index does not move */
	CHECK(spx_slot_disable(&hw, 1) == 0, "disable with a still index");
	end();

	begin("slot/disable-times-out-when-index-keeps-moving");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	spx_slot_program(&hw, 1, &r);
	spx_slot_enable(&hw, 1);
	c.busy_reads = -1;
	c.index_moves = true;
	CHECK(spx_slot_disable(&hw, 1) == -ETIMEDOUT, "timeout");
	CHECK(c.bank[1][W(CTRL)] == 0 && !(hw.slot_enabled & 2), "disabled all the same");
	CHECK(strstr(spx_os_last_log, "still writing"), "says why: %s", spx_os_last_log);
	end();

	begin("slot/locking-balanced");
	CHECK(hw.os.lock_errors == 0 && hw.os.lock_depth == 0, "errors %lu", hw.os.lock_errors);
	end();
}

/* ------------------------------------------------------------------ */
/* Counters, causes, interrupts, DMA                                    */
/* ------------------------------------------------------------------ */

static void test_counters(void)
{
	struct spx_slot_counters sc;
	struct spx_dma_status ds;
	struct spx_hw hw;
	struct scard c, snap;
	unsigned int s, u;
	u32 v;

	begin("counters/through-window");
	sc_init(&c, 4, 2);
	hw_init(&hw, &c);
	for (s = 0; s < 4; s++) {
		c.bank[s][W(INDEX)] = 10 + s;
		c.bank[s][W(CAPTURES)] = 100 + s;
		c.bank[s][W(STAMPED)] = 200 + s;
		c.bank[s][W(BATCHED)] = 300 + s;
		c.bank[s][W(EMPTY)] = 400 + s;
		c.bank[s][W(OVERFLOW)] = 500 + s;
		c.bank[s][W(DMA_ERRORS)] = 600 + s;
		c.bank[s][W(CAUSE_LAST)] = 0x80 | s;
		c.bank[s][W(AMBIGUOUS)] = 700 + s;
		c.bank[s][W(LAST_STAMP_LO)] = 0xdeadbee0 | s;
		c.bank[s][W(LAST_STAMP_HI)] = (u32)(mkstamp(0x123400000000ULL, 7, false) >> 32);
		c.bank[s][W(LAST_DATA)] = 0x4000 | s;
	}
	for (s = 0; s < 4; s++) {
		CHECK(spx_slot_read(&hw, s, &sc) == 0, "read %u", s);
		CHECK(sc.index == 10 + s && sc.captures == 100 + s && sc.stamped == 200 + s &&
		      sc.batched == 300 + s && sc.empty == 400 + s && sc.overflow == 500 + s &&
		      sc.dma_errors == 600 + s && sc.cause_last == (0x80 | s) &&
		      sc.ambiguous == 700 + s &&
		      sc.last_data == (0x4000 | s), "slot %u counters", s);
		CHECK(sc.last_stamp == ((mkstamp(0x123400000000ULL, 7, false) & ~0xffffffffULL) |
					(0xdeadbee0 | s)), "slot %u last stamp 0x%" PRIx64,
		      s, sc.last_stamp);
	}
	end();

	begin("counters/cause-acc-read-clears");
	c.bank[2][W(CAUSE_ACC)] = 0x95;
	CHECK(spx_slot_cause_acc(&hw, 2, &v) == 0 && v == 0x95, "first read 0x%x", v);
	/* the interrupt path: the window stays on slot 2, one read, no write */
	snap = c;
	CHECK(spx_slot_cause_acc(&hw, 2, &v) == 0 && v == 0, "second read 0x%x", v);
	CHECK(c.reads == snap.reads + 1 && c.writes == snap.writes,
	      "again on slot 2: %lu reads, %lu writes", c.reads - snap.reads,
	      c.writes - snap.writes);
	c.bank[1][W(CAUSE_ACC)] = 0x3;
	CHECK(spx_slot_cause_acc(&hw, 1, &v) == 0 && v == 0x3 && sc_sel(&c) == 1,
	      "slot 1 after slot 2: 0x%x, window on %u", v, sc_sel(&c));
	CHECK(spx_slot_cause_acc(&hw, 4, &v) == -EINVAL, "slot 4");
	end();

	begin("irq/mask-pending-gap-raised");
	CHECK(spx_irq_mask(&hw, 1, true) == 0 && spx_irq_mask(&hw, 3, true) == 0 &&
	      c.img[SYNPCIX_IRQ_MASK / 4] == 0xa, "mask 0x%x", c.img[SYNPCIX_IRQ_MASK / 4]);
	/* the interrupt path (hold, release): writes from the driver's copy */
	snap = c;
	CHECK(spx_irq_mask(&hw, 1, false) == 0 && c.img[SYNPCIX_IRQ_MASK / 4] == 0x8, "unmask");
	CHECK(c.reads == snap.reads && c.writes == snap.writes + 1,
	      "unmask: %lu reads, %lu writes", c.reads - snap.reads, c.writes - snap.writes);
	snap = c;
	CHECK(spx_irq_mask(&hw, 4, true) == -EINVAL && c.writes == snap.writes, "slot 4");
	c.img[SYNPCIX_IRQ_PENDING / 4] = 0x5;
	CHECK(spx_irq_pending(&hw, &v) == 0 && v == 5, "pending");
	CHECK(spx_irq_set_gap(&hw, 255) == 0 && spx_irq_get_gap(&hw, &u) == 0 && u == 255,
	      "gap 255");
	CHECK(spx_irq_set_gap(&hw, 0) == 0 && c.img[SYNPCIX_IRQ_GAP / 4] == 0, "gap 0");
	snap = c;
	CHECK(spx_irq_set_gap(&hw, 256) == -EINVAL && c.writes == snap.writes, "gap 256");
	c.img[SYNPCIX_IRQ_RAISED / 4] = 4242;
	CHECK(spx_irq_raised(&hw, &v) == 0 && v == 4242, "raised");
	end();

	begin("irq/ack-clears-status-unmasked-bit-is-ours");
	CHECK(spx_irq_mask(&hw, 3, false) == 0 && spx_irq_mask(&hw, 2, true) == 0 &&
	      c.img[SYNPCIX_IRQ_MASK / 4] == 0x4, "mask 0x%x", c.img[SYNPCIX_IRQ_MASK / 4]);
	c.img[SYNPCIX_IRQ_STATUS / 4] = 0x6;
	snap = c;
	CHECK(spx_irq_ack(&hw, &v) == 1, "status 0x6 under mask 0x4 not the card's");
	CHECK(c.writes == snap.writes + 1 && c.img[SYNPCIX_IRQ_STATUS / 4] == 0 &&
	      c.img[SYNPCIX_IRQ_MASK / 4] == 0x4,
	      "one write clearing status 0x%x, mask 0x%x", c.img[SYNPCIX_IRQ_STATUS / 4],
	      c.img[SYNPCIX_IRQ_MASK / 4]);
	c.img[SYNPCIX_IRQ_STATUS / 4] = 0x4;	/* a masked slot's bit only */
	snap = c;
	CHECK(spx_irq_ack(&hw, &v) == 0, "masked status bit taken for the card's");
	CHECK(c.writes == snap.writes + 1 && c.img[SYNPCIX_IRQ_STATUS / 4] == 0,
	      "masked bit not cleared 0x%x", c.img[SYNPCIX_IRQ_STATUS / 4]);
	snap = c;
	CHECK(spx_irq_ack(&hw, &v) == 0 && c.writes == snap.writes, "status 0: not the card's, no write");
	c.dead = true;
	CHECK(spx_irq_ack(&hw, &v) == -ENODEV, "card gone");
	c.dead = false;
	end();

	begin("irq/ack-version-1.0-writes-mask-back-then-counts");
	hw.version[SPX_BLK_IRQ] = 0x00010000;
	CHECK(spx_irq_mask(&hw, 1, true) == 0 && c.img[SYNPCIX_IRQ_MASK / 4] == 0x6,
	      "mask 0x%x", c.img[SYNPCIX_IRQ_MASK / 4]);
	v = 4242;
	snap = c;
	CHECK(spx_irq_ack(&hw, &v) == 0 && v == 4242, "raised unchanged %u", v);
	CHECK(c.writes == snap.writes + 1 && c.img[SYNPCIX_IRQ_MASK / 4] == 0x6,
	      "one write, mask unchanged 0x%x", c.img[SYNPCIX_IRQ_MASK / 4]);
	c.img[SYNPCIX_IRQ_RAISED / 4] = 4243;
	CHECK(spx_irq_ack(&hw, &v) == 1 && v == 4243, "raise not seen %u", v);
	c.dead = true;
	CHECK(spx_irq_ack(&hw, &v) == -ENODEV, "card gone");
	c.dead = false;
	hw.version[SPX_BLK_IRQ] = SYNPCIX_IRQ_VERSION;
	end();

	begin("slot/activity-is-captures-plus-overflow");
	c.bank[1][W(CAPTURES)] = 0xfffffff0;
	c.bank[1][W(OVERFLOW)] = 0x20;
	c.bank[2][W(CAPTURES)] = 7;
	c.bank[2][W(OVERFLOW)] = 0;
	CHECK(spx_slot_activity(&hw, 1, &v) == 0 && v == 0x10, "slot 1 wraps: 0x%x", v);
	CHECK(spx_slot_activity(&hw, 2, &v) == 0 && v == 7, "slot 2: %u", v);
	CHECK(spx_slot_activity(&hw, 4, &v) == -EINVAL, "slot 4");
	c.dead = true;
	CHECK(spx_slot_activity(&hw, 2, &v) == -ENODEV, "card gone");
	c.dead = false;
	end();

	begin("dma/status");
	c.img[SYNPCIX_DMA_ERRORS / 4] = 3;
	c.img[SYNPCIX_DMA_LAST_ERROR / 4] =
		SPX_FIELD(DMA, LAST_ERROR, CODE, SYNPCIX_DMA_LAST_ERROR_CODE_TARGET_ABORT);
	CHECK(spx_dma_status(&hw, &ds) == 0 && ds.errors == 3 &&
	      ds.last_code == SYNPCIX_DMA_LAST_ERROR_CODE_TARGET_ABORT &&
	      ds.last_requester == SYNPCIX_DMA_LAST_ERROR_REQUESTER_STAMP, "status");
	end();

	begin("counters/slot-beyond-card-reads-nothing");
	/* a card with 2 slots: the window of slot 3 does not exist */
	sc_init(&c, 2, 2);
	hw_init(&hw, &c);
	CHECK(hw.n_slots == 2 && spx_slot_read(&hw, 3, &sc) == -EINVAL, "slot 3 of 2");
	end();

	begin("counters/locking-balanced");
	CHECK(hw.os.lock_errors == 0 && hw.os.lock_depth == 0, "errors %lu", hw.os.lock_errors);
	end();
}

int main(void)
{
	test_probe();
	test_stamps();
	test_rings();
	test_counters();
	return failures ? 1 : 0;
}
