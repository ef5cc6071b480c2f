/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X hardware core, MSI capture slots: discovery of the msi_slots, dma
 * and irq blocks, programming of a slot's stamp ring through the slot_sel
 * window, counters, card interrupt mask/moderation, and decoding of the
 * 64-bit stamps the card writes into rings (docs/driver.md, "MSI capture
 * slots").
 *
 * Same rules as synpcix_hw.h: only synpcix_osdep.h is used, every window
 * access (slot_sel followed by window registers) runs under spx_lock(), and
 * nothing sleeps with the lock held.
 */
#ifndef SYNPCIX_SLOT_H
#define SYNPCIX_SLOT_H

#include "synpcix_hw.h"

/* Slots the window can select (msi_slots.slot_sel.slot). */
#define SPX_MAX_SLOTS (SYNPCIX_MSI_SLOTS_SLOT_SEL_SLOT_MASK + 1u)

/*
 * Stamp layout: the upper word of a stamp is laid out like the register
 * msi_slots.last_stamp_hi, the lower word holds time bits 31..0.
 */
#define SPX_STAMP_HI(FLD) SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_##FLD
#define SPX_STAMP_NS_BITS \
	(32 + __builtin_ctz(SPX_STAMP_HI(NS_HI_MASK) + 1u))
/* Upper-word bits no field covers: zero in every stamp (bit 57). */
#define SPX_STAMP_HI_RESERVED \
	(~(SPX_STAMP_HI(NS_HI_MASK) | SPX_STAMP_HI(SEQ_MASK) | \
	   SPX_STAMP_HI(BATCHED_MASK) | SPX_STAMP_HI(MARKER_MASK)))

/*
 * Ring limits of the msi_slots window registers (synpcix.toml). The
 * largest count is the card's (msi_slots.info.ring_log2, hw->ring_max);
 * this is the register's, and the limit of builds that do not say.
 */
#define SPX_RING_COUNT_MAX 65535u
#define SPX_RING_STRIDE_MIN 8u
#define SPX_RING_STRIDE_MAX 1020u
#define SPX_RING_STAMP_BYTES 8u
#define SPX_RING_DONE_BYTES 4u
/* No DMA burst crosses a 4 KiB boundary, so no entry may (ring_count doc). */
#define SPX_RING_PAGE 4096u

/*
 * Disable: the engine finishes the capture it works on; a slot counts as
 * idle when status.busy is 0, or when its index has not moved for
 * SPX_SLOT_STILL_POLLS polls of 1 us (other slots may keep the engine busy
 * for as long as their NICs interrupt). A stamp write takes a few bus
 * clocks after the ring read (docs/stamping.md), far below 10 us.
 */
#define SPX_SLOT_IDLE_POLLS 1000
#define SPX_SLOT_STILL_POLLS 10

/* What the card needs to stamp a NIC's descriptor ring. */
struct spx_ring {
	u64 base;		/* bus address of entry 0, 4-aligned */
	u32 count;		/* entries, 1..65535 */
	u32 stride;		/* bytes per entry, multiple of 4, 8..1020 */
	u32 stamp_off;		/* 8-byte stamp field in the entry */
	u32 done_off;		/* 32-bit word holding the done bit(s) */
	u32 done_mask;		/* completed when (word & mask) != 0 */
	u32 index;		/* first entry the card looks at, < count */
	bool cause_en;		/* read the NIC's cause register per capture */
	u64 cause_addr;		/* its bus address, 4-aligned (cause_en) */
	/*
	 * The NIC's RX head register (8254x RDH), read after each cause read
	 * to pair the next capture by count (docs/stamping.md 5); 0: not
	 * read. 4-aligned, needs cause_en, and its bits 63..32 must equal
	 * cause_addr's (the card keeps one high word for both).
	 */
	u64 head_addr;
};

/* A slot's window registers, read in one locked sequence. */
struct spx_slot_counters {
	u32 ctrl;
	u32 index;
	u32 captures;
	u32 stamped;
	u32 batched;
	u32 empty;
	u32 overflow;
	u32 dma_errors;
	u32 cause_last;
	u32 ambiguous;		/* head reads that did not decide the pairing */
	u64 last_stamp;		/* raw, as the card writes it into a ring */
	u32 last_data;		/* last doorbell's data, bits 15..0 */
};

/* A decoded stamp. */
struct spx_stamp {
	u64 ns;			/* full card time, latch latency removed */
	u64 ns_low;		/* the 48 bits the card wrote */
	u8 seq;			/* slot's stamped count before it, mod 256 */
	bool batched;		/* found after the first entry of a capture */
};

struct spx_dma_status {
	u32 errors;		/* saturating at 65535 */
	u32 last_code;		/* SYNPCIX_DMA_LAST_ERROR_CODE_*, 0 none */
	u32 last_requester;
};

/*
 * Stamp refinement (docs/driver.md, "Stamp refinement"): what the driver
 * hands to the socket is the card's stamp moved from "the NIC's MSI landed"
 * to "the frame's last bit arrived", with two physical corrections.
 *
 * Ingress latency, per slot, taken off exact stamps: NIC last bit -> MSI
 * latched at the card for a
 * frame of len descriptor bytes, modelled as base_ns + ps_per_byte * len
 * (the NIC stores the frame, DMAs it, writes the descriptor back, then
 * sends its MSI: a constant plus a per-byte DMA time). Calibrated by the
 * user against a reference (linuxptp's ingressLatency is the same idea);
 * zero = uncorrected.
 */
struct spx_ingress {
	s32 base_ns;		/* latency at len 0, ns */
	s32 ps_per_byte;	/* per byte of descriptor length, ps */
};

/* Limits of the ingress model: a path longer than 1 ms or slower than
 * 32 ns per byte is not a NIC on a bus, and the products stay in 32 bits. */
#define SPX_INGRESS_BASE_MAX_NS 1000000
#define SPX_INGRESS_PS_PER_BYTE_MAX 32767

/*
 * The link's physics for batched stamps: an entry cannot have arrived
 * sooner than the previous entry of the same ring plus its own wire time.
 * One per ring, owned by the caller (NAPI context: no lock). link_mbps 0
 * (link down or speed unknown) turns the bound off.
 */
struct spx_rx_chain {
	u64 prev_ns;		/* refined time of the previous stamped entry */
	u32 link_mbps;		/* 10, 100, 1000, ...; 0: no bound */
	bool len_has_fcs;	/* descriptor length includes the 4-byte FCS */
	bool valid;		/* prev_ns holds a time */
};

/*
 * A bound further ahead of the card's own (corrected) time than this is
 * not physics but a stale chain (the clock was stepped back, the ring was
 * restarted without a reset): the entry then takes the card's time and
 * starts a new chain. The card stamps an entry within its capture's ring
 * read, far below 1 ms even on a saturated 33 MHz bus
 * (docs/stamping-results.md: doorbell -> card MSI <= 0.3 ms).
 */
#define SPX_CHAIN_MAX_LEAD_NS 1000000u

/* Ethernet on the wire: preamble + SFD, inter-frame gap, FCS, minimum frame. */
#define SPX_ETH_PREAMBLE 8u
#define SPX_ETH_IFG 12u
#define SPX_ETH_FCS 4u
#define SPX_ETH_MIN_FRAME 64u

int spx_ingress_check(const struct spx_ingress *lat);
s32 spx_ingress_ns(const struct spx_ingress *lat, u32 len);
u32 spx_wire_ns(u32 len, u32 link_mbps, bool len_has_fcs);
void spx_rx_chain_init(struct spx_rx_chain *c, u32 link_mbps, bool len_has_fcs);
u64 spx_stamp_refine(struct spx_rx_chain *c, const struct spx_stamp *st, u32 len,
		     const struct spx_ingress *lat, bool *bounded);

/* Called by spx_probe() after the chain walk; features_n_slots from id. */
int spx_slot_probe(struct spx_hw *hw, unsigned int features_n_slots);

/* No hardware access (spx_ring_check logs through hw). */
int spx_ring_check(struct spx_hw *hw, const struct spx_ring *r);
bool spx_stamp_is_stamp(u64 raw);
int spx_stamp_decode(u64 raw, u64 ref_ns, u64 latch_ns, struct spx_stamp *st);

/* Slots (window). */
int spx_slot_program(struct spx_hw *hw, unsigned int slot,
		     const struct spx_ring *r);
int spx_slot_enable(struct spx_hw *hw, unsigned int slot);
int spx_slot_disable(struct spx_hw *hw, unsigned int slot);
int spx_slot_read(struct spx_hw *hw, unsigned int slot,
		  struct spx_slot_counters *c);
int spx_slot_cause_acc(struct spx_hw *hw, unsigned int slot, u32 *acc);
int spx_slot_busy(struct spx_hw *hw, bool *busy);

/* Card interrupts (irq block). */
int spx_irq_mask(struct spx_hw *hw, unsigned int slot, bool masked);
int spx_irq_pending(struct spx_hw *hw, u32 *pending);
int spx_irq_set_gap(struct spx_hw *hw, unsigned int units);
int spx_irq_get_gap(struct spx_hw *hw, unsigned int *units);
int spx_irq_raised(struct spx_hw *hw, u32 *raised);
int spx_irq_ack(struct spx_hw *hw, u32 *seen);
int spx_slot_activity(struct spx_hw *hw, unsigned int slot, u32 *count);

/* Capture unit DMA (dma block). */
int spx_dma_status(struct spx_hw *hw, struct spx_dma_status *st);

#endif /* SYNPCIX_SLOT_H */
