/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X access layer, user-space flavour: the core runs in unit tests and
 * in the co-simulation with register access through function pointers (a
 * test card, or the Verilator card behind the PCI host model). Delays go to
 * the owner too, so a simulation can advance simulated time instead of
 * sleeping. The lock is a checked flag: the core is single-threaded here,
 * and a nested or unbalanced lock is a bug the tests must see.
 */
#ifndef SYNPCIX_OSDEP_H
#define SYNPCIX_OSDEP_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <errno.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

struct spx_os_ops {
	u32 (*read32)(void *ctx, u32 off);
	void (*write32)(void *ctx, u32 off, u32 val);
	void (*udelay)(void *ctx, unsigned int us);	/* NULL: no wait */
	u64 (*systime_ns)(void *ctx);	/* NULL: CLOCK_REALTIME */
};

struct spx_os {
	const struct spx_os_ops *ops;
	void *ctx;
	u32 window;		/* register window bytes (0: the map's size) */
	int lock_depth;		/* must be 0 or 1 */
	unsigned long lock_errors;	/* nested or unbalanced lock calls */
	unsigned long reads, writes;	/* bus accesses, for cost figures */
	int log_level;		/* 0 quiet, 1 errors, 2 warnings, 3 info, 4 debug */
};

static inline u32 spx_os_read32(struct spx_os *os, u32 off)
{
	os->reads++;
	return os->ops->read32(os->ctx, off);
}

static inline void spx_os_write32(struct spx_os *os, u32 off, u32 val)
{
	os->writes++;
	os->ops->write32(os->ctx, off, val);
}

/*
 * Host memory the card writes by DMA (the event ring): words are
 * little-endian as on the bus (this layer runs on little-endian hosts
 * only, checked below); volatile so each poll really reads memory, and an
 * acquire fence between the word that says an entry is complete and the
 * others (the co-simulation writes from the same thread, a real device
 * from another agent).
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the user-space access layer assumes a little-endian host"
#endif
static inline u32 spx_mem_rd32(const u32 *p)
{
	return *(const volatile u32 *)p;
}

static inline void spx_mem_wr32(u32 *p, u32 v)
{
	*(volatile u32 *)p = v;
}
#define spx_dma_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)

static inline void spx_udelay(struct spx_os *os, unsigned int us)
{
	if (os->ops->udelay)
		os->ops->udelay(os->ctx, us);
}

static inline void spx_lock(struct spx_os *os)
{
	if (os->lock_depth++ != 0)
		os->lock_errors++;
}

static inline void spx_unlock(struct spx_os *os)
{
	if (--os->lock_depth != 0)
		os->lock_errors++;
}

/* System time bracketing a clock read, as PTP_SYS_OFFSET_EXTENDED has it. */
typedef struct spx_systs {
	u64 pre_ns, post_ns;
} spx_systs;

u64 spx_os_systime(struct spx_os *os);
#define spx_sts_pre(os, sts) \
	do { if (sts) (sts)->pre_ns = spx_os_systime(os); } while (0)
#define spx_sts_post(os, sts) \
	do { if (sts) (sts)->post_ns = spx_os_systime(os); } while (0)

/* Text of the last log line, whatever its level (for tests). */
extern char spx_os_last_log[256];

void spx_os_log(struct spx_os *os, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define spx_err(hw, ...) spx_os_log(&(hw)->os, 1, __VA_ARGS__)
#define spx_warn(hw, ...) spx_os_log(&(hw)->os, 2, __VA_ARGS__)
#define spx_info(hw, ...) spx_os_log(&(hw)->os, 3, __VA_ARGS__)
#define spx_dbg(hw, ...) spx_os_log(&(hw)->os, 4, __VA_ARGS__)

#endif /* SYNPCIX_OSDEP_H */
