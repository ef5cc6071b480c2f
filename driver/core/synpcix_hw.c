// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X hardware core: register sequences and time arithmetic.
 * Uses only synpcix_osdep.h; see synpcix_hw.h for the rules.
 */
#include "synpcix_hw.h"
#include "synpcix_slot.h"

#define SPX_U64_MAX (~0ULL)
#define SPX_ALL_ONES 0xffffffffu

/* scaled_ppm is ppm with a 16-bit binary fraction: 1 ppm = 65536. */
#define SPX_SCALED_PPM_PER_UNIT (1000000ULL << 16)

/* A periodic output start closer than this to "now" is moved one period on. */
#define SPX_PEROUT_MARGIN_NS 1000000ULL
/*
 * perout_gen compares the time with the armed start in 48 bits modulo 2^48
 * (docs/bitstream.md, session 5): a start 2^47 ns (~39 h) or more ahead
 * would read as already past and fire at once, so it is refused.
 */
#define SPX_PEROUT_MAX_AHEAD_NS (1ULL << 47)

/* The output block needs at least 16 clock periods per output period. */
#define SPX_PEROUT_MIN_CLOCKS 16

static inline u32 spx_rd(struct spx_hw *hw, u32 off)
{
	return spx_os_read32(&hw->os, off);
}

static inline void spx_wr(struct spx_hw *hw, u32 off, u32 val)
{
	spx_os_write32(&hw->os, off, val);
}

#define RD(hw, BLK, REG) spx_rd(hw, (hw)->base[SPX_BLK_##BLK] + SPX_REL(BLK, REG))
#define WR(hw, BLK, REG, v) \
	spx_wr(hw, (hw)->base[SPX_BLK_##BLK] + SPX_REL(BLK, REG), (v))

/* ---------------------------------------------------------------- */
/* Arithmetic                                                        */
/* ---------------------------------------------------------------- */

/*
 * a * b / d with a 128-bit intermediate, rounded to nearest (halves up) when
 * round is set, truncated otherwise. Saturates at U64_MAX; d == 0 gives
 * U64_MAX. Written with 32-bit pieces so it needs no compiler 128-bit type
 * and no 64-bit division helper on 32-bit kernels.
 */
static u64 spx_mul_div(u64 a, u64 b, u64 d, bool round)
{
	u64 al = (u32)a, ah = a >> 32, bl = (u32)b, bh = b >> 32;
	u64 p0 = al * bl, p1 = al * bh, p2 = ah * bl, p3 = ah * bh;
	u64 mid = (p0 >> 32) + (u32)p1 + (u32)p2;
	u64 lo = (mid << 32) | (u32)p0;
	u64 hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
	u64 q = 0, rem;
	int i;

	if (!d)
		return SPX_U64_MAX;
	if (round) {
		u64 half = d >> 1;

		lo += half;
		if (lo < half)
			hi++;
	}
	if (hi >= d)
		return SPX_U64_MAX;	/* quotient needs more than 64 bits */
	rem = hi;
	for (i = 63; i >= 0; i--) {
		u64 carry = rem >> 63;

		rem = (rem << 1) | (lo >> 63);
		lo <<= 1;
		if (carry || rem >= d) {
			rem -= d;
			q |= 1ULL << i;
		}
	}
	return q;
}

u64 spx_mul_div_round(u64 a, u64 b, u64 d)
{
	return spx_mul_div(a, b, d, true);
}

static u64 spx_abs64(s64 v)
{
	/* well defined for S64_MIN too */
	return v < 0 ? (u64)(-(v + 1)) + 1 : (u64)v;
}

/*
 * Period for a frequency offset of scaled_ppm: nominal * (1 + ppm * 1e-6),
 * rounded to the nearest 2^-32 ns and clamped to the 1..255.99 ns hardware range
 * (*clamped tells whether the clamp acted; it may be NULL).
 */
u64 spx_scaled_ppm_to_period(u64 nominal_fp, s64 scaled_ppm, bool *clamped)
{
	u64 delta = spx_mul_div(nominal_fp, spx_abs64(scaled_ppm),
				SPX_SCALED_PPM_PER_UNIT, true);
	u64 period;
	bool clamp = false;

	if (scaled_ppm >= 0) {
		if (delta > SPX_PERIOD_MAX_FP ||
		    nominal_fp > SPX_PERIOD_MAX_FP - delta) {
			period = SPX_PERIOD_MAX_FP;
			clamp = true;
		} else {
			period = nominal_fp + delta;
		}
	} else {
		if (delta > nominal_fp ||
		    nominal_fp - delta < SPX_PERIOD_MIN_FP) {
			period = SPX_PERIOD_MIN_FP;
			clamp = true;
		} else {
			period = nominal_fp - delta;
		}
	}
	if (period < SPX_PERIOD_MIN_FP) {
		period = SPX_PERIOD_MIN_FP;
		clamp = true;
	}
	if (clamped)
		*clamped = clamp;
	return period;
}

/* Frequency offset (ppb, rounded) that period_fp means against nominal_fp. */
s64 spx_period_to_ppb(u64 nominal_fp, u64 period_fp)
{
	u64 diff;

	if (!nominal_fp)
		return 0;
	if (period_fp >= nominal_fp) {
		diff = period_fp - nominal_fp;
		return (s64)spx_mul_div(diff, SPX_NSEC_PER_SEC, nominal_fp, true);
	}
	diff = nominal_fp - period_fp;
	return -(s64)spx_mul_div(diff, SPX_NSEC_PER_SEC, nominal_fp, true);
}

/*
 * Largest |ppb| that keeps the period inside 1..255.99 ns in both directions,
 * truncated so that max_adj itself never clamps.
 */
s32 spx_max_adj_ppb(u64 nominal_fp)
{
	u64 down, up, room, ppb;

	if (nominal_fp < SPX_PERIOD_MIN_FP || nominal_fp > SPX_PERIOD_MAX_FP)
		return 0;
	down = nominal_fp - SPX_PERIOD_MIN_FP;
	up = SPX_PERIOD_MAX_FP - nominal_fp;
	room = down < up ? down : up;
	ppb = spx_mul_div(room, SPX_NSEC_PER_SEC, nominal_fp, false);
	return ppb > 0x7fffffffULL ? 0x7fffffff : (s32)ppb;
}

/*
 * Extend a stamp that kept only its low `bits` bits to the full 64-bit time
 * nearest to ref_ns (a full time read close to when the stamp was taken).
 * The stamp may lie up to 2^(bits-1) - 1 ns after ref_ns or 2^(bits-1) ns
 * before it; farther stamps alias, so the caller must read ref_ns often
 * enough (every 2 s for 32-bit stamps). Arithmetic is modulo 2^64.
 */
u64 spx_extend_stamp(u64 ref_ns, u64 stamp, unsigned int bits)
{
	u64 mask, half, diff;

	if (bits >= 64)
		return stamp;
	if (!bits)
		return ref_ns;
	mask = (1ULL << bits) - 1;
	half = 1ULL << (bits - 1);
	diff = (stamp - ref_ns) & mask;
	if (diff >= half)
		return ref_ns - ((mask - diff) + 1);	/* stamp before ref */
	return ref_ns + diff;
}

/*
 * First rising edge at or after now + margin that keeps the phase of the
 * requested start: start itself when it is far enough ahead, else start
 * plus the smallest whole number of periods that gets there.
 */
u64 spx_perout_first_start(u64 now_ns, u64 start_ns, u64 period_ns,
			   u64 margin_ns)
{
	u64 earliest = now_ns + margin_ns, k;

	if (start_ns >= earliest || !period_ns)
		return start_ns;
	k = spx_mul_div(earliest - start_ns + period_ns - 1, 1, period_ns,
			false);
	return start_ns + k * period_ns;
}

/* ---------------------------------------------------------------- */
/* Discovery: walk the self-describing block chain from offset 0     */
/* ---------------------------------------------------------------- */

struct spx_block_desc {
	enum spx_block blk;
	const char *name;
	u32 type;
	u32 version;
	bool required;
};

static const struct spx_block_desc spx_blocks[SPX_BLK_COUNT] = {
	{ SPX_BLK_ID, "id", SYNPCIX_ID_TYPE_ID, SYNPCIX_ID_VERSION, true },
	{ SPX_BLK_CLOCK, "clock", SYNPCIX_CLOCK_TYPE_ID, SYNPCIX_CLOCK_VERSION,
	  true },
	{ SPX_BLK_PPS, "pps", SYNPCIX_PPS_TYPE_ID, SYNPCIX_PPS_VERSION, false },
	{ SPX_BLK_EVENT, "event", SYNPCIX_EVENT_TYPE_ID, SYNPCIX_EVENT_VERSION,
	  false },
	{ SPX_BLK_PEROUT, "perout", SYNPCIX_PEROUT_TYPE_ID,
	  SYNPCIX_PEROUT_VERSION, false },
	{ SPX_BLK_MSI_SLOTS, "msi_slots", SYNPCIX_MSI_SLOTS_TYPE_ID,
	  SYNPCIX_MSI_SLOTS_VERSION, false },
	{ SPX_BLK_DMA, "dma", SYNPCIX_DMA_TYPE_ID, SYNPCIX_DMA_VERSION, false },
	{ SPX_BLK_IRQ, "irq", SYNPCIX_IRQ_TYPE_ID, SYNPCIX_IRQ_VERSION, false },
};

const char *spx_block_name(enum spx_block blk)
{
	return blk < SPX_BLK_COUNT ? spx_blocks[blk].name : "?";
}

static int spx_walk_chain(struct spx_hw *hw)
{
	u32 window = hw->os.window ? hw->os.window : SYNPCIX_REG_WINDOW_BYTES;
	u32 off = 0;
	unsigned int i;

	hw->n_blocks = 0;
	for (i = 0; i < SPX_BLK_COUNT; i++) {
		hw->present[i] = false;
		hw->base[i] = 0;
		hw->version[i] = 0;
	}

	for (;;) {
		u32 type, version, next;

		if (hw->n_blocks >= SPX_MAX_BLOCKS) {
			spx_err(hw, "block chain longer than %d blocks: NEXT loops\n",
				SPX_MAX_BLOCKS);
			return -EIO;
		}
		type = spx_rd(hw, off + SYNPCIX_BLK_TYPE);
		version = spx_rd(hw, off + SYNPCIX_BLK_VERSION);
		next = spx_rd(hw, off + SYNPCIX_BLK_NEXT);
		if (type == SPX_ALL_ONES && version == SPX_ALL_ONES) {
			spx_err(hw, "card does not respond (block header at 0x%03x reads all ones)\n",
				off);
			return -ENODEV;
		}
		if ((type >> 16) != SYNPCIX_BLOCK_TYPE_PREFIX && !off) {
			spx_err(hw, "no block header at 0x%03x (type 0x%08x): not a SynPCI-X register window\n",
				off, type);
			return -ENODEV;
		}
		/*
		 * A NEXT that points at nothing (a build whose chain names a
		 * block the gateware does not contain) ends the chain: the
		 * blocks found so far are ours, the required ones are checked
		 * below, and a missing optional block only costs its feature.
		 */
		if ((type >> 16) != SYNPCIX_BLOCK_TYPE_PREFIX) {
			spx_warn(hw, "no block header at 0x%03x (type 0x%08x), where the previous block's NEXT points: the chain ends there\n",
				 off, type);
			break;
		}
		hw->n_blocks++;

		for (i = 0; i < SPX_BLK_COUNT; i++) {
			const struct spx_block_desc *d = &spx_blocks[i];

			if (type != d->type)
				continue;
			if ((version >> 16) != (d->version >> 16)) {
				spx_warn(hw, "block %s at 0x%03x has version %u.%u, driver knows %u.x: ignored\n",
					 d->name, off, version >> 16,
					 version & 0xffff, d->version >> 16);
			} else if (hw->present[i]) {
				spx_warn(hw, "second %s block at 0x%03x ignored\n",
					 d->name, off);
			} else {
				hw->present[i] = true;
				hw->base[i] = off;
				hw->version[i] = version;
				spx_dbg(hw, "block %s v%u.%u at 0x%03x\n", d->name,
					version >> 16, version & 0xffff, off);
			}
			break;
		}
		if (i == SPX_BLK_COUNT)
			spx_dbg(hw, "unknown block type 0x%08x at 0x%03x skipped\n",
				type, off);

		if (!next)
			break;
		if (next <= off || (next & 3) || next > window - 12) {
			spx_err(hw, "block at 0x%03x has bad NEXT 0x%08x (must grow, be 4-aligned, stay in the 0x%x window)\n",
				off, next, window);
			return -EIO;
		}
		off = next;
	}

	if (!hw->present[SPX_BLK_ID] || hw->base[SPX_BLK_ID] != 0) {
		spx_err(hw, "identity block missing at offset 0\n");
		return -ENODEV;
	}
	for (i = 0; i < SPX_BLK_COUNT; i++) {
		if (spx_blocks[i].required && !hw->present[i]) {
			spx_err(hw, "required block %s missing\n",
				spx_blocks[i].name);
			return -ENODEV;
		}
	}
	return 0;
}

int spx_probe(struct spx_hw *hw)
{
	u32 magic, features;
	int err;

	err = spx_walk_chain(hw);
	if (err)
		return err;

	magic = RD(hw, ID, MAGIC);
	if (magic != SYNPCIX_ID_MAGIC_RESET) {
		spx_err(hw, "identity magic 0x%08x, expected 0x%08x\n", magic,
			SYNPCIX_ID_MAGIC_RESET);
		return -ENODEV;
	}
	hw->build = RD(hw, ID, BUILD);
	features = RD(hw, ID, FEATURES);
	hw->clk_hz = RD(hw, ID, CLK_HZ);

	hw->n_events = SPX_GET(ID, FEATURES, N_EVENTS, features);
	if (hw->n_events > SPX_MAX_EVENTS) {
		spx_warn(hw, "card reports %u event inputs, using %u\n",
			 hw->n_events, SPX_MAX_EVENTS);
		hw->n_events = SPX_MAX_EVENTS;
	}
	if (!hw->present[SPX_BLK_EVENT])
		hw->n_events = 0;
	hw->fifo_depth = 1u << SPX_GET(ID, FEATURES, FIFO_LOG2, features);

	/*
	 * Nominal period from the clock frequency: the period register may
	 * hold a previous adjfine, so it is no reference. A card that gives
	 * no sane frequency (3.90625 MHz or below, or above 1 GHz, would need
	 * a period outside 1..255.99 ns) falls back to the reset period.
	 */
	if (hw->clk_hz > SPX_NSEC_PER_SEC / 256 && hw->clk_hz <= SPX_NSEC_PER_SEC) {
		hw->nominal_period_fp = spx_mul_div_round(SPX_NSEC_PER_SEC,
							  1ULL << SPX_FP_SHIFT,
							  hw->clk_hz);
	} else {
		spx_warn(hw, "clock frequency %u Hz is not usable, assuming a %u ns period\n",
			 hw->clk_hz, SYNPCIX_CLOCK_PERIOD_NS_RESET);
		hw->nominal_period_fp =
			(u64)SYNPCIX_CLOCK_PERIOD_NS_RESET << SPX_FP_SHIFT;
	}
	hw->capture_delay_ns =
		spx_mul_div_round(SPX_GET(ID, FEATURES, CAPTURE_DELAY, features),
				  hw->nominal_period_fp, 1ULL << SPX_FP_SHIFT);
	hw->perout_delay_ns =
		spx_mul_div_round(SPX_GET(ID, FEATURES, PEROUT_DELAY, features),
				  hw->nominal_period_fp, 1ULL << SPX_FP_SHIFT);
	hw->seq_known = false;
	hw->events_lost = 0;
	/*
	 * How many bus address bits the card's master carries: dma.info
	 * (dma block 1.1 on; 48). Builds before it carried 64. The OS layer
	 * sets its DMA mask from this and refuses an MSI address above it.
	 */
	hw->addr_bits = 64;
	if (hw->present[SPX_BLK_DMA] && (hw->version[SPX_BLK_DMA] & 0xffff) >= 1) {
		u32 info = RD(hw, DMA, INFO);
		unsigned int bits = SPX_GET(DMA, INFO, ADDR_BITS, info);

		if (info == SPX_ALL_ONES) {
			spx_err(hw, "dma.info reads all ones: card not responding\n");
			return -ENODEV;
		}
		if (bits < 32 || bits > 64) {
			spx_warn(hw, "dma.info.addr_bits %u is not in 32..64: using 32\n",
				 bits);
			bits = 32;
		}
		hw->addr_bits = bits;
	}
	/* after the nominal period: the latch latency is given in clocks */
	return spx_slot_probe(hw, SPX_GET(ID, FEATURES, N_SLOTS, features));
}

/* ---------------------------------------------------------------- */
/* Clock                                                             */
/* ---------------------------------------------------------------- */

/*
 * Wait until none of the ctrl commands in mask is pending. Reading ctrl has
 * no side effect, so this may run with or without the lock.
 */
static int spx_clock_cmd_wait(struct spx_hw *hw, u32 mask)
{
	int i;

	for (i = 0; i < SPX_CMD_POLLS; i++) {
		u32 v = RD(hw, CLOCK, CTRL);

		if (v == SPX_ALL_ONES)
			return -ENODEV;
		if (!(v & mask))
			return 0;
		spx_udelay(&hw->os, 1);
	}
	return -ETIMEDOUT;
}

/*
 * One consistent reading: the read of time_ns_lo latches ns_hi and frac, so
 * the three reads run under the lock (another reader's lo read would
 * re-latch). The system-time bracket is around that one read: it is the
 * moment the card sampled its counter.
 */
int spx_read_time(struct spx_hw *hw, u64 *ns, u32 *frac, spx_systs *sts)
{
	u32 lo, hi, fr;

	spx_lock(&hw->os);
	spx_sts_pre(&hw->os, sts);
	lo = RD(hw, CLOCK, TIME_NS_LO);
	spx_sts_post(&hw->os, sts);
	hi = RD(hw, CLOCK, TIME_NS_HI);
	fr = RD(hw, CLOCK, TIME_FRAC);
	spx_unlock(&hw->os);

	if (lo == SPX_ALL_ONES && hi == SPX_ALL_ONES && fr == SPX_ALL_ONES)
		return -ENODEV;	/* year 2554: the card is gone */
	*ns = (u64)hi << 32 | lo;
	if (frac)
		*frac = fr;
	return 0;
}

/*
 * Staged command: wait until the previous command of the same kind has been
 * taken (so its staging registers are free), write the staging registers,
 * strobe; then, outside the lock, wait until the timebase took it so the
 * caller's next read sees the effect. stage[] holds (relative offset, value)
 * pairs of clock-block registers.
 */
struct spx_stage {
	u32 rel, val;
};

static int spx_clock_command(struct spx_hw *hw, u32 cmd,
			     const struct spx_stage *stage, unsigned int n)
{
	unsigned int i;
	int err;

	spx_lock(&hw->os);
	err = spx_clock_cmd_wait(hw, cmd);
	if (!err) {
		for (i = 0; i < n; i++)
			spx_wr(hw, hw->base[SPX_BLK_CLOCK] + stage[i].rel,
			       stage[i].val);
		WR(hw, CLOCK, CTRL, cmd);
	}
	spx_unlock(&hw->os);
	if (err)
		return err;
	return spx_clock_cmd_wait(hw, cmd);
}

int spx_set_time(struct spx_hw *hw, u64 ns)
{
	const struct spx_stage stage[] = {
		{ SPX_REL(CLOCK, SET_NS_LO), (u32)ns },
		{ SPX_REL(CLOCK, SET_NS_HI), (u32)(ns >> 32) },
		{ SPX_REL(CLOCK, SET_FRAC), 0 },
	};

	return spx_clock_command(hw, SYNPCIX_CLOCK_CTRL_SET_MASK, stage, 3);
}

int spx_adj_time(struct spx_hw *hw, s64 delta_ns)
{
	u64 d = (u64)delta_ns;	/* two's complement, as the card adds it */
	const struct spx_stage stage[] = {
		{ SPX_REL(CLOCK, ADJ_NS_LO), (u32)d },
		{ SPX_REL(CLOCK, ADJ_NS_HI), (u32)(d >> 32) },
	};

	if (!delta_ns)
		return 0;
	return spx_clock_command(hw, SYNPCIX_CLOCK_CTRL_ADJUST_MASK, stage, 2);
}

int spx_set_period(struct spx_hw *hw, u64 period_fp)
{
	const struct spx_stage stage[] = {
		{ SPX_REL(CLOCK, PERIOD_NS), (u32)(period_fp >> SPX_FP_SHIFT) },
		{ SPX_REL(CLOCK, PERIOD_FRAC), (u32)period_fp },
	};

	if (period_fp < SPX_PERIOD_MIN_FP || period_fp > SPX_PERIOD_MAX_FP)
		return -ERANGE;
	return spx_clock_command(hw, SYNPCIX_CLOCK_CTRL_PERIOD_MASK, stage, 2);
}

/*
 * Software frequency adjustment. While the card's own PPS servo runs it
 * owns the frequency (it adds its correction to the loaded period, and two
 * loops on one clock fight), so this is refused with -EBUSY then.
 */
int spx_adj_fine(struct spx_hw *hw, s64 scaled_ppm)
{
	if (hw->present[SPX_BLK_PPS]) {
		u32 ctrl = RD(hw, PPS, CTRL);

		if (ctrl == SPX_ALL_ONES)
			return -ENODEV;
		if (SPX_GET(PPS, CTRL, MODE, ctrl) == SPX_PPS_SERVO)
			return -EBUSY;
	}
	return spx_set_period(hw, spx_scaled_ppm_to_period(hw->nominal_period_fp,
							   scaled_ppm, NULL));
}

int spx_get_period(struct spx_hw *hw, u64 *loaded_fp, u64 *effective_fp)
{
	u32 ns, fr, ns2;
	int tries;

	spx_lock(&hw->os);
	ns = RD(hw, CLOCK, PERIOD_NS);
	fr = RD(hw, CLOCK, PERIOD_FRAC);
	if (loaded_fp)
		*loaded_fp = (u64)ns << SPX_FP_SHIFT | fr;
	/* the servo may change the effective period between the two reads */
	for (tries = 0; tries < 4; tries++) {
		ns = RD(hw, CLOCK, EFF_PERIOD_NS);
		fr = RD(hw, CLOCK, EFF_PERIOD_FRAC);
		ns2 = RD(hw, CLOCK, EFF_PERIOD_NS);
		if (ns == ns2)
			break;
	}
	spx_unlock(&hw->os);
	if (ns == SPX_ALL_ONES && fr == SPX_ALL_ONES)
		return -ENODEV;
	if (effective_fp)
		*effective_fp = (u64)ns << SPX_FP_SHIFT | fr;
	return 0;
}

/* ---------------------------------------------------------------- */
/* PPS input and servo                                               */
/* ---------------------------------------------------------------- */

int spx_pps_set_mode(struct spx_hw *hw, u32 mode)
{
	u32 ctrl;

	if (!hw->present[SPX_BLK_PPS])
		return -EOPNOTSUPP;
	if (mode != SPX_PPS_OFF && mode != SPX_PPS_REPORT && mode != SPX_PPS_SERVO)
		return -EINVAL;
	spx_lock(&hw->os);
	ctrl = RD(hw, PPS, CTRL);
	if (ctrl != SPX_ALL_ONES) {
		ctrl &= ~SYNPCIX_PPS_CTRL_MODE_MASK;
		ctrl |= SPX_FIELD(PPS, CTRL, MODE, mode);
		WR(hw, PPS, CTRL, ctrl);
	}
	spx_unlock(&hw->os);
	return ctrl == SPX_ALL_ONES ? -ENODEV : 0;
}

/* Which edge of the PPS input is the on-time edge. */
int spx_pps_set_falling(struct spx_hw *hw, bool falling)
{
	u32 ctrl;

	if (!hw->present[SPX_BLK_PPS])
		return -EOPNOTSUPP;
	spx_lock(&hw->os);
	ctrl = RD(hw, PPS, CTRL);
	if (ctrl != SPX_ALL_ONES) {
		ctrl &= ~SYNPCIX_PPS_CTRL_FALLING_MASK;
		if (falling)
			ctrl |= SYNPCIX_PPS_CTRL_FALLING_MASK;
		WR(hw, PPS, CTRL, ctrl);
	}
	spx_unlock(&hw->os);
	return ctrl == SPX_ALL_ONES ? -ENODEV : 0;
}

int spx_pps_get_status(struct spx_hw *hw, struct spx_pps_status *st)
{
	u32 ctrl, status;

	if (!hw->present[SPX_BLK_PPS])
		return -EOPNOTSUPP;
	spx_lock(&hw->os);
	ctrl = RD(hw, PPS, CTRL);
	status = RD(hw, PPS, STATUS);
	st->offset_ns = (s32)RD(hw, PPS, OFFSET_NS);
	st->freq_adj = (s32)RD(hw, PPS, FREQ_ADJ);
	st->edges = RD(hw, PPS, EDGES);
	st->glitches = RD(hw, PPS, GLITCHES);
	st->rejects = RD(hw, PPS, REJECTS);
	st->losses = RD(hw, PPS, LOSSES);
	st->steps = RD(hw, PPS, STEPS);
	spx_unlock(&hw->os);
	if (ctrl == SPX_ALL_ONES && status == SPX_ALL_ONES)
		return -ENODEV;
	st->mode = SPX_GET(PPS, CTRL, MODE, ctrl);
	st->falling = SPX_GET(PPS, CTRL, FALLING, ctrl);
	st->state = SPX_GET(PPS, STATUS, STATE, status);
	st->present = SPX_GET(PPS, STATUS, PRESENT, status);
	return 0;
}

/*
 * New PPS stamp, if any: 1 and *ns set, 0 when none waits. Reading
 * stamp_ns_lo clears status.stamp_new and latches stamp_ns_hi.
 */
int spx_pps_poll(struct spx_hw *hw, u64 *ns)
{
	u32 status, lo = 0, hi = 0;

	if (!hw->present[SPX_BLK_PPS])
		return -EOPNOTSUPP;
	spx_lock(&hw->os);
	status = RD(hw, PPS, STATUS);
	if (status != SPX_ALL_ONES && (status & SYNPCIX_PPS_STATUS_STAMP_NEW_MASK)) {
		lo = RD(hw, PPS, STAMP_NS_LO);
		hi = RD(hw, PPS, STAMP_NS_HI);
	}
	spx_unlock(&hw->os);
	if (status == SPX_ALL_ONES)
		return -ENODEV;
	if (!(status & SYNPCIX_PPS_STATUS_STAMP_NEW_MASK))
		return 0;
	*ns = ((u64)hi << 32 | lo) - hw->capture_delay_ns;
	return 1;
}

/* ---------------------------------------------------------------- */
/* Event inputs                                                      */
/* ---------------------------------------------------------------- */

int spx_event_enable(struct spx_hw *hw, unsigned int channel, bool on,
		     bool falling)
{
	u32 ctrl, bit = 1u << channel;

	if (channel >= hw->n_events)
		return -EINVAL;
	spx_lock(&hw->os);
	ctrl = RD(hw, EVENT, CTRL);
	if (ctrl != SPX_ALL_ONES) {
		ctrl &= ~(SPX_FIELD(EVENT, CTRL, ENABLE, bit) |
			  SPX_FIELD(EVENT, CTRL, FALLING, bit));
		if (falling)
			ctrl |= SPX_FIELD(EVENT, CTRL, FALLING, bit);
		if (on)
			ctrl |= SPX_FIELD(EVENT, CTRL, ENABLE, bit);
		WR(hw, EVENT, CTRL, ctrl);
	}
	spx_unlock(&hw->os);
	return ctrl == SPX_ALL_ONES ? -ENODEV : 0;
}

/*
 * Pop the oldest event: 1 and *ev filled, 0 when the FIFO is empty. The
 * read of stamp_ns_lo pops and latches stamp_ns_hi and stamp_info, so the
 * three reads are one locked sequence. A jump in the card's sequence number
 * means stamps were lost (FIFO overflow); it is counted, not hidden.
 */
static void spx_event_fill(struct spx_hw *hw, struct spx_event *ev, u32 lo,
			   u32 hi, u32 info);

int spx_event_pop(struct spx_hw *hw, struct spx_event *ev)
{
	u32 lo, hi, info;

	if (!hw->present[SPX_BLK_EVENT])
		return -EOPNOTSUPP;
	if (hw->evring_mem)
		return -EBUSY;		/* the card pops for its ring */
	spx_lock(&hw->os);
	lo = RD(hw, EVENT, STAMP_NS_LO);
	hi = RD(hw, EVENT, STAMP_NS_HI);
	info = RD(hw, EVENT, STAMP_INFO);
	spx_unlock(&hw->os);

	if (info == SPX_ALL_ONES && lo == SPX_ALL_ONES)
		return -ENODEV;
	if (!(info & SYNPCIX_EVENT_STAMP_INFO_VALID_MASK))
		return 0;
	spx_event_fill(hw, ev, lo, hi, info);
	return 1;
}

/* One stamp (register pop or ring entry) into *ev, sequence gaps counted. */
static void spx_event_fill(struct spx_hw *hw, struct spx_event *ev, u32 lo,
			   u32 hi, u32 info)
{
	u16 seq;

	seq = (u16)SPX_GET(EVENT, STAMP_INFO, SEQ, info);
	ev->lost_before = 0;
	if (hw->seq_known && seq != hw->next_seq) {
		ev->lost_before = (u16)(seq - hw->next_seq);
		hw->events_lost += ev->lost_before;
	}
	hw->seq_known = true;
	hw->next_seq = seq + 1;
	ev->seq = seq;
	ev->channel = SPX_GET(EVENT, STAMP_INFO, CHANNEL, info);
	ev->ns = ((u64)hi << 32 | lo) - hw->capture_delay_ns;
}

int spx_event_overflows(struct spx_hw *hw, u32 *count)
{
	if (!hw->present[SPX_BLK_EVENT])
		return -EOPNOTSUPP;
	*count = RD(hw, EVENT, OVERFLOWS);
	return 0;
}

/* ---------------------------------------------------------------- */
/* Event ring (event block 1.1)                                      */
/* ---------------------------------------------------------------- */

/* A stopping card finishes the entry in flight: four one-word DMA writes,
 * microseconds; 2000 x 1 us leaves room for a busy bus. */
#define SPX_EVRING_STOP_POLLS 2000

static bool spx_evring_supported(struct spx_hw *hw)
{
	return hw->present[SPX_BLK_EVENT] &&
	       (hw->version[SPX_BLK_EVENT] & 0xffff) >= 1;
}

int spx_evring_bytes(struct spx_hw *hw, u32 *bytes)
{
	u32 ctrl;

	if (!spx_evring_supported(hw))
		return -EOPNOTSUPP;
	ctrl = RD(hw, EVENT, RING_CTRL);
	if (ctrl == SPX_ALL_ONES)
		return -ENODEV;
	/* 0: a build without the ring (no PCI interface: nothing answers) */
	if (SPX_GET(EVENT, RING_CTRL, SIZE_LOG2, ctrl) == 0)
		return -EOPNOTSUPP;
	*bytes = SPX_EVRING_ENTRY_BYTES << SPX_GET(EVENT, RING_CTRL, SIZE_LOG2, ctrl);
	return 0;
}

int spx_evring_start(struct spx_hw *hw, u32 *mem, u64 bus, u32 bytes)
{
	volatile u32 *w = mem;	/* volatile: no memset call in the core */
	u32 want, i;
	int err;

	err = spx_evring_bytes(hw, &want);
	if (err)
		return err;
	if (hw->evring_mem)
		return -EBUSY;
	if (!mem || bytes != want || (bus & (want - 1)) || bus + bytes > (1ULL << 32)) {
		spx_err(hw, "event ring: %u bytes at 0x%llx, the card needs %u aligned to %u below 4 GiB\n",
			bytes, (unsigned long long)bus, want, want);
		return -EINVAL;
	}
	/* no entry may look valid before the card wrote it */
	for (i = 0; i < bytes / 4; i++)
		w[i] = 0;
	hw->evring_entries = bytes / SPX_EVRING_ENTRY_BYTES;
	hw->evring_next = 0;
	hw->evring_acked = 0;
	spx_lock(&hw->os);
	WR(hw, EVENT, RING_CTRL, 0);
	WR(hw, EVENT, RING_BASE, (u32)bus);
	WR(hw, EVENT, RING_RD, 0);
	WR(hw, EVENT, RING_CTRL, SYNPCIX_EVENT_RING_CTRL_ENABLE_MASK);
	spx_unlock(&hw->os);
	hw->evring_mem = mem;
	return 0;
}

/*
 * The next entry: 1 and *ev filled, 0 when the card has not written it
 * yet. Word 2 (stamp_info, valid bit set) is written last by the card,
 * after the time words on the same posted-write path, so once its valid
 * bit shows, words 0 and 1 are there too (read after a read barrier). The
 * entry's word 2 is cleared here before the entry is handed back
 * (spx_evring_ack), so an entry of an earlier lap never looks valid.
 */
int spx_evring_poll(struct spx_hw *hw, struct spx_event *ev)
{
	u32 *e;
	u32 lo, hi, info;

	if (!hw->evring_mem)
		return -EINVAL;
	e = hw->evring_mem + (hw->evring_next & (hw->evring_entries - 1)) *
		(SPX_EVRING_ENTRY_BYTES / 4);
	info = spx_mem_rd32(&e[2]);
	if (!(info & SYNPCIX_EVENT_STAMP_INFO_VALID_MASK))
		return 0;
	spx_dma_rmb();
	lo = spx_mem_rd32(&e[0]);
	hi = spx_mem_rd32(&e[1]);
	spx_mem_wr32(&e[2], 0);
	hw->evring_next++;
	spx_event_fill(hw, ev, lo, hi, info);
	return 1;
}

/*
 * Hand the taken (and cleared) entries back: one register write, only
 * when there are any, ordered after the clearing stores by the access
 * layer's register write (writel orders prior memory stores). Then look at the ring's state: 0, -EIO when the card stopped the ring
 * after a DMA error (restart it with stop + start), -ENODEV when the card
 * does not answer. *overruns (optional): stamps the card dropped on a full
 * ring (event.ring_ctrl.overruns, wraps at 256).
 */
int spx_evring_ack(struct spx_hw *hw, u32 *overruns)
{
	u32 ctrl;

	if (!hw->evring_mem)
		return -EINVAL;
	if (hw->evring_next != hw->evring_acked) {
		WR(hw, EVENT, RING_RD, hw->evring_next & (2 * hw->evring_entries - 1));
		hw->evring_acked = hw->evring_next;
	}
	ctrl = RD(hw, EVENT, RING_CTRL);
	if (ctrl == SPX_ALL_ONES)
		return -ENODEV;
	if (overruns)
		*overruns = SPX_GET(EVENT, RING_CTRL, OVERRUNS, ctrl);
	return (ctrl & SYNPCIX_EVENT_RING_CTRL_DMA_ERROR_MASK) ? -EIO : 0;
}

int spx_evring_stop(struct spx_hw *hw)
{
	u32 ctrl = 0;
	int i;

	if (!hw->evring_mem)
		return 0;
	WR(hw, EVENT, RING_CTRL, 0);
	for (i = 0; i < SPX_EVRING_STOP_POLLS; i++) {
		ctrl = RD(hw, EVENT, RING_CTRL);
		if (ctrl == SPX_ALL_ONES)
			return -ENODEV;
		if (!(ctrl & SYNPCIX_EVENT_RING_CTRL_BUSY_MASK)) {
			hw->evring_mem = NULL;
			return 0;
		}
		spx_udelay(&hw->os, 1);
	}
	spx_err(hw, "event ring: card still busy after disable (ctrl 0x%08x)\n", ctrl);
	return -ETIMEDOUT;
}

/* ---------------------------------------------------------------- */
/* Periodic output                                                   */
/* ---------------------------------------------------------------- */

/*
 * Arm the output: first rising edge at start_ns (moved on by whole periods
 * when it is not at least SPX_PEROUT_MARGIN_NS ahead, keeping the phase),
 * then every period_ns, high for width_ns. The card raises the pin
 * perout_delay clocks after its time passes the armed start, so the armed
 * start is that much earlier. Disable, load, enable: the card takes the
 * values atomically when enable goes to 1. A start SPX_PEROUT_MAX_AHEAD_NS
 * or more ahead gives -ERANGE (the card's compare is 48-bit modular).
 */
int spx_perout_set(struct spx_hw *hw, u64 start_ns, u32 period_ns,
		   u32 width_ns)
{
	u64 min_period, now, first;
	int err;

	if (!hw->present[SPX_BLK_PEROUT])
		return -EOPNOTSUPP;
	/* ceil(16 clocks) in ns; 16 * period < 2^40 cannot overflow */
	min_period = (SPX_PEROUT_MIN_CLOCKS * hw->nominal_period_fp +
		      (1ULL << SPX_FP_SHIFT) - 1) >> SPX_FP_SHIFT;
	if (period_ns < min_period || !width_ns || width_ns >= period_ns)
		return -EINVAL;
	err = spx_read_time(hw, &now, NULL, NULL);
	if (err)
		return err;
	first = spx_perout_first_start(now, start_ns, period_ns,
				       SPX_PEROUT_MARGIN_NS + hw->perout_delay_ns);
	first -= hw->perout_delay_ns;
	if (first - now >= SPX_PEROUT_MAX_AHEAD_NS)
		return -ERANGE;

	spx_lock(&hw->os);
	WR(hw, PEROUT, CTRL, 0);
	WR(hw, PEROUT, START_NS_LO, (u32)first);
	WR(hw, PEROUT, START_NS_HI, (u32)(first >> 32));
	WR(hw, PEROUT, PERIOD_NS, period_ns);
	WR(hw, PEROUT, WIDTH_NS, width_ns);
	WR(hw, PEROUT, CTRL, SYNPCIX_PEROUT_CTRL_ENABLE_MASK);
	spx_unlock(&hw->os);
	return 0;
}

int spx_perout_disable(struct spx_hw *hw)
{
	if (!hw->present[SPX_BLK_PEROUT])
		return -EOPNOTSUPP;
	spx_lock(&hw->os);
	WR(hw, PEROUT, CTRL, 0);
	spx_unlock(&hw->os);
	return 0;
}
