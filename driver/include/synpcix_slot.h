/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X in-kernel slot API, for NIC drivers and msi_redirect.
 *
 * A slot is one MSI capture channel of a SynPCI-X card: a write to its
 * doorbell (a bus address in the card's BAR) latches the card's time, the
 * card then writes that time as a 64-bit stamp into every completed entry
 * of the slot's ring (a NIC descriptor ring in host memory) and raises the
 * card's interrupt for the slot. docs/driver.md, "Slot API", says how to
 * use it; in short:
 *
 *   slot = synpcix_slot_get(NULL, -1, "e1000 eth1", my_revoke, priv);
 *   synpcix_slot_doorbell(slot, &db, &data);   point the NIC's MSI there
 *   synpcix_slot_set_ring(slot, &ring);        ring as the CARD sees it
 *   synpcix_slot_enable(slot);
 *   ... RX: synpcix_slot_stamp(slot, raw, &t, NULL, NULL) per descriptor
 *       (the card's time), or synpcix_slot_stamp_rx(slot, raw, len, &chain,
 *       &t, NULL, NULL) for the frame's arrival time (stamp refinement)
 *   synpcix_slot_disable(slot); synpcix_slot_put(slot);
 *
 * Lifetime: a held slot pins nothing but itself. When the card goes away
 * (driver unbind, hot removal) synpcix calls revoke(slot, ctx) in process
 * context before it touches the slot; the holder stops using the slot
 * there (it may call synpcix_slot_put() from inside revoke). When revoke
 * returns, the card disables the slot and every later call on it fails
 * with -ENODEV except synpcix_slot_put(), which the holder still owes.
 * The holder's module links against synpcix, so synpcix.ko itself cannot
 * be unloaded while a holder module is loaded.
 *
 * Interrupts: the card raises its interrupt for a slot after it has
 * stamped; synpcix_slot_irq() is its Linux IRQ, shared (IRQF_SHARED) when
 * slots share a vector or the card uses INTx (synpcix itself acknowledges
 * INTx in its own handler, registered first). synpcix_slot_irq_check()
 * says whether the slot has new activity, for a shared handler.
 *
 * Context: everything may sleep except synpcix_slot_stamp(),
 * synpcix_slot_stamp_rx() and synpcix_slot_irq_check(), which are safe in
 * any context (NAPI, hard IRQ) and take no sleeping lock.
 */
#ifndef SYNPCIX_SLOT_API_H
#define SYNPCIX_SLOT_API_H

#include <linux/types.h>
#include <linux/ktime.h>

struct pci_dev;
struct synpcix_slot;

/* The ring the card stamps; addresses are bus addresses as the card sees them. */
struct synpcix_ring {
	u64 base;		/* entry 0, 4-aligned; no entry crosses 4 KiB */
	u32 count;		/* 1..65535 entries */
	u32 stride;		/* bytes per entry, multiple of 4, 8..1020 */
	u32 stamp_off;		/* 8-byte stamp field (8254x RX: 0) */
	u32 done_off;		/* done word (8254x RX: 12) */
	u32 done_mask;		/* done bit(s) (8254x RX: 1, DD) */
	u32 index;		/* first entry the card looks at */
	bool cause_en;		/* card reads the NIC's cause register */
	u64 cause_addr;		/* bus address of that register */
	u64 head_addr;		/* NIC's RX head register (8254x RDH), read after
				 * the cause for pairing by count; 0: not read.
				 * Needs cause_en and cause_addr's bits 63..32 */
};

/*
 * Stamp refinement state of one RX ring (docs/driver.md, "Stamp
 * refinement"): owned by the caller, used from its NAPI poll only, so no
 * lock. Initialise at ring start and on every link change with the link's
 * speed (0 = down/unknown: no wire-time bound) and whether the descriptor
 * length includes the FCS (8254x: yes unless RCTL.SECRC).
 */
struct synpcix_rx_chain {
	u64 prev_ns;
	u32 link_mbps;
	bool len_has_fcs;
	bool valid;
};

static inline void synpcix_rx_chain_init(struct synpcix_rx_chain *c,
					 u32 link_mbps, bool len_has_fcs)
{
	*c = (struct synpcix_rx_chain){ .link_mbps = link_mbps,
					.len_has_fcs = len_has_fcs };
}

typedef void (*synpcix_revoke_fn)(struct synpcix_slot *slot, void *ctx);

struct synpcix_slot *synpcix_slot_get(struct pci_dev *card, int nr,
				      const char *owner,
				      synpcix_revoke_fn revoke, void *ctx);
void synpcix_slot_put(struct synpcix_slot *slot);

unsigned int synpcix_slot_nr(struct synpcix_slot *slot);
struct pci_dev *synpcix_slot_card(struct synpcix_slot *slot);
int synpcix_slot_doorbell(struct synpcix_slot *slot, phys_addr_t *addr,
			  u32 *msi_data);
int synpcix_slot_set_ring(struct synpcix_slot *slot,
			  const struct synpcix_ring *ring);
int synpcix_slot_enable(struct synpcix_slot *slot);
int synpcix_slot_disable(struct synpcix_slot *slot);
int synpcix_slot_irq(struct synpcix_slot *slot);
int synpcix_slot_irq_check(struct synpcix_slot *slot, u32 *seen);
int synpcix_slot_irq_mask(struct synpcix_slot *slot, bool masked);
int synpcix_slot_cause_acc(struct synpcix_slot *slot, u32 *acc);
int synpcix_slot_phc_index(struct synpcix_slot *slot);
int synpcix_slot_stamp(struct synpcix_slot *slot, u64 raw, ktime_t *t,
		       u8 *seq, bool *batched);
int synpcix_slot_stamp_rx(struct synpcix_slot *slot, u64 raw, u32 len,
			  struct synpcix_rx_chain *chain, ktime_t *t,
			  u8 *seq, bool *batched);

#endif /* SYNPCIX_SLOT_API_H */
