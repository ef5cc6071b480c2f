// SPDX-License-Identifier: GPL-2.0-or-later
/* The card in its world; see world.h. Offsets only from synpcix_regs.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synpcix_regs.h"
#include "world.h"

#define RD(off) card_read32(w->card, (off))
#define WR(off, v) card_write32(w->card, (off), (v))

/* Schedule second k: its PPS pulse and its truth edges. */
static void schedule_second(struct world *w, int64_t k)
{
	struct gps_edge e[GPS_MAX_EDGES];
	double on_time;
	int n = gps_second(&w->gps, k, e, &on_time);

	if (w->gps_on)
		for (int i = 0; i < n; i++)
			card_input_at(w->card, e[i].t_ns, CARD_PIN_PPS, e[i].level);
	for (int j = 0; j < w->events_per_s; j++) {
		/* uniform phase against the clock: the stamp quantisation
		 * (0..8 ns) is then sampled fairly */
		double t = k * w->interval_ns +
			   w->interval_ns * (j + 0.05 + 0.9 * sim_rng_uniform(&w->rng)) /
				   w->events_per_s;

		if (w->truth_tail - w->truth_head >= WORLD_TRUTH_Q) {
			fprintf(stderr, "world: truth queue full (stamps not popped)\n");
			exit(2);
		}
		w->truth[w->truth_tail++ % WORLD_TRUTH_Q] = t;
		card_input_at(w->card, t, CARD_PIN_EVENT(0), 1);
		card_input_at(w->card, t + w->event_width_ns, CARD_PIN_EVENT(0), 0);
	}
}

static double horizon(void *ctx, double now)
{
	struct world *w = ctx;

	/* second k's earliest edge is k*I - 5 sigma; schedule it half an
	 * interval before k*I */
	while ((w->next_k - 0.5) * w->interval_ns <= now + w->interval_ns)
		schedule_second(w, w->next_k++);
	return (w->next_k - 1.5) * w->interval_ns;
}

void world_init(struct world *w, const struct world_params *p)
{
	struct osc_params op;
	struct gps_params gp = {
		.interval_ns = p->interval_ns,
		.width_ns = 0.1 * p->interval_ns,	/* 100 ms real */
		.jitter_rms_ns = 10.0,
		.seed = p->seed,
	};

	memset(w, 0, sizeof(*w));
	w->interval_ns = p->interval_ns;
	w->scale = p->interval_ns / 1e9;
	osc_default_params(&op, p->offset_ppm, w->scale, p->seed);
	op.phase_faithful = p->phase_faithful;
	osc_init(&w->osc, &op);
	gps_init(&w->gps, &gp);
	sim_rng_seed(&w->rng, p->seed ^ 0xE7E7u);
	w->gps_on = 1;
	w->event_width_ns = 1000.0;
	w->subtract_capture_delay = 1;
	w->next_k = 1;
	w->card = card_new();
	card_set_osc(w->card, osc_y_sim, &w->osc);
	card_set_horizon(w->card, horizon, w);
}

void world_free(struct world *w)
{
	card_free(w->card);
	w->card = NULL;
}

void world_probe(struct world *w)
{
	uint32_t f = RD(SYNPCIX_ID_FEATURES);

	w->capture_delay_ns = (uint64_t)((f & SYNPCIX_ID_FEATURES_CAPTURE_DELAY_MASK) >>
					 SYNPCIX_ID_FEATURES_CAPTURE_DELAY_SHIFT) * 8u;
}

static void wait_ctrl_idle(struct world *w, uint32_t mask)
{
	for (int i = 0; i < 1000; i++)
		if (!(RD(SYNPCIX_CLOCK_CTRL) & mask))
			return;
	fprintf(stderr, "world: clock.ctrl 0x%x still pending after 1000 polls\n", mask);
	exit(3);
}

void world_set_time(struct world *w, int64_t offset_ns)
{
	uint64_t t = (uint64_t)(llround(card_now_ns(w->card)) + offset_ns);

	WR(SYNPCIX_CLOCK_SET_NS_LO, (uint32_t)t);
	WR(SYNPCIX_CLOCK_SET_NS_HI, (uint32_t)(t >> 32));
	WR(SYNPCIX_CLOCK_SET_FRAC, 0);
	WR(SYNPCIX_CLOCK_CTRL, SYNPCIX_CLOCK_CTRL_SET_MASK);
	wait_ctrl_idle(w, SYNPCIX_CLOCK_CTRL_SET_MASK);
}

uint64_t world_read_time(struct world *w, double *true_mid)
{
	double t0 = card_now_ns(w->card);
	uint32_t lo = RD(SYNPCIX_CLOCK_TIME_NS_LO);
	double t1 = card_now_ns(w->card);
	uint32_t hi = RD(SYNPCIX_CLOCK_TIME_NS_HI);

	if (true_mid)
		*true_mid = 0.5 * (t0 + t1);
	return (uint64_t)hi << 32 | lo;
}

uint32_t world_gain_word(double g, double interval_ns)
{
	/* loop gain 1.0 = period_ns * 2^32 / interval_ns (docs/registers.md) */
	double unit = CARD_TB_PERIOD_NS * 4294967296.0 / interval_ns;
	double v = g * unit;
	int shift = 0;

	if (v <= 0)
		return 0;
	while (shift < 31 && v * 2.0 < 65535.5)
		v *= 2.0, shift++;
	if (v > 65535.0) {
		fprintf(stderr, "world: gain %.3f does not fit mant<<8|shift\n", g);
		exit(2);
	}
	return (uint32_t)lround(v) << SYNPCIX_PPS_KP_MANT_SHIFT |
	       (uint32_t)shift << SYNPCIX_PPS_KP_SHIFT_SHIFT;
}

void world_config_servo(struct world *w, double kp, double ki, double kf)
{
	WR(SYNPCIX_PPS_INTERVAL_NS, (uint32_t)llround(w->interval_ns));
	WR(SYNPCIX_PPS_KP, world_gain_word(kp, w->interval_ns));
	WR(SYNPCIX_PPS_KI, world_gain_word(ki, w->interval_ns));
	WR(SYNPCIX_PPS_KF, world_gain_word(kf, w->interval_ns));
	/* 1.5 s and 0.5 s at the reset values, scaled like the second */
	WR(SYNPCIX_PPS_LOSS_US, (uint32_t)llround(1.5 * w->interval_ns / 1000.0));
	WR(SYNPCIX_PPS_MIN_GAP_NS, (uint32_t)llround(0.5 * w->interval_ns));
	/* lock/reject/step thresholds are phase errors in ns: with the
	 * phase-faithful oscillator they need no scaling (reset values) */
}

void world_pps_mode(struct world *w, uint32_t mode)
{
	uint32_t v = RD(SYNPCIX_PPS_CTRL);

	v = (v & ~SYNPCIX_PPS_CTRL_MODE_MASK) | (mode << SYNPCIX_PPS_CTRL_MODE_SHIFT);
	WR(SYNPCIX_PPS_CTRL, v);
}

uint32_t world_pps_state(struct world *w)
{
	return (RD(SYNPCIX_PPS_STATUS) & SYNPCIX_PPS_STATUS_STATE_MASK) >>
	       SYNPCIX_PPS_STATUS_STATE_SHIFT;
}

void world_events(struct world *w, int per_interval)
{
	uint32_t v = RD(SYNPCIX_EVENT_CTRL);

	w->events_per_s = per_interval;
	v |= 1u << SYNPCIX_EVENT_CTRL_ENABLE_SHIFT;
	WR(SYNPCIX_EVENT_CTRL, v);
}

int world_pop_errors(struct world *w, double *err, double *t_true, int max)
{
	int n = 0;

	for (;;) {
		uint32_t lo = RD(SYNPCIX_EVENT_STAMP_NS_LO);
		uint32_t hi = RD(SYNPCIX_EVENT_STAMP_NS_HI);
		uint32_t info = RD(SYNPCIX_EVENT_STAMP_INFO);
		uint16_t seq = (info & SYNPCIX_EVENT_STAMP_INFO_SEQ_MASK) >>
			       SYNPCIX_EVENT_STAMP_INFO_SEQ_SHIFT;
		uint64_t stamp = (uint64_t)hi << 32 | lo;
		double t;

		if (!(info & SYNPCIX_EVENT_STAMP_INFO_VALID_MASK))
			return n;
		if (w->seq_known && seq != w->next_seq) {
			uint16_t gap = (uint16_t)(seq - w->next_seq);

			w->events_lost += gap;
			w->truth_head += gap;	/* those truths were lost */
		}
		w->seq_known = 1;
		w->next_seq = seq + 1;
		if (((info & SYNPCIX_EVENT_STAMP_INFO_CHANNEL_MASK) >>
		     SYNPCIX_EVENT_STAMP_INFO_CHANNEL_SHIFT) != 0)
			continue;
		if (w->truth_head == w->truth_tail) {
			fprintf(stderr, "world: a stamp with no truth edge (stamp %llu)\n",
				(unsigned long long)stamp);
			exit(3);
		}
		t = w->truth[w->truth_head++ % WORLD_TRUTH_Q];
		if (w->subtract_capture_delay)
			stamp -= w->capture_delay_ns;
		if (n < max && t_true)
			t_true[n] = t;
		if (n < max)
			err[n++] = (double)(int64_t)(stamp - (uint64_t)llround(t)) +
				   (llround(t) - t);
	}
}

void world_run_until(struct world *w, double t_ns)
{
	card_run_until(w->card, t_ns);
}

void world_run_to_second(struct world *w, int64_t k)
{
	double t = (k + 0.05) * w->interval_ns;

	if (t > card_now_ns(w->card))
		card_run_until(w->card, t);
}

double world_now_s(const struct world *w)
{
	return card_now_ns(w->card) / w->interval_ns;
}
