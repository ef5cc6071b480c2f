// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's per-packet stamp path, run over N descriptors for
 * `make stamp-path-cost` (tests/driver/stamp_cost.sh counts its
 * instructions under callgrind; this program only runs and checks it).
 *
 * Per received descriptor a NIC driver reads the 64-bit stamp field and
 * calls synpcix_slot_stamp() (driver/synpcix_slot.c), which is:
 *   - one unlocked load of the card's reference time (an atomic64 in the
 *     kernel, refreshed once a second by the PTP worker),
 *   - the core's spx_stamp_decode(): marker check, field extraction, 48-bit
 *     extension from the reference, latch latency off,
 *   - clamp to KTIME_MAX and hand back seq and batched.
 * slot_stamp() below restates that wrapper in user space (the kernel file
 * cannot build here); spx_stamp_decode() is the core object itself, built
 * with the co-simulation's flags (-O2, as Kbuild).
 *
 * The descriptors: a 1.488 Mpps stream (672 ns apart) starting 2 ms before
 * a 2^48 ns wrap, the reference refreshed every 2^20 packets' worth of
 * time (about 0.7 s, like SYNPCIX_REF_MS), raw stamps laid out by the
 * generated header's last_stamp_hi fields (the layout the co-simulation
 * checks against the card). Modes:
 *   exact    every stamp exact (an MSI per packet)
 *   batched  one exact stamp then three batched (the card's batches)
 *   none     no stamp yet (the field holds a buffer address: -ENODATA)
 * Every decode is checked against the time the stamp was made from; any
 * mismatch exits 1, so the counted path is the correct one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>

#include "synpcix_slot.h"

#define LATCH_NS 16
#define PKT_NS 672
#define REF_EVERY (1u << 20)
#define KTIME_MAX_NS ((u64)INT64_MAX)

struct slot {
	_Atomic u64 ref_ns;
	u64 latch_ns;
};

/*
 * synpcix_slot_stamp() without the kernel types (see the header comment).
 * noipa: the NIC driver calls the exported function from another module, so
 * the compiler cannot specialise it for the caller's arguments here either.
 */
int slot_stamp(struct slot *sp, u64 raw, u64 *t, u8 *seq, bool *batched);
__attribute__((noipa)) int slot_stamp(struct slot *sp, u64 raw, u64 *t, u8 *seq, bool *batched)
{
	struct spx_stamp st;
	int err;

	err = spx_stamp_decode(raw, atomic_load_explicit(&sp->ref_ns, memory_order_relaxed),
			       sp->latch_ns, &st);
	if (err)
		return err;
	*t = st.ns < KTIME_MAX_NS ? st.ns : KTIME_MAX_NS;
	if (seq)
		*seq = st.seq;
	if (batched)
		*batched = st.batched;
	return 0;
}

static u64 make_raw(u64 t_ns, unsigned seq, bool batched)
{
	u32 hi = (u32)((t_ns + LATCH_NS) >> 32) & SPX_STAMP_HI(NS_HI_MASK);

	hi |= (seq << SPX_STAMP_HI(SEQ_SHIFT)) & SPX_STAMP_HI(SEQ_MASK);
	hi |= batched ? SPX_STAMP_HI(BATCHED_MASK) : 0;
	hi |= (u32)SYNPCIX_MSI_SLOTS_LAST_STAMP_HI_MARKER_VALID << SPX_STAMP_HI(MARKER_SHIFT);
	return (u64)hi << 32 | (u32)(t_ns + LATCH_NS);
}

int main(int argc, char **argv)
{
	static struct slot sp;
	unsigned long n, k, bad = 0;
	const u64 t0 = (5ull << 48) - 2000000;
	u64 *ring, *truth, sum = 0;
	int mode;

	if (argc != 3 || (n = strtoul(argv[2], NULL, 0)) == 0 ||
	    ((mode = !strcmp(argv[1], "exact") ? 0 : !strcmp(argv[1], "batched") ? 1 :
	      !strcmp(argv[1], "none") ? 2 : -1) < 0)) {
		fprintf(stderr, "usage: %s exact|batched|none N\n", argv[0]);
		return 2;
	}
	ring = malloc(n * sizeof(*ring));
	truth = malloc(n * sizeof(*truth));
	if (!ring || !truth) {
		fprintf(stderr, "stamp_cost: out of memory for %lu packets\n", n);
		return 2;
	}
	/* the stamp fields as the card leaves them (batched: the group's time) */
	for (k = 0; k < n; k++) {
		truth[k] = t0 + (mode == 1 ? k & ~3ul : k) * PKT_NS;
		ring[k] = mode == 2 ? 0x7a000000ull + k * 2048 :
			  make_raw(truth[k], (unsigned)k, mode == 1 && (k & 3));
	}
	sp.latch_ns = LATCH_NS;
	for (k = 0; k < n; k++) {
		u64 t = 0;
		u8 seq = 0;
		bool batched = false;
		int err;

		if (!(k % REF_EVERY))
			atomic_store_explicit(&sp.ref_ns, t0 + k * PKT_NS, memory_order_relaxed);
		err = slot_stamp(&sp, ring[k], &t, &seq, &batched);
		if (mode == 2) {
			bad += err != -ENODATA;
			continue;
		}
		bad += err || t != truth[k] || seq != (u8)k || batched != (mode == 1 && (k & 3));
		sum += t;
	}
	printf("stamp_cost: %s, %lu packets, %lu wrong decodes (check sum %llu)\n", argv[1], n, bad,
	       (unsigned long long)sum);
	free(ring);
	free(truth);
	return bad ? 1 : 0;
}
