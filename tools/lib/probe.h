/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * probe: the tsprobe UDP payload and the receive-side bookkeeping shared
 * by `tsprobe recv` and `tsstat --ref payload`.
 *
 * Payload (big-endian), PROBE_HDR_LEN bytes, padded with zeros to the size
 * asked for:
 *   0  u32 magic "TSPR"
 *   4  u8  version (1)
 *   5  u8  flags (PROBE_F_*)
 *   6  u16 header length
 *   8  u64 sequence number, from 0
 *  16  s64 tx_ns: CLOCK_REALTIME read in user space just before sending
 *  24  s64 prev_tx_ns: the kernel's TX stamp (SO_TIMESTAMPING) of packet
 *          seq-1, hardware or software as the flags say; 0 when none.
 *          A stamp of a sent packet exists only after it left, so it
 *          travels in the next packet, like PTP's two-step follow-up.
 *  32  u64 run id: random per sender run
 */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>
#include <stdint.h>

#define PROBE_MAGIC 0x54535052u
#define PROBE_VERSION 1
#define PROBE_HDR_LEN 40
#define PROBE_F_PREV_VALID 0x01         /* prev_tx_ns holds a stamp */
#define PROBE_F_PREV_HW 0x02            /* ... and it is a hardware stamp */
#define PROBE_F_FOLLOWUP_ONLY 0x04      /* carries only prev_tx_ns: not a probe */

struct probe_hdr {
	uint8_t flags;
	uint64_t seq;
	int64_t tx_ns;
	int64_t prev_tx_ns;
	uint64_t run;
};

void probe_encode(uint8_t *buf, const struct probe_hdr *h);
/* 0 and *h filled when buf holds a probe header, -1 otherwise. */
int probe_decode(const uint8_t *buf, size_t len, struct probe_hdr *h);

/*
 * Find the UDP payload in a captured frame of the given LINKTYPE.
 * Returns 1 (payload in *pl, *pllen), 0 when the frame is not UDP over
 * IPv4/IPv6, -1 when the link type is not one we can parse.
 */
int udp_payload(uint32_t linktype, const uint8_t *p, size_t len,
		const uint8_t **pl, size_t *pllen);

/* What kind of send stamp a delay sample used. */
enum tx_kind { TX_USER, TX_KERNEL_SW, TX_HW, TX_KINDS };
extern const char *const tx_kind_name[TX_KINDS];

typedef void (*probe_emit_fn)(void *ctx, uint64_t seq, int64_t rx_ns,
			      int64_t tx_ns, enum tx_kind kind);

#define PROBE_RING 4096

struct probe_slot {
	uint64_t seq;
	int64_t rx_ns, tx_user, tx_precise;
	uint8_t used, have_rx, have_precise, precise_hw;
};

struct probe_tracker {
	struct probe_slot ring[PROBE_RING];
	uint8_t *seen;          /* bitmap of received sequence numbers */
	uint64_t seen_bits;
	uint64_t run;
	int have_run;
	uint64_t received, unique, duplicates, reordered, max_seq, other_runs;
	uint64_t by_kind[TX_KINDS];
	int any;
	probe_emit_fn emit;
	void *ctx;
};

void probe_tracker_init(struct probe_tracker *t, probe_emit_fn emit, void *ctx);
/* One received probe. -1 when out of memory or seq absurdly large. */
int probe_tracker_add(struct probe_tracker *t, const struct probe_hdr *h, int64_t rx_ns);
/* Emit everything still held (end of run). */
void probe_tracker_flush(struct probe_tracker *t);
/* Lost = sequence numbers up to the highest seen (or expect-1) never received. */
uint64_t probe_tracker_lost(const struct probe_tracker *t, uint64_t expect);
void probe_tracker_free(struct probe_tracker *t);

#endif
