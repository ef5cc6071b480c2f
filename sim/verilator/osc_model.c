// SPDX-License-Identifier: GPL-2.0-or-later
/* Oscillator model; the equations and their sources are in osc_model.h. */
#include <math.h>

#include "osc_model.h"

static const double PI = 3.14159265358979323846;

void osc_default_params(struct osc_params *p, double offset_ppm, double scale,
			uint64_t seed)
{
	/*
	 * XO, AT-cut crystal near room temperature. The slope of the AT-cut
	 * cubic f(T) curve between 20 and 35 degC is a few tenths of a ppm per
	 * degC for common cut angles (a +-50 ppm over -40..85 degC part has
	 * 0.8 ppm/degC on average over its range); 0.5 ppm/degC is mid-range.
	 * A TCXO would be ~0.02-0.05 ppm/degC; a +-100 ppm offset only fits
	 * an uncompensated XO, so the XO it is.
	 */
	p->offset_ppm = offset_ppm;
	p->tc_ppm_per_c = 0.5;
	/*
	 * Thesis (Table 5.5 runs): the crystal moved 0.4-1.9 degC during a
	 * run, with a 12-minute air-conditioning cycle. Model: 1.0 degC
	 * peak-to-peak sine of 12 min, plus 0.9 degC per hour of slow drift
	 * (the upper end of the range over a 1-hour run).
	 */
	p->ac_amp_c = 0.5;
	p->ac_period_s = 720.0;
	p->ac_phase_rad = 0.0;
	p->drift_c_per_h = 0.9;
	/*
	 * Random-walk FM: a cheap XO's Allan deviation is ~1e-10..1e-9 at
	 * 1..100 s; 0.2 ppb per sqrt(s) of random walk puts it at the top
	 * of that range at 10-100 s.
	 */
	p->rw_ppb_rt_s = 0.2;
	p->scale = scale;
	p->phase_faithful = 1;
	p->seed = seed;
}

void osc_init(struct osc_model *o, const struct osc_params *p)
{
	o->p = *p;
	sim_rng_seed(&o->rng, p->seed ^ 0x05C1u);
	o->t_real_s = 0.0;
	o->rw = 0.0;
}

double osc_temp_c(const struct osc_model *o, double t)
{
	const struct osc_params *p = &o->p;

	return p->ac_amp_c * (sin(2.0 * PI * t / p->ac_period_s + p->ac_phase_rad) -
			      sin(p->ac_phase_rad)) +
	       p->drift_c_per_h * t / 3600.0;
}

double osc_y_real(const struct osc_model *o, double t)
{
	return o->p.offset_ppm * 1e-6 + o->rw + o->p.tc_ppm_per_c * 1e-6 * osc_temp_c(o, t);
}

double osc_y_sim(void *om, double t_ns)
{
	struct osc_model *o = om;
	double t = t_ns * 1e-9 / o->p.scale;
	double dt = t - o->t_real_s;

	if (dt > 0) {
		o->rw += o->p.rw_ppb_rt_s * 1e-9 * sqrt(dt) * sim_rng_gauss(&o->rng);
		o->t_real_s = t;
	}
	return o->p.phase_faithful ? osc_y_real(o, t) / o->p.scale : osc_y_real(o, t);
}
