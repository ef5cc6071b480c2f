// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X PTP hardware clock: /dev/ptpN on the card's timebase.
 *
 * EXTTS channel 0 is the GPS PPS input (its stamps come from the PPS block,
 * which must be in REPORT or SERVO mode; enabling the channel switches an
 * OFF block to REPORT and sets the on-time edge, refused with EBUSY while
 * the card's servo runs on the other edge), channels 1..n are the event
 * inputs (event FIFO).
 * PEROUT 0 is the PPS output. Inputs are polled from the PTP aux worker
 * every SYNPCIX_POLL_MS while a channel is on. On a card whose event block
 * is 1.1 or later the event stamps arrive by DMA in a ring in host memory
 * (synpcix_evring_setup): the worker reads them from memory, one register
 * write per poll hands the taken entries back; older cards (or a ring that
 * could not be set up, or one the card stopped after a DMA error) are read
 * through the event FIFO registers as before.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/ptp_clock_kernel.h>
#include <linux/version.h>
#include <linux/dma-mapping.h>

#include "synpcix.h"

/* 10 ms: 100 PPS-input polls per second; the event FIFO (features.fifo_log2
 * entries) must not fill faster than that. Measured FIFO loss is counted.
 */
#define SYNPCIX_POLL_MS 10

/*
 * Reference time for the 48-bit slot stamps (synpcix_slot_stamp): refreshed
 * this often while a slot is held, so it is never more than about a second
 * (plus worker latency) old; stamps decode right within 2^47 ns (39 h) of it.
 */
#define SYNPCIX_REF_MS 1000

#define SYNPCIX_EXTTS_FLAGS (PTP_ENABLE_FEATURE | PTP_RISING_EDGE | \
			     PTP_FALLING_EDGE | PTP_STRICT_FLAGS)
#define SYNPCIX_PEROUT_FLAGS PTP_PEROUT_DUTY_CYCLE

static struct synpcix *info_to_sp(struct ptp_clock_info *info)
{
	return container_of(info, struct synpcix, ptp_info);
}

static int synpcix_gettimex64(struct ptp_clock_info *info, struct timespec64 *ts,
			      struct ptp_system_timestamp *sts)
{
	struct synpcix *sp = info_to_sp(info);
	u64 ns;
	int err;

	err = spx_read_time(&sp->hw, &ns, NULL, sts);
	if (err)
		return err;
	*ts = ns_to_timespec64((s64)min_t(u64, ns, KTIME_MAX));
	return 0;
}

static int synpcix_settime64(struct ptp_clock_info *info,
			     const struct timespec64 *ts)
{
	struct synpcix *sp = info_to_sp(info);
	int err;

	if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC)
		return -EINVAL;
	err = spx_set_time(&sp->hw, timespec64_to_ns(ts));
	/* a step moves the stamps' time base: follow it at once */
	synpcix_refresh_ref(sp);
	return err;
}

static int synpcix_adjtime(struct ptp_clock_info *info, s64 delta)
{
	struct synpcix *sp = info_to_sp(info);
	int err = spx_adj_time(&sp->hw, delta);

	synpcix_refresh_ref(sp);
	return err;
}

static int synpcix_adjfine(struct ptp_clock_info *info, long scaled_ppm)
{
	return spx_adj_fine(&info_to_sp(info)->hw, scaled_ppm);
}

static int synpcix_extts(struct synpcix *sp, unsigned int index, u32 flags,
			 int on)
{
	bool falling;
	int err;

	if (flags & ~SYNPCIX_EXTTS_FLAGS)
		return -EOPNOTSUPP;
	/* one edge only; both edges at once is not something the card does */
	if ((flags & PTP_STRICT_FLAGS) && (flags & PTP_RISING_EDGE) &&
	    (flags & PTP_FALLING_EDGE))
		return -EOPNOTSUPP;
	falling = (flags & PTP_FALLING_EDGE) && !(flags & PTP_RISING_EDGE);

	mutex_lock(&sp->lock);
	if (index == SYNPCIX_EXTTS_PPS) {
		struct spx_pps_status st;

		err = spx_pps_get_status(&sp->hw, &st);
		if (err)
			goto out;
		/*
		 * The edge asked for becomes the PPS input's on-time edge,
		 * unless the card's servo runs on the other one: changing it
		 * under the servo would shift its time by the pulse width.
		 */
		if (on && st.falling != falling) {
			err = -EBUSY;
			if (st.mode == SPX_PPS_SERVO)
				goto out;
			err = spx_pps_set_falling(&sp->hw, falling);
			if (err)
				goto out;
		}
		if (on && st.mode == SPX_PPS_OFF) {
			err = spx_pps_set_mode(&sp->hw, SPX_PPS_REPORT);
			if (err)
				goto out;
			sp->pps_report_by_us = true;
		} else if (!on && sp->pps_report_by_us && st.mode == SPX_PPS_REPORT) {
			err = spx_pps_set_mode(&sp->hw, SPX_PPS_OFF);
			if (err)
				goto out;
			sp->pps_report_by_us = false;
		}
		/* drop a stamp that waited from before enabling */
		if (on) {
			u64 stale;

			spx_pps_poll(&sp->hw, &stale);
		}
	} else {
		err = spx_event_enable(&sp->hw, index - 1, on, falling);
		if (err)
			goto out;
	}
	if (on)
		set_bit(index, &sp->extts_on);
	else
		clear_bit(index, &sp->extts_on);
	err = 0;
out:
	mutex_unlock(&sp->lock);
	if (!err && on)
		ptp_schedule_worker(sp->ptp, 0);
	return err;
}

static int synpcix_perout(struct synpcix *sp, const struct ptp_perout_request *rq,
			  int on)
{
	u64 start, period, width;
	int err;

	if (rq->flags & ~SYNPCIX_PEROUT_FLAGS)
		return -EOPNOTSUPP;
	mutex_lock(&sp->lock);
	if (!on) {
		err = spx_perout_disable(&sp->hw);
		sp->perout_on = false;
		goto out;
	}
	err = -EINVAL;
	if (rq->start.sec < 0 || rq->period.sec < 0 ||
	    rq->start.nsec >= NSEC_PER_SEC || rq->period.nsec >= NSEC_PER_SEC)
		goto out;
	start = (u64)rq->start.sec * NSEC_PER_SEC + rq->start.nsec;
	period = (u64)rq->period.sec * NSEC_PER_SEC + rq->period.nsec;
	if (rq->flags & PTP_PEROUT_DUTY_CYCLE) {
		if (rq->on.sec < 0 || rq->on.nsec >= NSEC_PER_SEC)
			goto out;
		width = (u64)rq->on.sec * NSEC_PER_SEC + rq->on.nsec;
	} else {
		width = period / 2;
	}
	err = -ERANGE;	/* the card's period and width registers are 32-bit */
	if (period > U32_MAX || width > U32_MAX)
		goto out;
	err = spx_perout_set(&sp->hw, start, (u32)period, (u32)width);
	if (!err)
		sp->perout_on = true;
out:
	mutex_unlock(&sp->lock);
	return err;
}

static int synpcix_enable(struct ptp_clock_info *info,
			  struct ptp_clock_request *rq, int on)
{
	struct synpcix *sp = info_to_sp(info);

	switch (rq->type) {
	case PTP_CLK_REQ_EXTTS:
		if (rq->extts.index >= info->n_ext_ts)
			return -EINVAL;
		return synpcix_extts(sp, rq->extts.index, rq->extts.flags, on);
	case PTP_CLK_REQ_PEROUT:
		if (rq->perout.index >= info->n_per_out)
			return -EINVAL;
		return synpcix_perout(sp, &rq->perout, on);
	default:
		return -EOPNOTSUPP;
	}
}

/* Pins have fixed functions: a pin does its one job or nothing. */
static int synpcix_verify(struct ptp_clock_info *info, unsigned int pin,
			  enum ptp_pin_function func, unsigned int chan)
{
	struct synpcix *sp = info_to_sp(info);

	if (pin >= info->n_pins)
		return -EINVAL;
	if (func == PTP_PF_NONE)
		return 0;
	if (func != sp->pins[pin].func || chan != sp->pins[pin].chan)
		return -EOPNOTSUPP;
	return 0;
}

static void synpcix_report(struct synpcix *sp, unsigned int index, u64 ns)
{
	struct ptp_clock_event ev = {
		.type = PTP_CLOCK_EXTTS,
		.index = index,
		.timestamp = ns,
	};

	ptp_clock_event(sp->ptp, &ev);
}

static void synpcix_event_report(struct synpcix *sp, const struct spx_event *ev)
{
	struct device *dev = &sp->pdev->dev;

	if (ev->lost_before)
		dev_warn_ratelimited(dev, "event stamps lost: %u before seq %u (FIFO or ring full)\n",
				     ev->lost_before, ev->seq);
	if (ev->channel < sp->hw.n_events &&
	    test_bit(ev->channel + 1, &sp->extts_on))
		synpcix_report(sp, ev->channel + 1, ev->ns);
	else
		sp->extts_unknown++;
}

/*
 * Stop the ring and free it, once the card no longer writes it (a card
 * that does not stop keeps the memory: freeing it could let the card
 * write into someone else's page). Under sp->lock or at teardown.
 */
static void synpcix_evring_free(struct synpcix *sp)
{
	struct device *dev = &sp->pdev->dev;
	int err;

	if (!sp->evring)
		return;
	err = spx_evring_stop(&sp->hw);
	if (err == -ETIMEDOUT) {
		dev_err(dev, "event ring: card did not stop, leaking its %u bytes\n",
			sp->evring_bytes);
	} else {
		dma_free_coherent(dev, sp->evring_bytes, sp->evring, sp->evring_dma);
	}
	sp->evring = NULL;
}

/* Event ring on cards that have it (event block 1.1); else register pops. */
static void synpcix_evring_setup(struct synpcix *sp)
{
	struct device *dev = &sp->pdev->dev;
	u32 bytes;
	void *mem;
	dma_addr_t dma;
	int err;

	if (spx_evring_bytes(&sp->hw, &bytes))
		return;		/* older card: the event FIFO registers */
	/*
	 * The card takes a 32-bit ring base (single address cycles). The
	 * driver's only coherent allocation is this ring, so the coherent mask
	 * can be 32 bits while streaming DMA keeps the 64-bit mask.
	 */
	err = dma_set_coherent_mask(dev, DMA_BIT_MASK(32));
	if (err) {
		dev_warn(dev, "event ring: no 32-bit coherent DMA (%d), events by register\n", err);
		return;
	}
	/* a power-of-two size up to a page: the allocation is aligned to it */
	mem = dma_alloc_coherent(dev, bytes, &dma, GFP_KERNEL);
	if (!mem) {
		dev_warn(dev, "event ring: no memory, events by register\n");
		return;
	}
	mutex_lock(&sp->lock);
	err = spx_evring_start(&sp->hw, mem, dma, bytes);
	if (err) {
		mutex_unlock(&sp->lock);
		dma_free_coherent(dev, bytes, mem, dma);
		dev_warn(dev, "event ring not started (%d), events by register\n", err);
		return;
	}
	sp->evring = mem;
	sp->evring_dma = dma;
	sp->evring_bytes = bytes;
	mutex_unlock(&sp->lock);
	dev_info(dev, "event stamps by DMA: %u-entry ring\n", bytes / SPX_EVRING_ENTRY_BYTES);
}

/* Ring entries into EXTTS events: memory reads, one register write. */
static void synpcix_evring_drain(struct synpcix *sp)
{
	struct spx_event ev;
	unsigned int n, max = sp->evring_bytes / SPX_EVRING_ENTRY_BYTES;
	int ret;

	for (n = 0; n < max && spx_evring_poll(&sp->hw, &ev) == 1; n++)
		synpcix_event_report(sp, &ev);
	ret = spx_evring_ack(&sp->hw, NULL);
	if (ret == -EIO) {
		dev_err(&sp->pdev->dev, "event ring stopped after a DMA error (dma.last_error); events by register from now\n");
		synpcix_evring_free(sp);
	} else if (ret == -ENODEV) {
		dev_warn_ratelimited(&sp->pdev->dev, "card not responding\n");
	}
}

static long synpcix_aux_work(struct ptp_clock_info *info)
{
	struct synpcix *sp = info_to_sp(info);
	struct device *dev = &sp->pdev->dev;
	struct spx_event ev;
	unsigned int n;
	bool slots = atomic_read(&sp->slots_held) > 0;
	u64 ns;
	int ret;

	if (slots)
		synpcix_refresh_ref(sp);
	mutex_lock(&sp->lock);
	if (!sp->extts_on) {
		mutex_unlock(&sp->lock);
		/* idle: enable and synpcix_slot_get reschedule */
		return slots ? msecs_to_jiffies(SYNPCIX_REF_MS) : -1;
	}
	if (test_bit(SYNPCIX_EXTTS_PPS, &sp->extts_on) &&
	    spx_pps_poll(&sp->hw, &ns) == 1)
		synpcix_report(sp, SYNPCIX_EXTTS_PPS, ns);

	if (sp->evring) {
		synpcix_evring_drain(sp);
	} else {
		/* drain, bounded by the FIFO depth so a stuck card cannot hold us */
		for (n = 0; sp->hw.present[SPX_BLK_EVENT] && n <= sp->hw.fifo_depth; n++) {
			ret = spx_event_pop(&sp->hw, &ev);
			if (ret <= 0) {
				if (ret == -ENODEV)
					dev_warn_ratelimited(dev, "card not responding\n");
				break;
			}
			synpcix_event_report(sp, &ev);
		}
	}
	mutex_unlock(&sp->lock);
	return msecs_to_jiffies(SYNPCIX_POLL_MS);
}

static void synpcix_ptp_unregister(void *data)
{
	struct synpcix *sp = data;

	ptp_clock_unregister(sp->ptp);
	/* the aux worker is gone: stop the ring before its memory goes
	 * (a card that is gone writes nothing: spx_evring_stop says -ENODEV)
	 */
	synpcix_evring_free(sp);
	/* leave the card quiet for the next driver, if it is still there */
	if (!pci_device_is_present(sp->pdev))
		return;
	if (sp->perout_on)
		spx_perout_disable(&sp->hw);
	if (sp->pps_report_by_us)
		spx_pps_set_mode(&sp->hw, SPX_PPS_OFF);
	if (sp->hw.present[SPX_BLK_EVENT]) {
		unsigned int i;

		for (i = 0; i < sp->hw.n_events; i++)
			spx_event_enable(&sp->hw, i, false, false);
	}
}

static void synpcix_init_pins(struct synpcix *sp, unsigned int n_ext_ts,
			      unsigned int n_per_out)
{
	unsigned int i;

	for (i = 0; i < n_ext_ts; i++) {
		struct ptp_pin_desc *p = &sp->pins[i];

		if (i == SYNPCIX_EXTTS_PPS)
			strscpy(p->name, "PPS_IN", sizeof(p->name));
		else
			snprintf(p->name, sizeof(p->name), "EVENT%u", i - 1);
		p->index = i;
		p->func = PTP_PF_EXTTS;
		p->chan = i;
	}
	if (n_per_out) {
		struct ptp_pin_desc *p = &sp->pins[n_ext_ts];

		strscpy(p->name, "PPS_OUT", sizeof(p->name));
		p->index = n_ext_ts;
		p->func = PTP_PF_PEROUT;
		p->chan = 0;
	}
}

int synpcix_ptp_register(struct synpcix *sp)
{
	struct ptp_clock_info *info = &sp->ptp_info;
	struct device *dev = &sp->pdev->dev;
	unsigned int n_ext_ts, n_per_out;
	int err;

	n_ext_ts = sp->hw.present[SPX_BLK_PPS] ? 1 : 0;
	if (n_ext_ts)	/* event i is channel 1 + i, so PPS must hold 0 */
		n_ext_ts += sp->hw.n_events;
	n_per_out = sp->hw.present[SPX_BLK_PEROUT] ? 1 : 0;

	sp->pins = devm_kcalloc(dev, n_ext_ts + n_per_out, sizeof(*sp->pins),
				GFP_KERNEL);
	if (!sp->pins && n_ext_ts + n_per_out)
		return -ENOMEM;
	synpcix_init_pins(sp, n_ext_ts, n_per_out);

	*info = (struct ptp_clock_info) {
		.owner = THIS_MODULE,
		.max_adj = spx_max_adj_ppb(sp->hw.nominal_period_fp),
		.n_ext_ts = n_ext_ts,
		.n_per_out = n_per_out,
		.n_pins = n_ext_ts + n_per_out,
		.pin_config = sp->pins,
		.gettimex64 = synpcix_gettimex64,
		.settime64 = synpcix_settime64,
		.adjtime = synpcix_adjtime,
		.adjfine = synpcix_adjfine,
		.enable = synpcix_enable,
		.verify = synpcix_verify,
		.do_aux_work = synpcix_aux_work,
	};
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 15, 0)
	info->supported_extts_flags = SYNPCIX_EXTTS_FLAGS;
	info->supported_perout_flags = SYNPCIX_PEROUT_FLAGS;
#endif
	strscpy(info->name, "synpcix", sizeof(info->name));

	sp->ptp = ptp_clock_register(info, dev);
	if (IS_ERR(sp->ptp))
		return dev_err_probe(dev, PTR_ERR(sp->ptp), "PTP clock registration failed\n");
	if (!sp->ptp)
		return dev_err_probe(dev, -EOPNOTSUPP, "kernel built without PTP clock support\n");
	err = devm_add_action_or_reset(dev, synpcix_ptp_unregister, sp);
	if (err)
		return err;
	synpcix_evring_setup(sp);
	return 0;
}
