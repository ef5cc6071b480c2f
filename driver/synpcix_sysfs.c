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
	NULL
};
