/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X access layer, Linux kernel flavour: what the OS-independent core
 * (driver/core/) may use. Modelled on Intel's e1000_osdep.h.
 */
#ifndef SYNPCIX_OSDEP_H
#define SYNPCIX_OSDEP_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/io.h>
#include <linux/delay.h>
#include <linux/spinlock.h>
#include <linux/device.h>
#include <linux/ptp_clock_kernel.h>

struct spx_os {
	void __iomem *regs;	/* BAR mapping of the register window */
	u32 window;		/* its length in bytes (0: the map's size) */
	struct device *dev;	/* for log messages */
	spinlock_t lock;	/* serialises multi-register sequences */
	unsigned long flags;	/* saved IRQ state while lock is held */
};

static inline u32 spx_os_read32(struct spx_os *os, u32 off)
{
	return ioread32(os->regs + off);
}

static inline void spx_os_write32(struct spx_os *os, u32 off, u32 val)
{
	iowrite32(val, os->regs + off);
}

/*
 * Host memory the card writes by DMA (the event ring, dma_alloc_coherent):
 * a little-endian word read the compiler may not merge or tear, and the
 * barrier between the read that finds an entry complete and the reads of
 * its other words.
 */
static inline u32 spx_mem_rd32(const u32 *p)
{
	return le32_to_cpu(READ_ONCE(*(const __le32 *)p));
}

static inline void spx_mem_wr32(u32 *p, u32 v)
{
	WRITE_ONCE(*(__le32 *)p, cpu_to_le32(v));
}
#define spx_dma_rmb() dma_rmb()

/* Busy wait: the core calls it with the lock held, for microseconds only. */
static inline void spx_udelay(struct spx_os *os, unsigned int us)
{
	udelay(us);
}

/* Macros, not functions, so sparse sees the lock balance in the caller. */
#define spx_lock(os) spin_lock_irqsave(&(os)->lock, (os)->flags)
#define spx_unlock(os) spin_unlock_irqrestore(&(os)->lock, (os)->flags)

/* System time bracketing a clock read (PTP_SYS_OFFSET_EXTENDED). */
typedef struct ptp_system_timestamp spx_systs;
#define spx_sts_pre(os, sts) ptp_read_system_prets(sts)
#define spx_sts_post(os, sts) ptp_read_system_postts(sts)

#define spx_err(hw, fmt, ...) dev_err((hw)->os.dev, fmt, ##__VA_ARGS__)
#define spx_warn(hw, fmt, ...) dev_warn((hw)->os.dev, fmt, ##__VA_ARGS__)
#define spx_info(hw, fmt, ...) dev_info((hw)->os.dev, fmt, ##__VA_ARGS__)
#define spx_dbg(hw, fmt, ...) dev_dbg((hw)->os.dev, fmt, ##__VA_ARGS__)

#endif /* SYNPCIX_OSDEP_H */
