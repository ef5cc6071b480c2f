/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * GPS receiver PPS output model.
 *
 * Second k (k >= 1) of the receiver is a pulse whose on-time (rising) edge is
 * at true time k * interval_ns + j_k, j_k ~ N(0, jitter_rms_ns^2) independent
 * per second (a timing receiver's quantisation error after sawtooth
 * correction is of this kind; 10 ns RMS is a typical figure for a cheap
 * receiver without correction), high for width_ns.
 * Faults, each for one chosen second k:
 *   GPS_OFF       no pulse (outage: antenna lost)
 *   GPS_FAR       the pulse is displaced by param ns (receiver glitch, a
 *                 bad fix); it still looks like a clean pulse
 *   GPS_GLITCH    an extra short pulse of param ns width, 0.4 interval after
 *                 the real edge (interference on the cable)
 *   GPS_RUNT      the real pulse is only param ns wide (a runt)
 * Outages over a range of seconds: off_from..off_to (inclusive).
 */
#ifndef GPS_MODEL_H
#define GPS_MODEL_H

#include <stdint.h>

#include "sim_rng.h"

enum gps_fault { GPS_OK, GPS_OFF, GPS_FAR, GPS_GLITCH, GPS_RUNT };

#define GPS_MAX_FAULTS 32
#define GPS_MAX_EDGES 6

struct gps_params {
	double interval_ns;	/* the (scaled) second */
	double width_ns;	/* pulse width (100 ms real, scaled) */
	double jitter_rms_ns;	/* NOT scaled: a property of the receiver */
	uint64_t seed;
};

struct gps_model {
	struct gps_params p;
	struct sim_rng rng;
	int64_t off_from, off_to;	/* outage (off_to < off_from: none) */
	int n_faults;
	struct { int64_t k; enum gps_fault f; double param; } faults[GPS_MAX_FAULTS];
};

struct gps_edge {
	double t_ns;
	int level;
};

void gps_init(struct gps_model *g, const struct gps_params *p);
void gps_fault(struct gps_model *g, int64_t k, enum gps_fault f, double param);
void gps_outage(struct gps_model *g, int64_t from_k, int64_t to_k);
/*
 * Edges of second k in time order; *on_time gets the true time of the
 * on-time edge (NaN when the second has no pulse). Returns the count.
 * Must be called for k = 1, 2, ... in order (the jitter draws follow k).
 */
int gps_second(struct gps_model *g, int64_t k, struct gps_edge *e, double *on_time);

#endif /* GPS_MODEL_H */
