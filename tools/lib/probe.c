// SPDX-License-Identifier: GPL-2.0-or-later
/* probe: tsprobe payload codec, frame parsing, receive bookkeeping. */
#include "probe.h"

#include <stdlib.h>
#include <string.h>

/* Sequence numbers beyond this are damage: the bitmap would be huge. */
#define PROBE_MAX_SEQ (1ull << 34)

const char *const tx_kind_name[TX_KINDS] = {
	[TX_USER] = "user-space clock before send",
	[TX_KERNEL_SW] = "kernel software TX stamp",
	[TX_HW] = "hardware TX stamp",
};

static void be64put(uint8_t *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (uint8_t)v;
}

static uint64_t be64get(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static uint32_t be32get(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint16_t be16get(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

void probe_encode(uint8_t *buf, const struct probe_hdr *h)
{
	buf[0] = 'T';
	buf[1] = 'S';
	buf[2] = 'P';
	buf[3] = 'R';
	buf[4] = PROBE_VERSION;
	buf[5] = h->flags;
	buf[6] = 0;
	buf[7] = PROBE_HDR_LEN;
	be64put(buf + 8, h->seq);
	be64put(buf + 16, (uint64_t)h->tx_ns);
	be64put(buf + 24, (uint64_t)h->prev_tx_ns);
	be64put(buf + 32, h->run);
}

int probe_decode(const uint8_t *buf, size_t len, struct probe_hdr *h)
{
	if (len < PROBE_HDR_LEN || be32get(buf) != PROBE_MAGIC || buf[4] != PROBE_VERSION ||
	    be16get(buf + 6) < PROBE_HDR_LEN || be16get(buf + 6) > len)
		return -1;
	h->flags = buf[5];
	h->seq = be64get(buf + 8);
	h->tx_ns = (int64_t)be64get(buf + 16);
	h->prev_tx_ns = (int64_t)be64get(buf + 24);
	h->run = be64get(buf + 32);
	return 0;
}

/* IP packet at p: UDP payload or 0. */
static int ip_udp(const uint8_t *p, size_t len, const uint8_t **pl, size_t *pllen)
{
	if (len < 1)
		return 0;
	size_t off;
	if ((p[0] >> 4) == 4) {
		if (len < 20)
			return 0;
		size_t ihl = (size_t)(p[0] & 15) * 4;
		uint16_t frag = be16get(p + 6);
		if (ihl < 20 || len < ihl || p[9] != 17 || (frag & 0x1fff) || (frag & 0x2000))
			return 0;       /* not UDP, or a fragment */
		off = ihl;
	} else if ((p[0] >> 4) == 6) {
		/* no extension-header walk: probes never carry them */
		if (len < 40 || p[6] != 17)
			return 0;
		off = 40;
	} else {
		return 0;
	}
	if (len < off + 8)
		return 0;
	size_t ulen = be16get(p + off + 4);
	size_t avail = len - off - 8;
	if (ulen < 8)
		return 0;
	*pl = p + off + 8;
	*pllen = ulen - 8 < avail ? ulen - 8 : avail;
	return 1;
}

static int ethertype_ip(uint16_t et)
{
	return et == 0x0800 || et == 0x86dd;
}

int udp_payload(uint32_t linktype, const uint8_t *p, size_t len,
		const uint8_t **pl, size_t *pllen)
{
	switch (linktype) {
	case 1: {               /* EN10MB, with up to two VLAN tags */
		size_t off = 12;
		for (int tags = 0; tags < 3; tags++) {
			if (len < off + 2)
				return 0;
			uint16_t et = be16get(p + off);
			if (et == 0x8100 || et == 0x88a8) {
				off += 4;
				continue;
			}
			return ethertype_ip(et) ? ip_udp(p + off + 2, len - off - 2, pl, pllen) : 0;
		}
		return 0;
	}
	case 101: case 12: case 14: case 228: case 229:        /* raw IP */
		return ip_udp(p, len, pl, pllen);
	case 113:               /* LINUX_SLL: protocol at 14, 16-byte header */
		if (len < 16 || !ethertype_ip(be16get(p + 14)))
			return 0;
		return ip_udp(p + 16, len - 16, pl, pllen);
	case 276:               /* LINUX_SLL2: protocol at 0, 20-byte header */
		if (len < 20 || !ethertype_ip(be16get(p)))
			return 0;
		return ip_udp(p + 20, len - 20, pl, pllen);
	case 0: case 108:       /* NULL/LOOP: 4-byte address family */
		if (len < 4)
			return 0;
		return ip_udp(p + 4, len - 4, pl, pllen);
	default:
		return -1;
	}
}

void probe_tracker_init(struct probe_tracker *t, probe_emit_fn emit, void *ctx)
{
	memset(t, 0, sizeof(*t));
	t->emit = emit;
	t->ctx = ctx;
}

static void slot_emit(struct probe_tracker *t, struct probe_slot *s)
{
	if (s->used && s->have_rx) {
		enum tx_kind k = TX_USER;
		int64_t tx = s->tx_user;
		if (s->have_precise) {
			tx = s->tx_precise;
			k = s->precise_hw ? TX_HW : TX_KERNEL_SW;
		}
		t->by_kind[k]++;
		t->emit(t->ctx, s->seq, s->rx_ns, tx, k);
	}
	s->used = 0;
}

/* The ring slot for seq, evicting (emitting) whatever older probe held it. */
static struct probe_slot *slot_for(struct probe_tracker *t, uint64_t seq)
{
	struct probe_slot *s = &t->ring[seq % PROBE_RING];
	if (s->used && s->seq != seq)
		slot_emit(t, s);
	if (!s->used) {
		memset(s, 0, sizeof(*s));
		s->used = 1;
		s->seq = seq;
	}
	return s;
}

static int mark_seen(struct probe_tracker *t, uint64_t seq)
{
	if (seq >= t->seen_bits) {
		uint64_t bits = t->seen_bits ? t->seen_bits : 1 << 16;
		while (bits <= seq)
			bits *= 2;
		uint8_t *m = realloc(t->seen, bits / 8);
		if (!m)
			return -1;
		memset(m + t->seen_bits / 8, 0, (bits - t->seen_bits) / 8);
		t->seen = m;
		t->seen_bits = bits;
	}
	int was = t->seen[seq / 8] >> (seq % 8) & 1;
	t->seen[seq / 8] |= (uint8_t)(1u << (seq % 8));
	return was;
}

int probe_tracker_add(struct probe_tracker *t, const struct probe_hdr *h, int64_t rx_ns)
{
	if (h->seq >= PROBE_MAX_SEQ)
		return -1;
	if (!t->have_run) {
		t->run = h->run;
		t->have_run = 1;
	} else if (h->run != t->run) {
		t->other_runs++;        /* a stray probe from another sender run */
		return 0;
	}
	/* the follow-up stamp belongs to seq-1, whether or not it came yet */
	if ((h->flags & PROBE_F_PREV_VALID) && h->seq > 0) {
		/* if seq-1 was already emitted this leaves a slot without rx: dropped */
		struct probe_slot *p = slot_for(t, h->seq - 1);
		p->tx_precise = h->prev_tx_ns;
		p->have_precise = 1;
		p->precise_hw = !!(h->flags & PROBE_F_PREV_HW);
		if (p->have_rx)
			slot_emit(t, p);
	}
	if (h->flags & PROBE_F_FOLLOWUP_ONLY)
		return 0;
	t->received++;
	int dup = mark_seen(t, h->seq);
	if (dup < 0)
		return -1;
	if (dup) {
		t->duplicates++;
		return 0;
	}
	t->unique++;
	if (t->any && h->seq < t->max_seq)
		t->reordered++;
	if (!t->any || h->seq > t->max_seq)
		t->max_seq = h->seq;
	t->any = 1;
	struct probe_slot *s = slot_for(t, h->seq);
	s->rx_ns = rx_ns;
	s->tx_user = h->tx_ns;
	s->have_rx = 1;
	if (s->have_precise)
		slot_emit(t, s);
	return 0;
}

void probe_tracker_flush(struct probe_tracker *t)
{
	for (size_t i = 0; i < PROBE_RING; i++)
		slot_emit(t, &t->ring[i]);
}

uint64_t probe_tracker_lost(const struct probe_tracker *t, uint64_t expect)
{
	uint64_t span = t->any ? t->max_seq + 1 : 0;
	if (expect > span)
		span = expect;
	return span - t->unique;
}

void probe_tracker_free(struct probe_tracker *t)
{
	free(t->seen);
	t->seen = NULL;
}
