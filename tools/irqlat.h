/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqlat: what the BPF program (irqlat.bpf.c) and the loader (irqlat.c)
 * share: the stages measured and the histogram layout.
 *
 * Histogram buckets are log-linear over |value| in ns: values below 16
 * have a bucket each, above that every power of two is split into 16
 * buckets (a bucket spans at most 1/16 of its value). Negative values
 * (an "earlier" event stamped later, as when veth stamps in netif_rx
 * before the softirq runs) go to a second half.
 */
#ifndef IRQLAT_H
#define IRQLAT_H

#define IRQLAT_SUB 16
#define IRQLAT_HALF (IRQLAT_SUB + 60 * IRQLAT_SUB)     /* covers |v| < 2^64 */
#define IRQLAT_NB (2 * IRQLAT_HALF)

enum irqlat_stage {
	ST_HW_SW,       /* hardware stamp -> kernel software stamp */
	ST_INT_SW,      /* interrupt entry -> kernel software stamp */
	ST_INT_STACK,   /* interrupt entry -> netif_receive_skb */
	ST_INT_DELIVER, /* interrupt entry -> copy to the socket's reader */
	ST_SW_DELIVER,  /* kernel software stamp -> copy to the reader */
	ST_N
};

struct irqlat_stat {
	unsigned long long count, negative;
	long long min, max;
};

#endif
