/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SynPCI-X RX hardware stamps for the e1000 driver: the hooks the patch
 * series (driver/e1000/patches/) adds to Linux's e1000 call these, and
 * nothing else. docs/e1000.md describes the design.
 *
 * Without a card, or with stamping off, every hook leaves the driver's
 * behaviour exactly as it was: adapter->spx is NULL until the first
 * SIOCSHWTSTAMP, and the fast-path hooks return at once while stamping is
 * not active.
 */
#ifndef E1000_SYNPCIX_H
#define E1000_SYNPCIX_H

#include <linux/types.h>
#include <linux/ktime.h>

struct e1000_adapter;
struct e1000_rx_desc;
struct net_device;
struct ifreq;
struct sk_buff;
struct ethtool_ts_info;

/* ndo_eth_ioctl: SIOCSHWTSTAMP / SIOCGHWTSTAMP (rtnl held) */
int e1000_synpcix_ioctl(struct net_device *netdev, struct ifreq *ifr, int cmd);

/* ethtool: -T, and the counters of -S */
int e1000_synpcix_get_ts_info(struct net_device *netdev,
			      struct ethtool_ts_info *info);
int e1000_synpcix_stats_count(struct e1000_adapter *adapter);
void e1000_synpcix_stats_strings(struct e1000_adapter *adapter, u8 *data);
void e1000_synpcix_stats(struct e1000_adapter *adapter, u64 *data);

/* ring life: end of e1000_configure (rings filled), e1000_down (RX off) */
void e1000_synpcix_configure(struct e1000_adapter *adapter);
void e1000_synpcix_down(struct e1000_adapter *adapter);

/* interrupt: around request_irq/free_irq of e1000_request_irq/free_irq */
int e1000_synpcix_irq_flags(struct e1000_adapter *adapter, int flags);
void e1000_synpcix_irq_attach(struct e1000_adapter *adapter);
void e1000_synpcix_irq_detach(struct e1000_adapter *adapter);
void e1000_synpcix_irq_freed(struct e1000_adapter *adapter);
u32 e1000_synpcix_icr(struct e1000_adapter *adapter);
bool e1000_synpcix_irq_hold(struct e1000_adapter *adapter);
void e1000_synpcix_irq_release(struct e1000_adapter *adapter);

/* e1000_remove, after unregister_netdev */
void e1000_synpcix_remove(struct e1000_adapter *adapter);

/*
 * RX, per descriptor with DD set, after the NAPI budget check and before
 * it is counted as work (it takes the stamp's sequence): false =
 * stop here, the card has not stamped it yet (it is held for a later
 * poll). *ts gets the stamp (0: none). e1000_synpcix_rx_skb puts it into
 * the skb that carries the frame.
 */
bool e1000_synpcix_rx_desc(struct e1000_adapter *adapter,
			   struct e1000_rx_desc *desc, ktime_t *ts);
void e1000_synpcix_rx_skb(struct sk_buff *skb, ktime_t ts);

#endif /* E1000_SYNPCIX_H */
