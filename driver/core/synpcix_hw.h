/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X hardware core: every register sequence of the card, in plain C.
 *
 * This file and synpcix_hw.c use only what synpcix_osdep.h provides (the
 * e1000_osdep.h pattern): the same sources build into synpcix.ko (with
 * driver/os/linux/synpcix_osdep.h) and into user-space tests and the
 * co-simulation (with driver/os/user/synpcix_osdep.h).
 *
 * Offsets come from the generated build/gen/synpcix_regs.h only. The header
 * gives absolute offsets of the reference map; the core turns them into
 * offsets relative to the block base (SPX_REL) and adds the base that the
 * block-chain walk found, so a card with blocks at other places still works.
 *
 * Locking: every multi-register sequence runs under spx_lock(); the core
 * never sleeps with the lock held (it polls with spx_udelay() for at most
 * SPX_CMD_POLLS microseconds).
 */
#ifndef SYNPCIX_HW_H
#define SYNPCIX_HW_H

#include "synpcix_osdep.h"
#include "synpcix_regs.h"

/* Offset of register REG of block BLK relative to the block's base. */
#define SPX_REL(BLK, REG) (SYNPCIX_##BLK##_##REG - SYNPCIX_##BLK##_BASE)
/* Value of field FLD of register REG of block BLK in word v. */
#define SPX_GET(BLK, REG, FLD, v) \
	(((v) & SYNPCIX_##BLK##_##REG##_##FLD##_MASK) >> \
	 SYNPCIX_##BLK##_##REG##_##FLD##_SHIFT)
#define SPX_FIELD(BLK, REG, FLD, v) \
	(((u32)(v) << SYNPCIX_##BLK##_##REG##_##FLD##_SHIFT) & \
	 SYNPCIX_##BLK##_##REG##_##FLD##_MASK)

/* Time is kept in units of 2^-32 ns ("fp") where fractions matter. */
#define SPX_FP_SHIFT 32
#define SPX_NSEC_PER_SEC 1000000000ULL

/*
 * Period limits of the timebase: clock.period_ns holds 1..255 whole ns (8
 * bits). 8 ns is the 125 MHz card; the larger periods serve slowed clocks
 * such as the QEMU card (docs/simulation.md), whose id.clk_hz says so.
 */
#define SPX_PERIOD_MIN_FP (1ULL << SPX_FP_SHIFT)
#define SPX_PERIOD_MAX_FP ((256ULL << SPX_FP_SHIFT) - 1)

/* Command wait: CDC round trip is a few bus + timebase clocks (< 1 us). */
#define SPX_CMD_POLLS 200

/* Walk limit: the 4 KiB window holds at most 4096 / 12 headers. */
#define SPX_MAX_BLOCKS 64

/* Event inputs the register layout has room for (event.ctrl.enable). */
#define SPX_MAX_EVENTS 8

enum spx_block {
	SPX_BLK_ID,
	SPX_BLK_CLOCK,
	SPX_BLK_PPS,
	SPX_BLK_EVENT,
	SPX_BLK_PEROUT,
	SPX_BLK_MSI_SLOTS,	/* optional: MSI capture slots (synpcix_slot.c) */
	SPX_BLK_DMA,		/* optional: capture unit DMA status */
	SPX_BLK_IRQ,		/* optional: card interrupt moderation/mask */
	SPX_BLK_COUNT
};

enum spx_pps_mode {
	SPX_PPS_OFF = SYNPCIX_PPS_CTRL_MODE_OFF,
	SPX_PPS_REPORT = SYNPCIX_PPS_CTRL_MODE_REPORT,
	SPX_PPS_SERVO = SYNPCIX_PPS_CTRL_MODE_SERVO,
};

struct spx_hw {
	struct spx_os os;		/* OS part: register access, lock, log */

	/* Found by spx_probe(): where each known block is, 0 = absent. */
	u32 base[SPX_BLK_COUNT];
	u32 version[SPX_BLK_COUNT];
	bool present[SPX_BLK_COUNT];
	unsigned int n_blocks;		/* blocks on the chain, known or not */

	u32 build;			/* id.build */
	u32 clk_hz;			/* id.clk_hz (0: card did not say) */
	unsigned int n_events;		/* event inputs, <= SPX_MAX_EVENTS */
	unsigned int n_slots;		/* MSI slots (msi_slots.info; 0: none) */
	unsigned int slot_fifo_depth;	/* capture FIFO entries, all slots */
	unsigned int latch_clks;	/* msi_slots.info.latch_clks */
	u32 ring_max;			/* largest ring_count (info.ring_log2) */
	u64 latch_ns;			/* latch_clks in ns at the nominal period */
	unsigned int addr_bits;		/* bus address bits the card's master
					 * carries (dma.info; 64 before it) */
	unsigned int dma_bits;		/* bus address bits the card may use
					 * for rings (0 = 64; the OS layer
					 * sets its DMA mask here) */
	u32 slot_programmed;		/* bit i: slot i's ring was set */
	u32 slot_enabled;		/* bit i: slot i enabled by us */
	/*
	 * Copies of two registers only this driver writes, so that the
	 * interrupt path writes them without reading them first (a read
	 * stalls the CPU for a bus round trip). Valid from the first access
	 * after spx_slot_probe(); under the lock.
	 */
	unsigned int slot_sel;		/* msi_slots.slot_sel + 1; 0: not known */
	u32 irq_mask;			/* irq.mask */
	bool irq_mask_known;
	unsigned int fifo_depth;	/* event FIFO entries */
	u64 nominal_period_fp;		/* 1e9 / clk_hz in 2^-32 ns */
	u64 capture_delay_ns;		/* subtract from input stamps */
	u64 perout_delay_ns;		/* arm outputs this much early */

	/* event FIFO sequence tracking */
	bool seq_known;
	u16 next_seq;
	u64 events_lost;		/* stamps lost per the sequence gaps */

	/* event ring in host memory (event block 1.1, spx_evring_*) */
	u32 *evring_mem;		/* CPU view; NULL: ring not running */
	u32 evring_entries;		/* 2^event.ring_ctrl.size_log2 */
	u32 evring_next;		/* entries taken since enable */
	u32 evring_acked;		/* evring_next last written to ring_rd */
};

struct spx_event {
	u64 ns;				/* full time of the edge */
	unsigned int channel;		/* event input number */
	u16 seq;
	u32 lost_before;		/* stamps lost just before this one */
};

struct spx_pps_status {
	u32 mode;			/* enum spx_pps_mode */
	bool falling;			/* falling edge is on time */
	u32 state;			/* SYNPCIX_PPS_STATUS_STATE_* */
	bool present;
	s32 offset_ns;
	s32 freq_adj;			/* 2^-32 ns per clock */
	u32 edges, glitches, rejects, losses, steps;
};

/* Pure arithmetic (no hardware; unit tested in user space). */
u64 spx_mul_div_round(u64 a, u64 b, u64 d);
u64 spx_scaled_ppm_to_period(u64 nominal_fp, s64 scaled_ppm, bool *clamped);
s64 spx_period_to_ppb(u64 nominal_fp, u64 period_fp);
s32 spx_max_adj_ppb(u64 nominal_fp);
u64 spx_extend_stamp(u64 ref_ns, u64 stamp, unsigned int bits);
u64 spx_perout_first_start(u64 now_ns, u64 start_ns, u64 period_ns,
			   u64 margin_ns);

/* Discovery. */
int spx_probe(struct spx_hw *hw);
const char *spx_block_name(enum spx_block blk);

/* Clock. */
int spx_read_time(struct spx_hw *hw, u64 *ns, u32 *frac, spx_systs *sts);
int spx_set_time(struct spx_hw *hw, u64 ns);
int spx_adj_time(struct spx_hw *hw, s64 delta_ns);
int spx_set_period(struct spx_hw *hw, u64 period_fp);
int spx_adj_fine(struct spx_hw *hw, s64 scaled_ppm);
int spx_get_period(struct spx_hw *hw, u64 *loaded_fp, u64 *effective_fp);

/* PPS input and servo. */
int spx_pps_set_mode(struct spx_hw *hw, u32 mode);
int spx_pps_set_falling(struct spx_hw *hw, bool falling);
int spx_pps_get_status(struct spx_hw *hw, struct spx_pps_status *st);
int spx_pps_poll(struct spx_hw *hw, u64 *ns);

/* Event inputs. */
int spx_event_enable(struct spx_hw *hw, unsigned int channel, bool on,
		     bool falling);
int spx_event_pop(struct spx_hw *hw, struct spx_event *ev);
int spx_event_overflows(struct spx_hw *hw, u32 *count);

/*
 * Event ring (event block 1.1): the card writes every stamp into a ring of
 * 16-byte entries in host memory (docs/stamping.md section 12).
 * spx_evring_bytes gives the size the card wants (-EOPNOTSUPP on older
 * cards); the caller allocates that many bytes of DMA-coherent memory
 * below 4 GiB, aligned to the size, and passes both views to
 * spx_evring_start. While it
 * runs spx_event_pop must not be used: spx_evring_poll takes the stamps
 * (no register access), spx_evring_ack tells the card how far the driver
 * got and reports a ring the card stopped. spx_evring_stop disables the
 * ring and returns once the card no longer writes it (only then may the
 * memory be freed; -ETIMEDOUT: the card still may, keep it).
 */
#define SPX_EVRING_ENTRY_BYTES 16
int spx_evring_bytes(struct spx_hw *hw, u32 *bytes);
int spx_evring_start(struct spx_hw *hw, u32 *mem, u64 bus, u32 bytes);
int spx_evring_poll(struct spx_hw *hw, struct spx_event *ev);
int spx_evring_ack(struct spx_hw *hw, u32 *overruns);
int spx_evring_stop(struct spx_hw *hw);

/* Periodic output. */
int spx_perout_set(struct spx_hw *hw, u64 start_ns, u32 period_ns,
		   u32 width_ns);
int spx_perout_disable(struct spx_hw *hw);

#endif /* SYNPCIX_HW_H */
