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

/* Ring limits of the msi_slots window registers (synpcix.toml). */
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
int spx_irq_ack(struct spx_hw *hw, u32 *raised);
int spx_slot_activity(struct spx_hw *hw, unsigned int slot, u32 *count);

/* Capture unit DMA (dma block). */
int spx_dma_status(struct spx_hw *hw, struct spx_dma_status *st);

#endif /* SYNPCIX_SLOT_H */
