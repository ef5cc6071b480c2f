// SPDX-License-Identifier: GPL-2.0-only
/*
 * SynPCI-X sysfs: the PPS servo's mode and state, input health counters.
 * One value per file, under /sys/bus/pci/devices/<BDF>/. The ABI is
 * described in docs/sysfs-synpcix.md; keep the two in step.
 */
#include <linux/device.h>
#include <linux/pci.h>
#include <linux/sysfs.h>

#include "synpcix.h"

static const char * const synpcix_mode_names[] = {
	[SPX_PPS_OFF] = "off",
	[SPX_PPS_REPORT] = "report",
	[SPX_PPS_SERVO] = "servo",
};

static const char * const synpcix_state_names[] = {
	[SYNPCIX_PPS_STATUS_STATE_FREERUN] = "freerun",
	[SYNPCIX_PPS_STATUS_STATE_LOCKING] = "locking",
	[SYNPCIX_PPS_STATUS_STATE_LOCKED] = "locked",
	[SYNPCIX_PPS_STATUS_STATE_HOLDOVER] = "holdover",
};

static struct synpcix *dev_to_sp(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static int synpcix_status(struct device *dev, struct spx_pps_status *st)
{
	return spx_pps_get_status(&dev_to_sp(dev)->hw, st);
}

static ssize_t servo_mode_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	struct spx_pps_status st;
	int err = synpcix_status(dev, &st);

	if (err)
		return err;
	if (st.mode >= ARRAY_SIZE(synpcix_mode_names))
		return sysfs_emit(buf, "unknown-%u\n", st.mode);
	return sysfs_emit(buf, "%s\n", synpcix_mode_names[st.mode]);
}

static ssize_t servo_mode_store(struct device *dev, struct device_attribute *attr,
				const char *buf, size_t count)
{
	struct synpcix *sp = dev_to_sp(dev);
	int mode, err;

	mode = sysfs_match_string(synpcix_mode_names, buf);
	if (mode < 0)
		return -EINVAL;
	mutex_lock(&sp->lock);
	err = spx_pps_set_mode(&sp->hw, mode);
	if (!err)
		sp->pps_report_by_us = false;	/* the user owns the mode now */
	mutex_unlock(&sp->lock);
	return err ? err : count;
}
static DEVICE_ATTR_RW(servo_mode);

static ssize_t servo_state_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	struct spx_pps_status st;
	int err = synpcix_status(dev, &st);

	if (err)
		return err;
	return sysfs_emit(buf, "%s\n", synpcix_state_names[st.state & 3]);
}
static DEVICE_ATTR_RO(servo_state);

static ssize_t servo_freq_adj_ppb_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	struct synpcix *sp = dev_to_sp(dev);
	struct spx_pps_status st;
	u64 nominal = sp->hw.nominal_period_fp;
	int err = synpcix_status(dev, &st);

	if (err)
		return err;
	return sysfs_emit(buf, "%lld\n",
			  spx_period_to_ppb(nominal, nominal + (s64)st.freq_adj));
}
static DEVICE_ATTR_RO(servo_freq_adj_ppb);

static ssize_t pps_present_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	struct spx_pps_status st;
	int err = synpcix_status(dev, &st);

	return err ? err : sysfs_emit(buf, "%d\n", st.present);
}
static DEVICE_ATTR_RO(pps_present);

static ssize_t pps_offset_ns_show(struct device *dev, struct device_attribute *attr,
				  char *buf)
{
	struct spx_pps_status st;
	int err = synpcix_status(dev, &st);

	return err ? err : sysfs_emit(buf, "%d\n", st.offset_ns);
}
static DEVICE_ATTR_RO(pps_offset_ns);

#define SYNPCIX_PPS_COUNTER(name, field)					\
static ssize_t name##_show(struct device *dev, struct device_attribute *attr, \
			   char *buf)						\
{									\
	struct spx_pps_status st;					\
	int err = synpcix_status(dev, &st);				\
									\
	return err ? err : sysfs_emit(buf, "%u\n", st.field);		\
}									\
static DEVICE_ATTR_RO(name)

SYNPCIX_PPS_COUNTER(pps_edges, edges);
SYNPCIX_PPS_COUNTER(pps_glitches, glitches);
SYNPCIX_PPS_COUNTER(pps_rejects, rejects);
SYNPCIX_PPS_COUNTER(pps_losses, losses);
SYNPCIX_PPS_COUNTER(servo_steps, steps);

static ssize_t event_overflows_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	u32 n;
	int err = spx_event_overflows(&dev_to_sp(dev)->hw, &n);

	return err ? err : sysfs_emit(buf, "%u\n", n);
}
static DEVICE_ATTR_RO(event_overflows);

static ssize_t events_lost_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	struct synpcix *sp = dev_to_sp(dev);
	u64 n;

	mutex_lock(&sp->lock);
	n = sp->hw.events_lost;
	mutex_unlock(&sp->lock);
	return sysfs_emit(buf, "%llu\n", n);
}
static DEVICE_ATTR_RO(events_lost);

static ssize_t build_id_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%08x\n", dev_to_sp(dev)->hw.build);
}
static DEVICE_ATTR_RO(build_id);

/* ---- capture unit: card-wide files, present with the msi_slots block ---- */

static ssize_t n_slots_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_sp(dev)->hw.n_slots);
}
static DEVICE_ATTR_RO(n_slots);

static ssize_t slot_latch_ns_show(struct device *dev, struct device_attribute *attr,
				  char *buf)
{
	return sysfs_emit(buf, "%llu\n", dev_to_sp(dev)->hw.latch_ns);
}
static DEVICE_ATTR_RO(slot_latch_ns);

static ssize_t irq_vectors_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	struct synpcix *sp = dev_to_sp(dev);

	return sysfs_emit(buf, "%d %s\n", sp->nvec, sp->irq_kind);
}
static DEVICE_ATTR_RO(irq_vectors);

static ssize_t irq_raised_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	u32 v;
	int err = spx_irq_raised(&dev_to_sp(dev)->hw, &v);

	return err ? err : sysfs_emit(buf, "%u\n", v);
}
static DEVICE_ATTR_RO(irq_raised);

static ssize_t irq_pending_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	u32 v;
	int err = spx_irq_pending(&dev_to_sp(dev)->hw, &v);

	return err ? err : sysfs_emit(buf, "0x%02x\n", v);
}
static DEVICE_ATTR_RO(irq_pending);

static ssize_t irq_gap_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	unsigned int v;
	int err = spx_irq_get_gap(&dev_to_sp(dev)->hw, &v);

	return err ? err : sysfs_emit(buf, "%u\n", v);
}

static ssize_t irq_gap_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	unsigned int v;
	int err = kstrtouint(buf, 0, &v);

	if (err)
		return err;
	err = spx_irq_set_gap(&dev_to_sp(dev)->hw, v);
	return err ? err : count;
}
static DEVICE_ATTR_RW(irq_gap);

static ssize_t dma_errors_show(struct device *dev, struct device_attribute *attr,
			       char *buf)
{
	struct spx_dma_status st;
	int err = spx_dma_status(&dev_to_sp(dev)->hw, &st);

	return err ? err : sysfs_emit(buf, "%u\n", st.errors);
}
static DEVICE_ATTR_RO(dma_errors);

static struct attribute *synpcix_capture_attrs[] = {
	&dev_attr_n_slots.attr,
	&dev_attr_slot_latch_ns.attr,
	&dev_attr_irq_vectors.attr,
	&dev_attr_irq_raised.attr,
	&dev_attr_irq_pending.attr,
	&dev_attr_irq_gap.attr,
	&dev_attr_dma_errors.attr,
	NULL
};

static umode_t synpcix_capture_visible(struct kobject *kobj, struct attribute *attr,
				       int n)
{
	struct synpcix *sp = dev_to_sp(kobj_to_dev(kobj));

	if (!sp || !sp->hw.present[SPX_BLK_MSI_SLOTS])
		return 0;
	if (attr == &dev_attr_irq_raised.attr || attr == &dev_attr_irq_pending.attr ||
	    attr == &dev_attr_irq_gap.attr)
		return sp->hw.present[SPX_BLK_IRQ] ? attr->mode : 0;
	if (attr == &dev_attr_dma_errors.attr)
		return sp->hw.present[SPX_BLK_DMA] ? attr->mode : 0;
	return attr->mode;
}

static const struct attribute_group synpcix_capture_group = {
	.attrs = synpcix_capture_attrs,
	.is_visible = synpcix_capture_visible,
};

/* ---- per slot: slotN/ for each slot the card has ---- */

static umode_t synpcix_slot_visible(struct kobject *kobj, struct attribute *attr,
				    int n)
{
	struct synpcix *sp = dev_to_sp(kobj_to_dev(kobj));
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);
	struct dev_ext_attribute *ea = container_of(da, struct dev_ext_attribute, attr);
	unsigned long nr = (unsigned long)ea->var >> 8;

	return sp && nr < sp->hw.n_slots ? attr->mode : 0;
}

#define SLOT_FILE(n, name, f)						\
	static struct dev_ext_attribute slot##n##_##name = {		\
		__ATTR(name, 0444, synpcix_slot_file_show, NULL),	\
		(void *)(((n) << 8) | (f))				\
	}
#define SLOT_INGRESS(n, name, f)					\
	static struct dev_ext_attribute slot##n##_##name = {		\
		__ATTR(name, 0644, synpcix_slot_ingress_show,		\
		       synpcix_slot_ingress_store),			\
		(void *)(((n) << 8) | (f))				\
	}
#define SLOT_GROUP(n)							\
	SLOT_FILE(n, enabled, SF_ENABLED);				\
	SLOT_FILE(n, index, SF_INDEX);					\
	SLOT_FILE(n, captures, SF_CAPTURES);				\
	SLOT_FILE(n, stamped, SF_STAMPED);				\
	SLOT_FILE(n, batched, SF_BATCHED);				\
	SLOT_FILE(n, empty, SF_EMPTY);					\
	SLOT_FILE(n, overflow, SF_OVERFLOW);				\
	SLOT_FILE(n, dma_errors, SF_DMA_ERRORS);			\
	SLOT_FILE(n, cause_last, SF_CAUSE_LAST);			\
	SLOT_FILE(n, ambiguous, SF_AMBIGUOUS);				\
	SLOT_FILE(n, last_data, SF_LAST_DATA);				\
	SLOT_FILE(n, owner, SF_OWNER);					\
	SLOT_INGRESS(n, ingress_latency_ns, SF_INGRESS_NS);		\
	SLOT_INGRESS(n, ingress_latency_ps_per_byte, SF_INGRESS_PS_PER_BYTE); \
	static struct attribute *slot##n##_attrs[] = {			\
		&slot##n##_enabled.attr.attr,				\
		&slot##n##_index.attr.attr,				\
		&slot##n##_captures.attr.attr,				\
		&slot##n##_stamped.attr.attr,				\
		&slot##n##_batched.attr.attr,				\
		&slot##n##_empty.attr.attr,				\
		&slot##n##_overflow.attr.attr,				\
		&slot##n##_dma_errors.attr.attr,			\
		&slot##n##_cause_last.attr.attr,			\
		&slot##n##_ambiguous.attr.attr,				\
		&slot##n##_last_data.attr.attr,				\
		&slot##n##_owner.attr.attr,				\
		&slot##n##_ingress_latency_ns.attr.attr,		\
		&slot##n##_ingress_latency_ps_per_byte.attr.attr,	\
		NULL							\
	};								\
	static const struct attribute_group slot##n##_group = {	\
		.name = "slot" #n,					\
		.attrs = slot##n##_attrs,				\
		.is_visible = synpcix_slot_visible,			\
	}

/* SPX_MAX_SLOTS (8) groups: the window selects at most eight slots */
SLOT_GROUP(0);
SLOT_GROUP(1);
SLOT_GROUP(2);
SLOT_GROUP(3);
SLOT_GROUP(4);
SLOT_GROUP(5);
SLOT_GROUP(6);
SLOT_GROUP(7);
static_assert(SPX_MAX_SLOTS == 8);

static struct attribute *synpcix_attrs[] = {
	&dev_attr_build_id.attr,
	&dev_attr_events_lost.attr,
	&dev_attr_event_overflows.attr,
	NULL
};

static struct attribute *synpcix_pps_attrs[] = {
	&dev_attr_servo_mode.attr,
	&dev_attr_servo_state.attr,
	&dev_attr_servo_freq_adj_ppb.attr,
	&dev_attr_servo_steps.attr,
	&dev_attr_pps_present.attr,
	&dev_attr_pps_offset_ns.attr,
	&dev_attr_pps_edges.attr,
	&dev_attr_pps_glitches.attr,
	&dev_attr_pps_rejects.attr,
	&dev_attr_pps_losses.attr,
	NULL
};

/* The servo files exist only on cards that have the PPS block. */
static umode_t synpcix_pps_visible(struct kobject *kobj, struct attribute *attr,
				   int n)
{
	struct synpcix *sp = dev_to_sp(kobj_to_dev(kobj));

	return sp && sp->hw.present[SPX_BLK_PPS] ? attr->mode : 0;
}

static umode_t synpcix_event_visible(struct kobject *kobj, struct attribute *attr,
				     int n)
{
	struct synpcix *sp = dev_to_sp(kobj_to_dev(kobj));

	if (attr == &dev_attr_build_id.attr)
		return attr->mode;
	return sp && sp->hw.present[SPX_BLK_EVENT] ? attr->mode : 0;
}

static const struct attribute_group synpcix_group = {
	.attrs = synpcix_attrs,
	.is_visible = synpcix_event_visible,
};

static const struct attribute_group synpcix_pps_group = {
	.attrs = synpcix_pps_attrs,
	.is_visible = synpcix_pps_visible,
};

const struct attribute_group *synpcix_groups[] = {
	&synpcix_group,
	&synpcix_pps_group,
	&synpcix_capture_group,
	&slot0_group, &slot1_group, &slot2_group, &slot3_group,
	&slot4_group, &slot5_group, &slot6_group, &slot7_group,
	NULL
};
