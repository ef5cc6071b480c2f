// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X hardware core: MSI capture slots, their stamp rings, the card's
 * interrupt block and stamp decoding. Uses only synpcix_osdep.h; see
 * synpcix_slot.h for the rules and docs/driver.md for the design.
 */
#include "synpcix_slot.h"

#define SPX_ALL_ONES 0xffffffffu
#define SPX_U64_MAX (~0ULL)

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

/*
 * Select slot for the window registers; caller holds the lock. Written only
 * when it changes: the interrupt path reads one slot's window again and
 * again (spx_slot_cause_acc), and nothing but this driver moves it.
 */
static void spx_sel(struct spx_hw *hw, unsigned int slot)
{
	if (hw->slot_sel == slot + 1)
		return;
	WR(hw, MSI_SLOTS, SLOT_SEL, SPX_FIELD(MSI_SLOTS, SLOT_SEL, SLOT, slot));
	hw->slot_sel = slot + 1;
}

/* ---------------------------------------------------------------- */
/* Discovery                                                         */
/* ---------------------------------------------------------------- */

/*
 * Slots need the msi_slots block; its info register is the authority on
 * their number (id.features.n_slots only predates the block). A slot found
 * enabled belongs to no one now (a previous driver instance went away
 * without disabling it) and would keep writing stamps into memory that is
 * no longer a ring, so it is disabled here.
 */
int spx_slot_probe(struct spx_hw *hw, unsigned int features_n_slots)
{
	unsigned int i;
	u32 info;

	hw->n_slots = 0;
	hw->slot_fifo_depth = 0;
	hw->latch_clks = 0;
	hw->latch_ns = 0;
	hw->slot_programmed = 0;
	hw->slot_enabled = 0;
	hw->slot_sel = 0;
	hw->irq_mask_known = false;
	if (!hw->present[SPX_BLK_MSI_SLOTS]) {
		if (features_n_slots)
			spx_warn(hw, "identity block reports %u MSI slot(s) but there is no msi_slots block: slots unused\n",
				 features_n_slots);
		return 0;
	}
	info = RD(hw, MSI_SLOTS, INFO);
	if (info == SPX_ALL_ONES) {
		spx_err(hw, "msi_slots.info reads all ones: card not responding\n");
		return -ENODEV;
	}
	hw->n_slots = SPX_GET(MSI_SLOTS, INFO, N_SLOTS, info);
	if (hw->n_slots > SPX_MAX_SLOTS) {
		spx_warn(hw, "card reports %u MSI slots, the window selects %u\n",
			 hw->n_slots, SPX_MAX_SLOTS);
		hw->n_slots = SPX_MAX_SLOTS;
	}
	if (features_n_slots != hw->n_slots)
		spx_dbg(hw, "id.features.n_slots %u, msi_slots.info.n_slots %u: using the latter\n",
			features_n_slots, hw->n_slots);
	hw->slot_fifo_depth = 1u << SPX_GET(MSI_SLOTS, INFO, FIFO_LOG2, info);
	hw->latch_clks = SPX_GET(MSI_SLOTS, INFO, LATCH_CLKS, info);
	/* 0: a build before msi_slots 1.1, whose rings took the register's 65535 */
	hw->ring_max = SPX_GET(MSI_SLOTS, INFO, RING_LOG2, info) ?
		       1u << SPX_GET(MSI_SLOTS, INFO, RING_LOG2, info) : SPX_RING_COUNT_MAX;
	if (hw->ring_max > SPX_RING_COUNT_MAX)
		hw->ring_max = SPX_RING_COUNT_MAX;
	hw->latch_ns = spx_mul_div_round(hw->latch_clks, hw->nominal_period_fp,
					 1ULL << SPX_FP_SHIFT);

	for (i = 0; i < hw->n_slots; i++) {
		u32 ctrl;

		spx_lock(&hw->os);
		spx_sel(hw, i);
		ctrl = RD(hw, MSI_SLOTS, CTRL);
		spx_unlock(&hw->os);
		if (ctrl != SPX_ALL_ONES && (ctrl & SYNPCIX_MSI_SLOTS_CTRL_ENABLE_MASK)) {
			int err;

			spx_warn(hw, "MSI slot %u was left enabled: disabling it\n", i);
			err = spx_slot_disable(hw, i);
			if (err)
				return err;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Ring validation (pure)                                            */
/* ---------------------------------------------------------------- */

static bool spx_entry_crosses_page(u64 base, u32 count, u32 stride)
{
	u32 off = (u32)base & (SPX_RING_PAGE - 1);
	u32 i, n;

	/*
	 * Entry i starts at page offset (base + i * stride) mod 4096; with a
	 * stride that is a multiple of 4 the offsets repeat after at most
	 * 4096 / 4 entries, so that many cover every case.
	 */
	n = count < SPX_RING_PAGE / 4 ? count : SPX_RING_PAGE / 4;
	for (i = 0; i < n; i++) {
		if (off + stride > SPX_RING_PAGE)
			return true;
		off = (off + stride) & (SPX_RING_PAGE - 1);
	}
	return false;
}

/*
 * Every field of a ring, against the limits of the window registers
 * (synpcix.toml) and the card's address width. -EINVAL for a malformed
 * ring, -ERANGE for one outside the address width; the log says which.
 */
int spx_ring_check(struct spx_hw *hw, const struct spx_ring *r)
{
	unsigned int bits = hw->dma_bits && hw->dma_bits < 64 ? hw->dma_bits : 64;
	u64 limit = bits == 64 ? SPX_U64_MAX : (1ULL << bits) - 1;
	u32 count_max = hw->ring_max ? hw->ring_max : SPX_RING_COUNT_MAX;
	u64 span;

	if (!r->count || r->count > count_max) {
		spx_err(hw, "ring: count %u not in 1..%u (the card's largest ring)\n", r->count,
			count_max);
		return -EINVAL;
	}
	if ((r->stride & 3) || r->stride < SPX_RING_STRIDE_MIN ||
	    r->stride > SPX_RING_STRIDE_MAX) {
		spx_err(hw, "ring: stride %u is not a multiple of 4 in %u..%u\n",
			r->stride, SPX_RING_STRIDE_MIN, SPX_RING_STRIDE_MAX);
		return -EINVAL;
	}
	if ((r->stamp_off & 3) || r->stamp_off > r->stride - SPX_RING_STAMP_BYTES) {
		spx_err(hw, "ring: stamp field at %u is not a 4-aligned 8-byte field inside a %u-byte entry\n",
			r->stamp_off, r->stride);
		return -EINVAL;
	}
	if ((r->done_off & 3) || r->done_off > r->stride - SPX_RING_DONE_BYTES) {
		spx_err(hw, "ring: done word at %u is not a 4-aligned word inside a %u-byte entry\n",
			r->done_off, r->stride);
		return -EINVAL;
	}
	/*
	 * The done word may lie inside the stamp field (an 8-byte entry has
	 * no room otherwise): the card tests it before it writes the stamp
	 * and never looks behind its index again.
	 */
	if (!r->done_mask) {
		spx_err(hw, "ring: done mask 0 never sees an entry completed\n");
		return -EINVAL;
	}
	if (r->index >= r->count) {
		spx_err(hw, "ring: start index %u not below count %u\n", r->index,
			r->count);
		return -EINVAL;
	}
	if (r->base & 3) {
		spx_err(hw, "ring: base 0x%llx is not 4-aligned\n",
			(unsigned long long)r->base);
		return -EINVAL;
	}
	span = (u64)r->count * r->stride;	/* < 2^26 */
	if (r->base > limit || limit - r->base < span - 1) {
		spx_err(hw, "ring: 0x%llx + %llu bytes is outside the card's %u-bit bus address range\n",
			(unsigned long long)r->base, (unsigned long long)span, bits);
		return -ERANGE;
	}
	/*
	 * The card adds entry offsets to ring_base_lo only: an entry address
	 * that carries into the high word ends its pass unstamped
	 * (docs/stamping.md section 3), so a ring must not cross 4 GiB.
	 */
	if ((r->base >> 32) != ((r->base + span - 1) >> 32)) {
		spx_err(hw, "ring: 0x%llx + %llu bytes crosses a 4 GiB boundary\n",
			(unsigned long long)r->base, (unsigned long long)span);
		return -EINVAL;
	}
	if (spx_entry_crosses_page(r->base, r->count, r->stride)) {
		spx_err(hw, "ring: an entry crosses a 4 KiB boundary (base 0x%llx, stride %u)\n",
			(unsigned long long)r->base, r->stride);
		return -EINVAL;
	}
	if (r->cause_en) {
		if (!r->cause_addr || (r->cause_addr & 3)) {
			spx_err(hw, "ring: cause register address 0x%llx is 0 or not 4-aligned\n",
				(unsigned long long)r->cause_addr);
			return -EINVAL;
		}
		if (r->cause_addr > limit - 3) {
			spx_err(hw, "ring: cause register 0x%llx is outside the card's %u-bit bus address range\n",
				(unsigned long long)r->cause_addr, bits);
			return -ERANGE;
		}
	}
	if (r->head_addr) {
		if (!r->cause_en) {
			spx_err(hw, "ring: RX head address 0x%llx without cause_en (the head is read after the cause)\n",
				(unsigned long long)r->head_addr);
			return -EINVAL;
		}
		if (r->head_addr & 3) {
			spx_err(hw, "ring: RX head register address 0x%llx is not 4-aligned\n",
				(unsigned long long)r->head_addr);
			return -EINVAL;
		}
		if ((r->head_addr >> 32) != (r->cause_addr >> 32)) {
			spx_err(hw, "ring: RX head register 0x%llx and cause register 0x%llx differ in bits 63..32 (the card keeps one high word for both)\n",
				(unsigned long long)r->head_addr,
				(unsigned long long)r->cause_addr);
			return -EINVAL;
		}
		if (r->head_addr > limit - 3) {
			spx_err(hw, "ring: RX head register 0x%llx is outside the card's %u-bit bus address range\n",
				(unsigned long long)r->head_addr, bits);
			return -ERANGE;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Stamps (pure)                                                     */
/* ---------------------------------------------------------------- */

/*
 * A stamp has the marker in bits 63..58 and bit 57 zero. A DMA address in
 * the same field never has: no platform maps buffers at 2^58 and above.
 */
bool spx_stamp_is_stamp(u64 raw)
{
	u32 hi = (u32)(raw >> 32);

	return SPX_GET(MSI_SLOTS, LAST_STAMP_HI, MARKER, hi) ==
	       SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_MARKER_VALID &&
	       !(hi & SPX_STAMP_HI_RESERVED);
}

/*
 * Decode a raw stamp: -ENODATA when raw is not a stamp (the entry still
 * holds what the NIC or driver put there). The 48-bit time is extended to
 * the full time nearest ref_ns (a card time read within 2^47 ns, 39 hours,
 * of the stamp) and the latch latency latch_ns is taken off, so st->ns is
 * the card time of the doorbell write (within one timebase clock,
 * docs/driver.md).
 */
int spx_stamp_decode(u64 raw, u64 ref_ns, u64 latch_ns, struct spx_stamp *st)
{
	u32 hi = (u32)(raw >> 32);

	if (!spx_stamp_is_stamp(raw))
		return -ENODATA;
	st->ns_low = raw & ((1ULL << SPX_STAMP_NS_BITS) - 1);
	st->ns = spx_extend_stamp(ref_ns, st->ns_low, SPX_STAMP_NS_BITS) - latch_ns;
	st->seq = (u8)SPX_GET(MSI_SLOTS, LAST_STAMP_HI, SEQ, hi);
	st->batched = SPX_GET(MSI_SLOTS, LAST_STAMP_HI, BATCHED, hi);
	return 0;
}

/* ---------------------------------------------------------------- */
/* Stamp refinement (pure; docs/driver.md, "Stamp refinement")       */
/* ---------------------------------------------------------------- */

/* -ERANGE for a model outside the limits of synpcix_slot.h. */
int spx_ingress_check(const struct spx_ingress *lat)
{
	if (lat->base_ns < -SPX_INGRESS_BASE_MAX_NS ||
	    lat->base_ns > SPX_INGRESS_BASE_MAX_NS ||
	    lat->ps_per_byte < -SPX_INGRESS_PS_PER_BYTE_MAX ||
	    lat->ps_per_byte > SPX_INGRESS_PS_PER_BYTE_MAX)
		return -ERANGE;
	return 0;
}

/*
 * base + ps_per_byte * len, rounded to the nearest ns. Inputs are clamped
 * to the limits (a descriptor length has 16 bits), so every product fits
 * in 32 bits and no 64-bit division is needed on 32-bit kernels.
 */
s32 spx_ingress_ns(const struct spx_ingress *lat, u32 len)
{
	s32 base = lat->base_ns, ps = lat->ps_per_byte, prod;

	if (base > SPX_INGRESS_BASE_MAX_NS)
		base = SPX_INGRESS_BASE_MAX_NS;
	if (base < -SPX_INGRESS_BASE_MAX_NS)
		base = -SPX_INGRESS_BASE_MAX_NS;
	if (ps > SPX_INGRESS_PS_PER_BYTE_MAX)
		ps = SPX_INGRESS_PS_PER_BYTE_MAX;
	if (ps < -SPX_INGRESS_PS_PER_BYTE_MAX)
		ps = -SPX_INGRESS_PS_PER_BYTE_MAX;
	if (len > 0xffffu)
		len = 0xffffu;
	prod = ps * (s32)len;		/* |prod| <= 32767 * 65535 < 2^31 */
	return base + (prod >= 0 ? (prod + 500) / 1000 : (prod - 500) / 1000);
}

/*
 * Time a frame of len descriptor bytes holds the link: frame (at least
 * the 64-byte minimum, FCS added when the descriptor length lacks it),
 * preamble + SFD and inter-frame gap, 8 bits each, at link_mbps. Rounded
 * down, so it stays a lower bound; 0 when the speed is unknown. A frame
 * the NIC shortened (VLAN tag stripped) is counted short: still a bound.
 */
u32 spx_wire_ns(u32 len, u32 link_mbps, bool len_has_fcs)
{
	u32 bytes;

	if (!link_mbps)
		return 0;
	if (len > 0xffffu)
		len = 0xffffu;
	bytes = len + (len_has_fcs ? 0 : SPX_ETH_FCS);
	if (bytes < SPX_ETH_MIN_FRAME)
		bytes = SPX_ETH_MIN_FRAME;
	bytes += SPX_ETH_PREAMBLE + SPX_ETH_IFG;
	return bytes * 8000u / link_mbps;	/* < 2^32: bytes <= 65559 */
}

/* At ring start and on every link change (speed, or down and up). */
void spx_rx_chain_init(struct spx_rx_chain *c, u32 link_mbps, bool len_has_fcs)
{
	c->prev_ns = 0;
	c->valid = false;
	c->link_mbps = link_mbps;
	c->len_has_fcs = len_has_fcs;
}

/*
 * The time to hand to the socket for one stamped ring entry, called for
 * every stamped entry in ring order (dropped or bad frames included: they
 * were on the wire too).
 *
 * 1. Exact stamp (the latch of this frame's own MSI): the ingress latency
 *    for its length is taken off, which estimates the frame's arrival.
 * 2. Batched stamp (the latch of an earlier frame's MSI, the first entry
 *    of the same capture): the entry cannot have arrived before the
 *    previous entry plus its own wire time, so t = max(card time,
 *    prev + wire). The bound is exact when the link ran back to back
 *    (line rate) and a lower bound otherwise. The card time is kept when
 *    it is later: it lies at or before the entry's own completion
 *    (registers.md), so it errs late by at most this entry's NIC path,
 *    and subtracting the earlier frame's ingress latency from it would
 *    only move it further below the arrival. A bound more than
 *    SPX_CHAIN_MAX_LEAD_NS ahead of the card's time is a stale chain
 *    and is not used. *bounded (may be NULL) says whether the bound won.
 *
 * Saturates at 0 and at the largest time instead of wrapping.
 */
u64 spx_stamp_refine(struct spx_rx_chain *c, const struct spx_stamp *st, u32 len,
		     const struct spx_ingress *lat, bool *bounded)
{
	s32 in = lat && !st->batched ? spx_ingress_ns(lat, len) : 0;
	u64 t = st->ns, wire, b;
	bool won = false;

	if (in >= 0)
		t = t >= (u64)in ? t - (u64)in : 0;
	else
		t = t <= SPX_U64_MAX - (u64)-(s64)in ? t + (u64)-(s64)in : SPX_U64_MAX;
	if (st->batched && c->valid && c->link_mbps) {
		wire = spx_wire_ns(len, c->link_mbps, c->len_has_fcs);
		b = c->prev_ns <= SPX_U64_MAX - wire ? c->prev_ns + wire : SPX_U64_MAX;
		if (b > t && b - t <= SPX_CHAIN_MAX_LEAD_NS) {
			t = b;
			won = true;
		}
	}
	c->prev_ns = t;
	c->valid = true;
	if (bounded)
		*bounded = won;
	return t;
}

/* ---------------------------------------------------------------- */
/* Slots                                                             */
/* ---------------------------------------------------------------- */

static int spx_slot_arg(struct spx_hw *hw, unsigned int slot)
{
	if (!hw->present[SPX_BLK_MSI_SLOTS])
		return -EOPNOTSUPP;
	if (slot >= hw->n_slots)
		return -EINVAL;
	return 0;
}

/*
 * Program a disabled slot's ring and start index. Everything is checked
 * before the first write, so a refused ring leaves the card untouched. The
 * slot stays disabled: spx_slot_enable() starts it.
 */
int spx_slot_program(struct spx_hw *hw, unsigned int slot,
		     const struct spx_ring *r)
{
	u32 ctrl;
	int err;

	err = spx_slot_arg(hw, slot);
	if (err)
		return err;
	err = spx_ring_check(hw, r);
	if (err)
		return err;
	ctrl = r->cause_en ? SYNPCIX_MSI_SLOTS_CTRL_CAUSE_EN_MASK : 0;
	if (r->head_addr)
		ctrl |= SYNPCIX_MSI_SLOTS_CTRL_HEAD_EN_MASK;
	spx_lock(&hw->os);
	if (hw->slot_enabled & (1u << slot)) {
		spx_unlock(&hw->os);
		spx_err(hw, "slot %u: ring changed while enabled (disable it first)\n",
			slot);
		return -EBUSY;
	}
	spx_sel(hw, slot);
	WR(hw, MSI_SLOTS, CTRL, ctrl);
	WR(hw, MSI_SLOTS, RING_BASE_LO, (u32)r->base);
	WR(hw, MSI_SLOTS, RING_BASE_HI, (u32)(r->base >> 32));
	WR(hw, MSI_SLOTS, RING_COUNT, r->count);
	WR(hw, MSI_SLOTS, RING_STRIDE, r->stride);
	WR(hw, MSI_SLOTS, STAMP_OFF, r->stamp_off);
	WR(hw, MSI_SLOTS, DONE_OFF, r->done_off);
	WR(hw, MSI_SLOTS, DONE_MASK, r->done_mask);
	WR(hw, MSI_SLOTS, CAUSE_ADDR_LO, r->cause_en ? (u32)r->cause_addr : 0);
	WR(hw, MSI_SLOTS, CAUSE_ADDR_HI, r->cause_en ? (u32)(r->cause_addr >> 32) : 0);
	/*
	 * Always, also 0: a ring without a head address must not inherit an
	 * earlier ring's (the card reads it only with head_en).
	 */
	WR(hw, MSI_SLOTS, HEAD_ADDR_LO, (u32)r->head_addr);
	WR(hw, MSI_SLOTS, INDEX, r->index);
	hw->slot_programmed |= 1u << slot;
	spx_unlock(&hw->os);
	return 0;
}

int spx_slot_enable(struct spx_hw *hw, unsigned int slot)
{
	u32 ctrl;
	int err;

	err = spx_slot_arg(hw, slot);
	if (err)
		return err;
	spx_lock(&hw->os);
	if (!(hw->slot_programmed & (1u << slot))) {
		spx_unlock(&hw->os);
		spx_err(hw, "slot %u: enable before its ring was programmed\n", slot);
		return -EINVAL;
	}
	spx_sel(hw, slot);
	ctrl = RD(hw, MSI_SLOTS, CTRL);
	if (ctrl != SPX_ALL_ONES) {
		WR(hw, MSI_SLOTS, CTRL, ctrl | SYNPCIX_MSI_SLOTS_CTRL_ENABLE_MASK);
		hw->slot_enabled |= 1u << slot;
	}
	spx_unlock(&hw->os);
	return ctrl == SPX_ALL_ONES ? -ENODEV : 0;
}

/*
 * Stop stamping and wait until the engine no longer writes into the ring,
 * so the caller may free it: status.busy 0, or the slot's index still for
 * SPX_SLOT_STILL_POLLS us. -ETIMEDOUT when neither happens within
 * SPX_SLOT_IDLE_POLLS us (the slot is disabled all the same).
 */
int spx_slot_disable(struct spx_hw *hw, unsigned int slot)
{
	u32 ctrl, status, index, last;
	int err, i, still = 0;

	err = spx_slot_arg(hw, slot);
	if (err)
		return err;
	spx_lock(&hw->os);
	spx_sel(hw, slot);
	ctrl = RD(hw, MSI_SLOTS, CTRL);
	if (ctrl != SPX_ALL_ONES)
		WR(hw, MSI_SLOTS, CTRL, ctrl & ~SYNPCIX_MSI_SLOTS_CTRL_ENABLE_MASK);
	last = RD(hw, MSI_SLOTS, INDEX);
	hw->slot_enabled &= ~(1u << slot);
	spx_unlock(&hw->os);
	if (ctrl == SPX_ALL_ONES)
		return -ENODEV;

	for (i = 0; i < SPX_SLOT_IDLE_POLLS; i++) {
		spx_lock(&hw->os);
		status = RD(hw, MSI_SLOTS, STATUS);
		spx_sel(hw, slot);
		index = RD(hw, MSI_SLOTS, INDEX);
		spx_unlock(&hw->os);
		if (status == SPX_ALL_ONES)
			return -ENODEV;
		if (!(status & SYNPCIX_MSI_SLOTS_STATUS_BUSY_MASK))
			return 0;
		if (index == last) {
			if (++still >= SPX_SLOT_STILL_POLLS)
				return 0;
		} else {
			still = 0;
			last = index;
		}
		spx_udelay(&hw->os, 1);
	}
	spx_err(hw, "slot %u: engine still writing its ring %d us after disable\n",
		slot, SPX_SLOT_IDLE_POLLS);
	return -ETIMEDOUT;
}

int spx_slot_read(struct spx_hw *hw, unsigned int slot,
		  struct spx_slot_counters *c)
{
	u32 lo, hi;
	int err;

	err = spx_slot_arg(hw, slot);
	if (err)
		return err;
	spx_lock(&hw->os);
	spx_sel(hw, slot);
	c->ctrl = RD(hw, MSI_SLOTS, CTRL);
	c->index = RD(hw, MSI_SLOTS, INDEX);
	c->captures = RD(hw, MSI_SLOTS, CAPTURES);
	c->stamped = RD(hw, MSI_SLOTS, STAMPED);
	c->batched = RD(hw, MSI_SLOTS, BATCHED);
	c->empty = RD(hw, MSI_SLOTS, EMPTY);
	c->overflow = RD(hw, MSI_SLOTS, OVERFLOW);
	c->dma_errors = RD(hw, MSI_SLOTS, DMA_ERRORS);
	c->cause_last = RD(hw, MSI_SLOTS, CAUSE_LAST);
	c->ambiguous = RD(hw, MSI_SLOTS, AMBIGUOUS);
	lo = RD(hw, MSI_SLOTS, LAST_STAMP_LO);
	hi = RD(hw, MSI_SLOTS, LAST_STAMP_HI);
	c->last_data = RD(hw, MSI_SLOTS, LAST_DATA);
	spx_unlock(&hw->os);
	if (c->ctrl == SPX_ALL_ONES && c->index == SPX_ALL_ONES)
		return -ENODEV;
	c->last_stamp = (u64)hi << 32 | lo;
	return 0;
}

/* Read-to-clear: returns the causes accumulated since the last call. */
/*
 * One lock-free read of a single register of an optional block: absent
 * block -EOPNOTSUPP, all ones (the card fell off the bus) -ENODEV.
 */
#define RD_LIVE(hw, BLK, REG, out) \
	spx_rd_live(hw, SPX_BLK_##BLK, SPX_REL(BLK, REG), out)

static int spx_rd_live(struct spx_hw *hw, enum spx_block blk, u32 rel, u32 *out)
{
	u32 v;

	if (!hw->present[blk])
		return -EOPNOTSUPP;
	v = spx_rd(hw, hw->base[blk] + rel);
	if (v == SPX_ALL_ONES)
		return -ENODEV;
	*out = v;
	return 0;
}

int spx_slot_cause_acc(struct spx_hw *hw, unsigned int slot, u32 *acc)
{
	int err;

	err = spx_slot_arg(hw, slot);
	if (err)
		return err;
	spx_lock(&hw->os);
	spx_sel(hw, slot);
	*acc = RD(hw, MSI_SLOTS, CAUSE_ACC);
	spx_unlock(&hw->os);
	return 0;
}

int spx_slot_busy(struct spx_hw *hw, bool *busy)
{
	u32 status;
	int err = RD_LIVE(hw, MSI_SLOTS, STATUS, &status);

	if (!err)
		*busy = status & SYNPCIX_MSI_SLOTS_STATUS_BUSY_MASK;
	return err;
}

/* ---------------------------------------------------------------- */
/* Card interrupts                                                   */
/* ---------------------------------------------------------------- */

/*
 * irq.mask from the copy, read from the card the first time (a previous
 * driver instance may have left bits set); all ones: the card is gone.
 * Caller holds the lock.
 */
static u32 spx_irq_mask_get(struct spx_hw *hw)
{
	u32 mask;

	if (hw->irq_mask_known)
		return hw->irq_mask;
	mask = RD(hw, IRQ, MASK);
	if (mask != SPX_ALL_ONES) {
		hw->irq_mask = mask;
		hw->irq_mask_known = true;
	}
	return mask;
}

int spx_irq_mask(struct spx_hw *hw, unsigned int slot, bool masked)
{
	u32 mask;

	if (!hw->present[SPX_BLK_IRQ])
		return -EOPNOTSUPP;
	if (slot >= hw->n_slots)
		return -EINVAL;
	spx_lock(&hw->os);
	mask = spx_irq_mask_get(hw);
	if (mask != SPX_ALL_ONES) {
		mask = masked ? mask | (1u << slot) : mask & ~(1u << slot);
		WR(hw, IRQ, MASK, mask);
		hw->irq_mask = mask;
	}
	spx_unlock(&hw->os);
	return mask == SPX_ALL_ONES ? -ENODEV : 0;
}

int spx_irq_pending(struct spx_hw *hw, u32 *pending)
{
	return RD_LIVE(hw, IRQ, PENDING, pending);
}

/* Moderation gap in units of 64 bus clocks, 0..255 (0: none). */
int spx_irq_set_gap(struct spx_hw *hw, unsigned int units)
{
	if (!hw->present[SPX_BLK_IRQ])
		return -EOPNOTSUPP;
	if (units > SYNPCIX_IRQ_GAP_UNITS_MASK >> SYNPCIX_IRQ_GAP_UNITS_SHIFT)
		return -EINVAL;
	spx_lock(&hw->os);
	WR(hw, IRQ, GAP, SPX_FIELD(IRQ, GAP, UNITS, units));
	spx_unlock(&hw->os);
	return 0;
}

int spx_irq_get_gap(struct spx_hw *hw, unsigned int *units)
{
	u32 v;
	int err = RD_LIVE(hw, IRQ, GAP, &v);

	if (!err)
		*units = SPX_GET(IRQ, GAP, UNITS, v);
	return err;
}

int spx_irq_raised(struct spx_hw *hw, u32 *raised)
{
	return RD_LIVE(hw, IRQ, RAISED, raised);
}

/*
 * Acknowledge the card's INTx and say whether the interrupt was the card's:
 * the shared-line handler's check (docs/driver.md, "Interrupt path").
 * Returns 1 (the card's), 0 (not the card's) or a negative errno.
 *
 * irq 1.1 and later: INTA# is asserted while an unmasked irq.status bit is
 * set. The bits read are written back (W1C), which drops the line; a raise
 * after the read sets its bit again (also when it is one of the bits being
 * cleared: the gateware lets the raise win), so the line comes back and
 * nothing is lost. The interrupt was the card's when an unmasked bit was
 * set; masked ones are cleared too (they did not assert the line, and a
 * holder that masks a slot polls it). *seen is not used.
 *
 * irq 1.0 (no status register): writing irq.mask with its own value is the
 * acknowledge, and a change of irq.raised since the last call (*seen, the
 * count then) says the card raised. Acknowledge first, count second: a
 * raise after the write asserts the line again, one before it is counted.
 */
int spx_irq_ack(struct spx_hw *hw, u32 *seen)
{
	u32 mask, status = 0, raised = 0;
	int ret;

	if (!hw->present[SPX_BLK_IRQ])
		return -EOPNOTSUPP;
	spx_lock(&hw->os);
	mask = spx_irq_mask_get(hw);
	if ((hw->version[SPX_BLK_IRQ] & 0xffff) >= 1) {
		status = RD(hw, IRQ, STATUS);
		if (status != SPX_ALL_ONES && status)
			WR(hw, IRQ, STATUS, status);
	} else if (mask != SPX_ALL_ONES) {
		WR(hw, IRQ, MASK, mask);
		raised = RD(hw, IRQ, RAISED);
	}
	spx_unlock(&hw->os);
	/* mask comes from the copy once known: the read that follows tells */
	if (mask == SPX_ALL_ONES || status == SPX_ALL_ONES || raised == SPX_ALL_ONES)
		return -ENODEV;
	if ((hw->version[SPX_BLK_IRQ] & 0xffff) >= 1)
		return (status & ~mask) ? 1 : 0;
	ret = raised != *seen;
	*seen = raised;
	return ret;
}

/*
 * A slot's activity count: captures handled plus doorbells lost to a full
 * FIFO (each handled capture is followed by a raise of the slot's vector;
 * the engine writes the count back before it requests that raise).
 */
int spx_slot_activity(struct spx_hw *hw, unsigned int slot, u32 *count)
{
	u32 captures, overflow;
	int err;

	err = spx_slot_arg(hw, slot);
	if (err)
		return err;
	spx_lock(&hw->os);
	spx_sel(hw, slot);
	captures = RD(hw, MSI_SLOTS, CAPTURES);
	overflow = RD(hw, MSI_SLOTS, OVERFLOW);
	spx_unlock(&hw->os);
	if (captures == SPX_ALL_ONES && overflow == SPX_ALL_ONES)
		return -ENODEV;
	*count = captures + overflow;
	return 0;
}

/* ---------------------------------------------------------------- */
/* Capture unit DMA                                                  */
/* ---------------------------------------------------------------- */

int spx_dma_status(struct spx_hw *hw, struct spx_dma_status *st)
{
	u32 errors, last;

	if (!hw->present[SPX_BLK_DMA])
		return -EOPNOTSUPP;
	spx_lock(&hw->os);
	errors = RD(hw, DMA, ERRORS);
	last = RD(hw, DMA, LAST_ERROR);
	spx_unlock(&hw->os);
	if (errors == SPX_ALL_ONES && last == SPX_ALL_ONES)
		return -ENODEV;
	st->errors = errors;
	st->last_code = SPX_GET(DMA, LAST_ERROR, CODE, last);
	st->last_requester = SPX_GET(DMA, LAST_ERROR, REQUESTER, last);
	return 0;
}
