// SPDX-License-Identifier: GPL-2.0-or-later
/* GPS PPS model; what it models is in gps_model.h. */
#include <math.h>

#include "gps_model.h"

void gps_init(struct gps_model *g, const struct gps_params *p)
{
	g->p = *p;
	sim_rng_seed(&g->rng, p->seed ^ 0x6950u);
	g->off_from = 1;
	g->off_to = 0;
	g->n_faults = 0;
}

void gps_fault(struct gps_model *g, int64_t k, enum gps_fault f, double param)
{
	if (g->n_faults < GPS_MAX_FAULTS) {
		g->faults[g->n_faults].k = k;
		g->faults[g->n_faults].f = f;
		g->faults[g->n_faults].param = param;
		g->n_faults++;
	}
}

void gps_outage(struct gps_model *g, int64_t from_k, int64_t to_k)
{
	g->off_from = from_k;
	g->off_to = to_k;
}

int gps_second(struct gps_model *g, int64_t k, struct gps_edge *e, double *on_time)
{
	/* the jitter is drawn for every second, so faults do not shift the
	 * random sequence of the seconds after them */
	double rise = k * g->p.interval_ns + g->p.jitter_rms_ns * sim_rng_gauss(&g->rng);
	double width = g->p.width_ns;
	double glitch_w = 0.0;
	int n = 0;

	*on_time = rise;
	if (k >= g->off_from && k <= g->off_to) {
		*on_time = NAN;
		return 0;
	}
	for (int i = 0; i < g->n_faults; i++) {
		if (g->faults[i].k != k)
			continue;
		switch (g->faults[i].f) {
		case GPS_OFF:
			*on_time = NAN;
			return 0;
		case GPS_FAR:
			rise += g->faults[i].param;
			*on_time = rise;
			break;
		case GPS_GLITCH:
			glitch_w = g->faults[i].param;
			break;
		case GPS_RUNT:
			width = g->faults[i].param;
			break;
		case GPS_OK:
			break;
		}
	}
	e[n].t_ns = rise;
	e[n++].level = 1;
	e[n].t_ns = rise + width;
	e[n++].level = 0;
	if (glitch_w > 0.0) {
		double t = rise + 0.4 * g->p.interval_ns;

		e[n].t_ns = t;
		e[n++].level = 1;
		e[n].t_ns = t + glitch_w;
		e[n++].level = 0;
	}
	return n;
}
