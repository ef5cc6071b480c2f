// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X RX hardware stamps for Linux's e1000 (docs/e1000.md).
 *
 * The e1000 itself cannot stamp. With stamping on, its MSI is pointed at a
 * doorbell of a SynPCI-X card slot (msi_redirect_slot()); the card latches
 * its time when the MSI arrives, writes that time over the buffer address
 * of each completed RX descriptor (legacy 16-byte descriptors: stamp field
 * at offset 0, DD = bit 0 of the word at 12), then interrupts, and
 * msi_redirect runs the e1000's own handler for that interrupt. clean_rx
 * reads the stamp from the descriptor before the descriptor is refilled
 * (the refill writes the buffer address anew from buffer_info anyway).
 *
 * synpcix.ko and msi_redirect.ko are looked up with symbol_get() when the
 * user turns stamping on, so this e1000.ko loads and runs without them and
 * without a card, exactly as the stock driver (adapter->spx stays NULL).
 *
 * Locking: on/off and the ring/IRQ hooks run under rtnl (ioctl, open,
 * close) or from the e1000's own reset paths, which the stock driver
 * already serialises against open/close. clean_rx (NAPI) reads `active`
 * and the slot pointer; whoever clears `active` waits for NAPI with
 * synchronize_net() before the slot goes.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/net_tstamp.h>
#include <linux/ethtool.h>
#include <linux/rtnetlink.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <linux/pci.h>
#include <linux/err.h>

#include "e1000.h"
#include "synpcix_slot.h"
#include "msi_redirect.h"

/*
 * A descriptor with DD but no stamp is held (clean_rx stops before it) for
 * at most this long; the card normally stamps within microseconds of the
 * NIC's MSI (docs/stamping.md). Under QEMU the card runs clock-scale times
 * slower than virtual time (1000: a few ms), hence the margin. After it,
 * stamping is stopped until the next ring re-initialisation.
 */
#define SPX_HOLD_MS 500

/* synpcix.ko and msi_redirect.ko functions, resolved by symbol_get() */
struct spx_ops {
	typeof(&synpcix_slot_get) get;
	typeof(&synpcix_slot_put) put;
	typeof(&synpcix_slot_set_ring) set_ring;
	typeof(&synpcix_slot_enable) enable;
	typeof(&synpcix_slot_disable) disable;
	typeof(&synpcix_slot_stamp_rx) stamp;
	typeof(&synpcix_slot_phc_index) phc_index;
	typeof(&synpcix_slot_nr) nr;
	typeof(&synpcix_slot_cause_acc) cause_acc;
	typeof(&synpcix_slot_irq_mask) irq_mask;
	typeof(&msi_redirect_slot) redirect;
	typeof(&msi_redirect_release) release;
};

enum {
	SPX_ST_STAMPED,		/* frames delivered with a card stamp */
	SPX_ST_BATCHED,		/* ... of which flagged batched by the card */
	SPX_ST_HELD,		/* polls that stopped at a DD descriptor without stamp */
	SPX_ST_UNSTAMPED,	/* frames delivered without stamp while stamping was on */
	SPX_ST_SEQ_GAP,		/* stamp sequence jumps (a stamp lost: must stay 0) */
	SPX_ST_STALLS,		/* holds that timed out (stamping stopped) */
	SPX_ST_REDIRECT_FAIL,	/* MSI could not be pointed at the card */
	SPX_ST_IRQ_HOLDS,	/* interrupts that held back the card's, not IMC */
	SPX_ST_IRQ_RELEASES,	/* ... and the NAPI ends that let it go again */
	SPX_ST_N
};

static const char spx_st_names[SPX_ST_N][ETH_GSTRING_LEN] = {
	"synpcix_rx_stamped",
	"synpcix_rx_batched",
	"synpcix_rx_held",
	"synpcix_rx_unstamped",
	"synpcix_rx_seq_gap",
	"synpcix_stalls",
	"synpcix_redirect_fail",
	"synpcix_irq_holds",
	"synpcix_irq_releases",
};

struct e1000_synpcix {
	struct e1000_adapter *adapter;
	struct spx_ops ops;
	bool have_ops;
	struct synpcix_slot *slot;	/* held while stamping is wanted */
	struct msir *redirect;		/* the e1000's MSI at the slot */
	struct hwtstamp_config cfg;	/* what SIOCGHWTSTAMP answers */
	bool msi;			/* we enabled the e1000's MSI */
	bool programmed;		/* slot ring set and enabled */
	bool stalled;			/* hold timed out: off until re-init */
	bool active;			/* clean_rx waits for stamps (NAPI reads) */
	bool irq_held;			/* e1000_intr held the card's interrupt */
	/* NAPI only */
	struct e1000_rx_desc *hold_desc;
	unsigned long hold_since;
	struct synpcix_rx_chain chain;	/* stamp refinement state of the ring */
	u8 last_seq;
	bool seq_valid;
	struct delayed_work stall_work;
	u64 st[SPX_ST_N];
};

/* ------------------------------------------------------------------ */
/* module lookups                                                       */
/* ------------------------------------------------------------------ */

static void spx_ops_put(struct spx_ops *o)
{
	if (o->get)
		symbol_put(synpcix_slot_get);
	if (o->put)
		symbol_put(synpcix_slot_put);
	if (o->set_ring)
		symbol_put(synpcix_slot_set_ring);
	if (o->enable)
		symbol_put(synpcix_slot_enable);
	if (o->disable)
		symbol_put(synpcix_slot_disable);
	if (o->stamp)
		symbol_put(synpcix_slot_stamp_rx);
	if (o->phc_index)
		symbol_put(synpcix_slot_phc_index);
	if (o->nr)
		symbol_put(synpcix_slot_nr);
	if (o->cause_acc)
		symbol_put(synpcix_slot_cause_acc);
	if (o->irq_mask)
		symbol_put(synpcix_slot_irq_mask);
	if (o->redirect)
		symbol_put(msi_redirect_slot);
	if (o->release)
		symbol_put(msi_redirect_release);
	memset(o, 0, sizeof(*o));
}

/* -ENODEV: synpcix.ko not loaded; -ENOENT: msi_redirect.ko not loaded */
static int spx_ops_get(struct spx_ops *o, bool need_redirect)
{
	o->get = symbol_get(synpcix_slot_get);
	o->put = symbol_get(synpcix_slot_put);
	o->set_ring = symbol_get(synpcix_slot_set_ring);
	o->enable = symbol_get(synpcix_slot_enable);
	o->disable = symbol_get(synpcix_slot_disable);
	o->stamp = symbol_get(synpcix_slot_stamp_rx);
	o->phc_index = symbol_get(synpcix_slot_phc_index);
	o->nr = symbol_get(synpcix_slot_nr);
	o->cause_acc = symbol_get(synpcix_slot_cause_acc);
	o->irq_mask = symbol_get(synpcix_slot_irq_mask);
	if (!o->get || !o->put || !o->set_ring || !o->enable || !o->disable ||
	    !o->stamp || !o->phc_index || !o->nr || !o->cause_acc ||
	    !o->irq_mask) {
		spx_ops_put(o);
		return -ENODEV;
	}
	if (!need_redirect)
		return 0;
	o->redirect = symbol_get(msi_redirect_slot);
	o->release = symbol_get(msi_redirect_release);
	if (!o->redirect || !o->release) {
		spx_ops_put(o);
		return -ENOENT;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* slot: take, give back, revoke                                        */
/* ------------------------------------------------------------------ */

static void spx_revoke(struct synpcix_slot *slot, void *ctx);
static void spx_stall_fn(struct work_struct *work);

static struct e1000_synpcix *spx_state(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (s)
		return s;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	s->adapter = adapter;
	s->cfg.tx_type = HWTSTAMP_TX_OFF;
	s->cfg.rx_filter = HWTSTAMP_FILTER_NONE;
	INIT_DELAYED_WORK(&s->stall_work, spx_stall_fn);
	adapter->spx = s;
	return s;
}

static int spx_take(struct e1000_synpcix *s)
{
	struct net_device *netdev = s->adapter->netdev;
	struct synpcix_slot *slot;
	char owner[IFNAMSIZ + 8];
	int err;

	err = spx_ops_get(&s->ops, true);
	if (err == -ENODEV) {
		netdev_warn(netdev, "RX stamping needs a SynPCI-X card: synpcix.ko is not loaded\n");
		return -EOPNOTSUPP;
	}
	if (err) {
		netdev_warn(netdev, "RX stamping needs msi_redirect.ko (load it first)\n");
		return -EOPNOTSUPP;
	}
	snprintf(owner, sizeof(owner), "e1000 %s", netdev->name);
	slot = s->ops.get(NULL, -1, owner, spx_revoke, s);
	if (IS_ERR(slot)) {
		err = PTR_ERR(slot);
		netdev_warn(netdev, "no SynPCI-X card slot for RX stamping (%d)\n", err);
		spx_ops_put(&s->ops);
		return err == -EBUSY ? -EBUSY : -EOPNOTSUPP;
	}
	s->slot = slot;
	s->have_ops = true;
	s->stalled = false;
	s->seq_valid = false;
	netdev_info(netdev, "RX stamping on: SynPCI-X slot %u, PHC %d\n",
		    s->ops.nr(slot), s->ops.phc_index(slot));
	return 0;
}

/* The interface is closed (no IRQ, no ring): give the slot back. */
static void spx_give_back(struct e1000_synpcix *s)
{
	if (!s->have_ops)
		return;
	cancel_delayed_work_sync(&s->stall_work);
	s->ops.put(s->slot);
	s->slot = NULL;
	spx_ops_put(&s->ops);
	s->have_ops = false;
}

/*
 * Open again what spx_hwtstamp_set closed, so that IRQ (INTx or MSI) and
 * ring follow the new setting.
 */
static int spx_reopen(struct net_device *netdev, bool running)
{
	return running ? e1000_open(netdev) : 0;
}

/*
 * The card goes away (process context, no synpcix lock held): back to the
 * stock driver. The slot is still usable in here (docs/driver.md), so the
 * close below disables it and releases the redirect the normal way.
 */
static void spx_revoke(struct synpcix_slot *slot, void *ctx)
{
	struct e1000_synpcix *s = ctx;
	struct net_device *netdev = s->adapter->netdev;
	bool running;

	rtnl_lock();
	running = netif_running(netdev);
	netdev_warn(netdev, "SynPCI-X card going away: RX stamping off\n");
	if (running)
		e1000_close(netdev);
	s->cfg.rx_filter = HWTSTAMP_FILTER_NONE;
	spx_give_back(s);
	if (running && e1000_open(netdev))
		netdev_err(netdev, "reopen without RX stamping failed\n");
	rtnl_unlock();
}

/* ------------------------------------------------------------------ */
/* SIOCSHWTSTAMP / SIOCGHWTSTAMP                                       */
/* ------------------------------------------------------------------ */

static int spx_hwtstamp_set(struct net_device *netdev, struct ifreq *ifr)
{
	struct e1000_adapter *adapter = netdev_priv(netdev);
	struct hwtstamp_config cfg;
	struct e1000_synpcix *s;
	bool want, running;
	int err;

	if (copy_from_user(&cfg, ifr->ifr_data, sizeof(cfg)))
		return -EFAULT;
	if (cfg.flags)
		return -EINVAL;
	/*
	 * TX stamps: not yet (BRIEF 2.4). libpcap asks for TX_ON together
	 * with RX ALL (tcpdump -j adapter_unsynced) and would give up RX
	 * stamps on ERANGE, so TX_ON is taken as "no TX stamps" and the
	 * answer says so (tx_type OFF); other TX modes are refused.
	 */
	if (cfg.tx_type == HWTSTAMP_TX_ON)
		cfg.tx_type = HWTSTAMP_TX_OFF;
	if (cfg.tx_type != HWTSTAMP_TX_OFF)
		return -ERANGE;
	switch (cfg.rx_filter) {
	case HWTSTAMP_FILTER_NONE:
		want = false;
		break;
	case HWTSTAMP_FILTER_NTP_ALL:
		return -ERANGE;
	default:
		/* the card stamps every frame: ALL covers every other filter */
		want = true;
		cfg.rx_filter = HWTSTAMP_FILTER_ALL;
		break;
	}
	if (!want && !adapter->spx)
		return copy_to_user(ifr->ifr_data, &cfg, sizeof(cfg)) ? -EFAULT : 0;
	s = spx_state(adapter);
	if (!s)
		return -ENOMEM;
	running = netif_running(netdev);
	if (want && !s->have_ops) {
		err = spx_take(s);
		if (err)
			return err;
		if (running)
			e1000_close(netdev);
		s->cfg = cfg;
		err = spx_reopen(netdev, running);
	} else if (!want && s->have_ops) {
		if (running)
			e1000_close(netdev);
		s->cfg = cfg;
		spx_give_back(s);
		netdev_info(netdev, "RX stamping off\n");
		err = spx_reopen(netdev, running);
	} else {
		s->cfg = cfg;
		err = 0;
	}
	if (err)
		return err;
	return copy_to_user(ifr->ifr_data, &cfg, sizeof(cfg)) ? -EFAULT : 0;
}

int e1000_synpcix_ioctl(struct net_device *netdev, struct ifreq *ifr, int cmd)
{
	struct e1000_adapter *adapter = netdev_priv(netdev);
	struct hwtstamp_config cfg = {
		.tx_type = HWTSTAMP_TX_OFF,
		.rx_filter = HWTSTAMP_FILTER_NONE,
	};

	if (cmd == SIOCSHWTSTAMP)
		return spx_hwtstamp_set(netdev, ifr);
	if (adapter->spx)
		cfg = adapter->spx->cfg;
	return copy_to_user(ifr->ifr_data, &cfg, sizeof(cfg)) ? -EFAULT : 0;
}

/* ------------------------------------------------------------------ */
/* ethtool                                                              */
/* ------------------------------------------------------------------ */

/*
 * With a card: its PHC and hardware RX stamps of every frame. Without
 * one (or without synpcix.ko): the stock answer. While stamping is off the
 * card is asked through a slot taken for the question and given back.
 */
/* A slot taken only for the question above needs no revoke work. */
static void spx_revoke_nothing(struct synpcix_slot *slot, void *ctx)
{
}

int e1000_synpcix_get_ts_info(struct net_device *netdev,
			      struct ethtool_ts_info *info)
{
	struct e1000_adapter *adapter = netdev_priv(netdev);
	struct e1000_synpcix *s = adapter->spx;
	struct synpcix_slot *slot;
	struct spx_ops o = {};
	int phc;

	if (s && s->have_ops) {
		phc = s->ops.phc_index(s->slot);
	} else {
		if (spx_ops_get(&o, false))
			return ethtool_op_get_ts_info(netdev, info);
		slot = o.get(NULL, -1, "e1000 ethtool -T", spx_revoke_nothing, NULL);
		phc = IS_ERR(slot) ? -1 : o.phc_index(slot);
		o.put(slot);
		spx_ops_put(&o);
		if (phc < 0)
			return ethtool_op_get_ts_info(netdev, info);
	}
	ethtool_op_get_ts_info(netdev, info);
	info->so_timestamping |= SOF_TIMESTAMPING_RX_HARDWARE |
				 SOF_TIMESTAMPING_RAW_HARDWARE;
	info->phc_index = phc;
	info->tx_types = BIT(HWTSTAMP_TX_OFF);
	info->rx_filters = BIT(HWTSTAMP_FILTER_NONE) | BIT(HWTSTAMP_FILTER_ALL);
	return 0;
}

int e1000_synpcix_stats_count(struct e1000_adapter *adapter)
{
	return adapter->spx ? SPX_ST_N : 0;
}

void e1000_synpcix_stats_strings(struct e1000_adapter *adapter, u8 *data)
{
	if (adapter->spx)
		memcpy(data, spx_st_names, sizeof(spx_st_names));
}

void e1000_synpcix_stats(struct e1000_adapter *adapter, u64 *data)
{
	struct e1000_synpcix *s = adapter->spx;
	int i;

	if (!s)
		return;
	for (i = 0; i < SPX_ST_N; i++)
		data[i] = READ_ONCE(s->st[i]);
}

/* ------------------------------------------------------------------ */
/* ring                                                                 */
/* ------------------------------------------------------------------ */

/*
 * End of e1000_configure: the RX ring is set up and filled, the receiver
 * on, next_to_clean is where the driver starts. The card looks from there.
 */
void e1000_synpcix_configure(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;
	struct e1000_rx_ring *ring = &adapter->rx_ring[0];
	struct synpcix_ring r = {
		.stride = sizeof(struct e1000_rx_desc),
		.stamp_off = offsetof(struct e1000_rx_desc, buffer_addr),
		.done_off = offsetof(struct e1000_rx_desc, status) & ~3u,
		.done_mask = E1000_RXD_STAT_DD <<
			     (8 * (offsetof(struct e1000_rx_desc, status) & 3)),
		/*
		 * The card reads ICR right after each latch (read-to-clear),
		 * so an RX frame that completes after that raises a new MSI
		 * at once instead of waiting, unannounced, for the ISR's own
		 * ICR read (docs/e1000.md); e1000_synpcix_icr() hands the bits
		 * the card took to the ISR. Then the RX head, for pairing by
		 * count (docs/stamping.md 5).
		 */
		.cause_en = true,
	};
	struct e1000_hw *hw = &adapter->hw;
	u64 bar0 = pci_bus_address(adapter->pdev, 0);
	int err;

	if (!s || !s->have_ops)
		return;
	s->stalled = false;
	s->seq_valid = false;
	s->hold_desc = NULL;
	/* 8254x descriptor lengths include the FCS unless the MAC strips it */
	synpcix_rx_chain_init(&s->chain, adapter->link_speed,
			      !(er32(RCTL) & E1000_RCTL_SECRC));
	r.base = ring->dma;
	r.count = ring->count;
	r.index = ring->next_to_clean;
	/*
	 * Both in BAR0, which is naturally aligned to its 128 KiB: they share
	 * the high address word the slot keeps for the pair.
	 */
	r.cause_addr = bar0 + E1000_ICR;
	r.head_addr = bar0 + ring->rdh;
	err = s->ops.set_ring(s->slot, &r);
	if (!err)
		err = s->ops.enable(s->slot);
	if (err) {
		netdev_warn(adapter->netdev, "SynPCI-X slot refused the RX ring (%d): no RX stamps\n",
			    err);
		return;
	}
	s->programmed = true;
	/* after a reset (down/up) the MSI is still redirected */
	WRITE_ONCE(s->active, s->redirect != NULL);
}

/*
 * e1000_down: receiver off and NAPI stopped; the rings are cleaned after
 * this, without stamps. The card lets go of the ring first.
 */
void e1000_synpcix_down(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (!s || !s->have_ops)
		return;
	WRITE_ONCE(s->active, false);
	cancel_delayed_work_sync(&s->stall_work);
	if (s->programmed)
		s->ops.disable(s->slot);
	s->programmed = false;
}

/* ------------------------------------------------------------------ */
/* interrupt                                                            */
/* ------------------------------------------------------------------ */

/* Before request_irq: MSI on when the ring is the card's (not shared). */
int e1000_synpcix_irq_flags(struct e1000_adapter *adapter, int flags)
{
	struct e1000_synpcix *s = adapter->spx;
	int err;

	if (!s || !s->programmed)
		return flags;
	err = pci_enable_msi(adapter->pdev);
	if (err) {
		/* no doorbell will come: the card lets go of the ring */
		netdev_warn(adapter->netdev, "no MSI (%d): no RX stamps\n", err);
		s->ops.disable(s->slot);
		s->programmed = false;
		return flags;
	}
	s->msi = true;
	return 0;
}

/* The card's interrupt for the slot unmasked; a hold it ends is counted. */
static void spx_irq_unhold(struct e1000_synpcix *s)
{
	s->ops.irq_mask(s->slot, false);
	if (READ_ONCE(s->irq_held)) {
		WRITE_ONCE(s->irq_held, false);
		s->st[SPX_ST_IRQ_RELEASES]++;
	}
}

/* After request_irq: point the MSI at the slot's doorbell. */
void e1000_synpcix_irq_attach(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;
	struct msir *r;

	if (!s || !s->msi || !s->programmed)
		return;
	/* a close during NAPI may have left it held back (e1000_synpcix_irq_hold) */
	spx_irq_unhold(s);
	r = s->ops.redirect(adapter->pdev, 0, s->slot);
	if (IS_ERR(r)) {
		/* the MSI reaches the CPU unchanged: stock behaviour */
		netdev_warn(adapter->netdev, "MSI not redirected to the card (%ld): no RX stamps\n",
			    PTR_ERR(r));
		s->st[SPX_ST_REDIRECT_FAIL]++;
		s->ops.disable(s->slot);
		s->programmed = false;
		return;
	}
	s->redirect = r;
	WRITE_ONCE(s->active, true);
}

/* Before free_irq (NAPI is disabled by then). */
void e1000_synpcix_irq_detach(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (!s || !s->redirect)
		return;
	WRITE_ONCE(s->active, false);
	synchronize_net();
	s->ops.release(s->redirect);
	s->redirect = NULL;
	/* not left held back for the slot's next user */
	spx_irq_unhold(s);
}

/* After free_irq, or after a request_irq that failed. */
void e1000_synpcix_irq_freed(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (!s || !s->msi)
		return;
	pci_disable_msi(adapter->pdev);
	s->msi = false;
}

/*
 * e1000_intr, instead of masking the e1000 (IMC) for the NAPI poll: while
 * its MSI goes to the card, hold back the card's interrupt instead. The
 * e1000 keeps sending an MSI for every frame that completes during the
 * poll (the card clears ICR after each one), so each frame is latched when
 * it completes, not when the poll ends and unmasks a pending cause; the
 * card interrupt a pass makes meanwhile waits for the unmask
 * (e1000_synpcix_irq_release). false: not stamping, mask the e1000.
 */
bool e1000_synpcix_irq_hold(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (!s || !READ_ONCE(s->redirect) || s->ops.irq_mask(s->slot, true))
		return false;
	WRITE_ONCE(s->irq_held, true);
	s->st[SPX_ST_IRQ_HOLDS]++;
	return true;
}

/*
 * e1000_irq_enable (the NAPI poll is done, or the interface comes up): the
 * card's interrupt again. Unmasked whether or not this driver held it (a
 * previous user of the slot may have left it masked); counted when it did.
 */
void e1000_synpcix_irq_release(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (s && READ_ONCE(s->redirect))
		spx_irq_unhold(s);
}

/*
 * e1000_intr, after its own ICR read: the cause bits the card read (and so
 * cleared in the NIC) since the last interrupt, while the e1000's MSI goes
 * to the card. Hard IRQ; the slot is held until after free_irq.
 */
u32 e1000_synpcix_icr(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;
	u32 acc;

	if (!s || !READ_ONCE(s->redirect) || s->ops.cause_acc(s->slot, &acc))
		return 0;
	return acc;
}

void e1000_synpcix_remove(struct e1000_adapter *adapter)
{
	struct e1000_synpcix *s = adapter->spx;

	if (!s)
		return;
	/* unregister_netdev closed the interface: no IRQ, no ring */
	spx_give_back(s);
	adapter->spx = NULL;
	kfree(s);
}

/* ------------------------------------------------------------------ */
/* RX                                                                   */
/* ------------------------------------------------------------------ */

/*
 * A held descriptor was not stamped in SPX_HOLD_MS: take the ring back
 * from the card (disable waits until it is idle, so it never writes into
 * a descriptor after this), deliver the rest unstamped, count it.
 */
static void spx_stall_fn(struct work_struct *work)
{
	struct e1000_synpcix *s = container_of(to_delayed_work(work),
					       struct e1000_synpcix, stall_work);
	struct e1000_adapter *adapter = s->adapter;

	if (!READ_ONCE(s->active) || !READ_ONCE(s->hold_desc))
		return;
	if (time_before(jiffies, READ_ONCE(s->hold_since) +
			msecs_to_jiffies(SPX_HOLD_MS))) {
		schedule_delayed_work(&s->stall_work, msecs_to_jiffies(SPX_HOLD_MS));
		return;
	}
	s->ops.disable(s->slot);
	s->stalled = true;
	WRITE_ONCE(s->active, false);
	s->st[SPX_ST_STALLS]++;
	netdev_warn(adapter->netdev, "SynPCI-X card did not stamp an RX descriptor in %d ms: RX stamps off until the ring is set up again\n",
		    SPX_HOLD_MS);
	/* deliver the held frames now (softirq runs at local_bh_enable) */
	local_bh_disable();
	napi_schedule(&adapter->napi);
	local_bh_enable();
}

/*
 * Once per descriptor consumed (e1000_synpcix.h): a descriptor passed here
 * and then left for the next poll by the budget check would be taken
 * twice, a sequence gap (session 10's TCP e2e found exactly that).
 */
bool e1000_synpcix_rx_desc(struct e1000_adapter *adapter,
			   struct e1000_rx_desc *desc, ktime_t *ts)
{
	struct e1000_synpcix *s = adapter->spx;
	bool batched;
	ktime_t t;
	u64 raw;
	int err;
	u8 seq;

	*ts = 0;
	if (!s || !READ_ONCE(s->active)) {
		if (s && s->have_ops)
			s->st[SPX_ST_UNSTAMPED]++;
		return true;
	}
	dma_rmb();	/* DD seen: the stamp was written before the card's MSI */
	raw = le64_to_cpu(READ_ONCE(desc->buffer_addr));
	/* the link's speed bounds batched stamps (0 while down: no bound) */
	s->chain.link_mbps = READ_ONCE(adapter->link_speed);
	err = s->ops.stamp(s->slot, raw, le16_to_cpu(desc->length), &s->chain,
			   &t, &seq, &batched);
	if (err == -ENODATA) {
		/* DD, but no stamp yet: hold it; the card's interrupt comes */
		if (s->hold_desc != desc) {
			s->hold_desc = desc;
			WRITE_ONCE(s->hold_since, jiffies);
			s->st[SPX_ST_HELD]++;
			schedule_delayed_work(&s->stall_work,
					      msecs_to_jiffies(SPX_HOLD_MS));
		}
		return false;
	}
	WRITE_ONCE(s->hold_desc, NULL);
	if (err) {
		/* card gone (revoke follows): deliver, unstamped */
		s->st[SPX_ST_UNSTAMPED]++;
		return true;
	}
	if (s->seq_valid && seq != (u8)(s->last_seq + 1))
		s->st[SPX_ST_SEQ_GAP]++;
	s->last_seq = seq;
	s->seq_valid = true;
	s->st[SPX_ST_STAMPED]++;
	if (batched)
		s->st[SPX_ST_BATCHED]++;
	*ts = t;
	return true;
}

void e1000_synpcix_rx_skb(struct sk_buff *skb, ktime_t ts)
{
	if (ts)
		skb_hwtstamps(skb)->hwtstamp = ts;
}
