// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqlat BPF side (CO-RE): per received packet on one interface, the time
 * from the NIC's stamp or interrupt to the kernel's software stamp, to the
 * network stack and to delivery to the reading process, as in-kernel
 * histograms. BTF tracepoints (tp_btf) and one fentry (UDP delivery): no
 * kprobes needed, so it runs on kernels built without CONFIG_KPROBES.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "irqlat.h"

#define NET_RX_VEC 3            /* NET_RX_SOFTIRQ */

const volatile int target_ifindex;
const volatile unsigned int target_netns;       /* inode of the netns */
const volatile int target_irq = -1;             /* -1: use the NET_RX softirq */
const volatile long long mono_to_real;          /* CLOCK_REALTIME - ktime_get_ns() */

struct cpu_state {
	__u64 last_irq, last_softirq;
};

struct pkt {
	__s64 sw_real;          /* skb->tstamp, CLOCK_REALTIME */
	__u64 int_mono;         /* interrupt entry, 0 if none seen */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_state SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_N * IRQLAT_NB);
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, ST_N);
	__type(key, __u32);
	__type(value, struct irqlat_stat);
} stats SEC(".maps");

/* packets between the stack and the reader, by skb address */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct pkt);
} inflight SEC(".maps");

static __always_inline __u32 log2_u64(__u64 v)
{
	__u32 r = 0;
	if (v >> 32) { v >>= 32; r += 32; }
	if (v >> 16) { v >>= 16; r += 16; }
	if (v >> 8) { v >>= 8; r += 8; }
	if (v >> 4) { v >>= 4; r += 4; }
	if (v >> 2) { v >>= 2; r += 2; }
	if (v >> 1) r += 1;
	return r;
}

static __always_inline void record(__u32 stage, __s64 v)
{
	__u64 a = v < 0 ? (__u64)-v : (__u64)v;
	__u32 idx;
	if (a < IRQLAT_SUB) {
		idx = (__u32)a;
	} else {
		__u32 e = log2_u64(a);                  /* >= 4 */
		idx = IRQLAT_SUB + (e - 4) * IRQLAT_SUB + (__u32)((a >> (e - 4)) & (IRQLAT_SUB - 1));
	}
	if (idx >= IRQLAT_HALF)
		idx = IRQLAT_HALF - 1;
	if (v < 0)
		idx += IRQLAT_HALF;
	__u32 key = stage * IRQLAT_NB + idx;
	__u64 *c = bpf_map_lookup_elem(&hist, &key);
	if (c)
		*c += 1;
	struct irqlat_stat *s = bpf_map_lookup_elem(&stats, &stage);
	if (!s)
		return;
	if (s->count == 0 || v < s->min)
		s->min = v;
	if (s->count == 0 || v > s->max)
		s->max = v;
	s->count++;
	if (v < 0)
		s->negative++;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(on_irq, int irq, struct irqaction *action)
{
	__u32 z = 0;
	if (irq != target_irq)
		return 0;
	struct cpu_state *c = bpf_map_lookup_elem(&cpu_state, &z);
	if (c)
		c->last_irq = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(on_softirq, unsigned int vec)
{
	__u32 z = 0;
	if (vec != NET_RX_VEC)
		return 0;
	struct cpu_state *c = bpf_map_lookup_elem(&cpu_state, &z);
	if (c)
		c->last_softirq = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/netif_receive_skb")
int BPF_PROG(on_rx, struct sk_buff *skb)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 z = 0;
	struct net_device *dev = BPF_CORE_READ(skb, dev);
	if (!dev || BPF_CORE_READ(dev, ifindex) != target_ifindex ||
	    BPF_CORE_READ(dev, nd_net.net, ns.inum) != target_netns)
		return 0;
	struct pkt p = { .sw_real = BPF_CORE_READ(skb, tstamp) };
	struct cpu_state *c = bpf_map_lookup_elem(&cpu_state, &z);
	if (c)
		p.int_mono = target_irq >= 0 ? c->last_irq : c->last_softirq;
	/* skb_hwtstamps(): the shared info sits at head + end */
	unsigned char *head = BPF_CORE_READ(skb, head);
	__u32 end = BPF_CORE_READ(skb, end);
	struct skb_shared_info *sh = (struct skb_shared_info *)(head + end);
	__s64 hw = 0;
	bpf_core_read(&hw, sizeof(hw), &sh->hwtstamps.hwtstamp);
	if (hw && p.sw_real)
		record(ST_HW_SW, p.sw_real - hw);
	if (p.int_mono) {
		if (p.sw_real)
			record(ST_INT_SW, p.sw_real - (__s64)(p.int_mono + mono_to_real));
		record(ST_INT_STACK, (__s64)(now - p.int_mono));
	}
	__u64 key = (__u64)skb;
	bpf_map_update_elem(&inflight, &key, &p, BPF_ANY);
	return 0;
}

/*
 * Delivery: the copy to the reader (skb_copy_datagram_iovec) where the
 * protocol uses the generic copy; UDP copies linear skbs directly, and
 * then the skb's release after recvmsg (consume_skb) is the first sign.
 * Whichever comes first counts; the entry is gone after it.
 */
static __always_inline int delivered(const struct sk_buff *skb)
{
	__u64 now = bpf_ktime_get_ns();
	__u64 key = (__u64)skb;
	struct pkt *p = bpf_map_lookup_elem(&inflight, &key);
	if (!p)
		return 0;
	/* the same address reused by another skb would carry another stamp */
	if (p->sw_real != BPF_CORE_READ(skb, tstamp)) {
		bpf_map_delete_elem(&inflight, &key);
		return 0;
	}
	if (p->int_mono)
		record(ST_INT_DELIVER, (__s64)(now - p->int_mono));
	if (p->sw_real)
		record(ST_SW_DELIVER, (__s64)(now + mono_to_real) - p->sw_real);
	bpf_map_delete_elem(&inflight, &key);
	return 0;
}

SEC("tp_btf/skb_copy_datagram_iovec")
int BPF_PROG(on_copy, const struct sk_buff *skb, int len)
{
	return delivered(skb);
}

SEC("tp_btf/consume_skb")
int BPF_PROG(on_consume, struct sk_buff *skb)
{
	return delivered(skb);
}

/*
 * UDP: udp_recvmsg() (IPv4 and IPv6) hands every datagram it delivers to
 * skb_consume_udp() after the copy, and frees it there without passing the
 * consume_skb tracepoint when it was the last reference. fentry on it sees
 * every UDP datagram a reader takes; the loader leaves it out on kernels
 * whose BTF lacks the function.
 */
SEC("fentry/skb_consume_udp")
int BPF_PROG(on_udp_consume, struct sock *sk, struct sk_buff *skb, int len)
{
	return delivered(skb);
}

char LICENSE[] SEC("license") = "GPL";
