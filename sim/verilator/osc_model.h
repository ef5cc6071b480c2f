/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Oscillator model of the card's timebase crystal oscillator (an XO; see
 * docs/simulation.md for every assumption and where its numbers come from).
 *
 * Fractional frequency offset, in real time t (seconds):
 *   y(t) = offset + rw(t) + tc * (T(t) - T(0))
 *   rw    random walk: y steps by N(0, rw_sigma^2 * dt) every update
 *   T(t)  temperature at the crystal: the room's air-conditioning cycle
 *         (sine, period ac_period_s, amplitude ac_amp_c) plus a slow linear
 *         drift drift_c_per_h
 *   tc    frequency-temperature slope of the crystal at its operating point
 *
 * Time scaling (docs/simulation.md, "Time scaling"): with scale s (one
 * simulated PPS interval of s * 1e9 ns stands for one real second) the model
 * runs on real time t = t_sim / s, and returns y_sim = y(t) / s when
 * phase_faithful is set. Then the phase the oscillator gains over one
 * simulated interval, in ns, equals what the real oscillator gains over one
 * real second, so every time error the card shows in ns is the real-time
 * figure. With phase_faithful clear, y_sim = y(t): the hardware sees the
 * real ppm, and phase errors from frequency are s times too small.
 */
#ifndef OSC_MODEL_H
#define OSC_MODEL_H

#include <stdint.h>

#include "sim_rng.h"

struct osc_params {
	double offset_ppm;	/* constant frequency offset at t = 0 */
	double rw_ppb_rt_s;	/* random-walk FM: sigma of y per sqrt(s), ppb */
	double tc_ppm_per_c;	/* frequency-temperature slope, ppm/degC */
	double ac_amp_c;	/* air-conditioning cycle amplitude (half p-p) */
	double ac_period_s;	/* air-conditioning cycle period */
	double ac_phase_rad;	/* phase of the cycle at t = 0 */
	double drift_c_per_h;	/* slow temperature drift */
	double scale;		/* s: simulated ns per real ns (1 = unscaled) */
	int phase_faithful;	/* 1: y_sim = y / s (see above) */
	uint64_t seed;
};

struct osc_model {
	struct osc_params p;
	struct sim_rng rng;
	double t_real_s;	/* real time of the last update */
	double rw;		/* random-walk part of y */
};

/* The defaults documented in docs/simulation.md, at the given offset/scale. */
void osc_default_params(struct osc_params *p, double offset_ppm, double scale,
			uint64_t seed);
void osc_init(struct osc_model *o, const struct osc_params *p);
/* Temperature at the crystal (degC above its value at t = 0), real time. */
double osc_temp_c(const struct osc_model *o, double t_real_s);
/* Real fractional frequency offset at real time t (no scaling). */
double osc_y_real(const struct osc_model *o, double t_real_s);
/* card_osc_fn: advance to true time t_ns (simulated) and return y_sim. */
double osc_y_sim(void *osc_model, double t_ns);

#endif /* OSC_MODEL_H */
