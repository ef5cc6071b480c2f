/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The card in its world: the Verilator card, its oscillator, a GPS receiver
 * on pps_in, and a truth source on event input 0 (edges at known true
 * times), plus the register sequences the demo and the tests share.
 * Everything reaches the card through card_read32/card_write32 and pins.
 *
 * Time scaling: one simulated PPS interval (interval_ns) stands for one real
 * second; scale = interval_ns / 1e9. See docs/simulation.md.
 */
#ifndef WORLD_H
#define WORLD_H

#include <stdint.h>

#include "card_sim.h"
#include "gps_model.h"
#include "osc_model.h"
#include "sim_rng.h"

#define WORLD_TRUTH_Q 4096

struct world {
	struct card *card;
	struct osc_model osc;
	struct gps_model gps;
	struct sim_rng rng;
	double interval_ns, scale;
	int64_t next_k;		/* next second to schedule */
	int gps_on;		/* drive pps_in */
	int events_per_s;	/* truth edges on event input 0 per interval */
	double event_width_ns;
	/* true times of scheduled truth edges not yet matched to a stamp */
	double truth[WORLD_TRUTH_Q];
	unsigned truth_head, truth_tail;
	int seq_known;
	uint16_t next_seq;
	uint64_t events_lost;	/* per sequence gaps */
	uint64_t capture_delay_ns;	/* id.features.capture_delay * 8 ns */
	int subtract_capture_delay;
};

struct world_params {
	double interval_ns;	/* simulated PPS interval */
	double offset_ppm;	/* oscillator offset at t = 0 */
	uint64_t seed;
	int phase_faithful;	/* osc_params.phase_faithful */
};

void world_init(struct world *w, const struct world_params *p);
void world_free(struct world *w);

/* Read the card identity basics (features) the world needs. */
void world_probe(struct world *w);
/* Set the card's time to true time + offset_ns (host-style: read host
 * clock, write staging registers, strobe). */
void world_set_time(struct world *w, int64_t offset_ns);
/* Card time by a snapshot read; *true_mid gets the true time halfway
 * through the read of time_ns_lo. */
uint64_t world_read_time(struct world *w, double *true_mid);
/* Program the servo for the scaled second: interval, gains (kp, ki, kf as
 * fractions of loop gain 1.0), loss time and minimum gap, then the mode. */
void world_config_servo(struct world *w, double kp, double ki, double kf);
void world_pps_mode(struct world *w, uint32_t mode);
/* Encode gain g (fraction of loop gain 1.0) as mant << 8 | shift. */
uint32_t world_gain_word(double g, double interval_ns);
uint32_t world_pps_state(struct world *w);

/* Truth edges on event input 0 (enables the input in the card). */
void world_events(struct world *w, int per_interval);
/*
 * Pop every stamp waiting in the FIFO and match channel-0 stamps to their
 * true times. For each matched stamp err[i] = stamp - true (ns, minus the
 * capture delay when subtract_capture_delay) and t_true[i] (if not NULL)
 * the true time of the edge. Returns the count stored.
 */
int world_pop_errors(struct world *w, double *err, double *t_true, int max);

/* Run until true time t (ns). */
void world_run_until(struct world *w, double t_ns);
/* Run until just after second k's PPS (k * interval + 0.05 interval): the
 * servo has handled the edge (it takes microseconds). */
void world_run_to_second(struct world *w, int64_t k);

double world_now_s(const struct world *w);	/* in (scaled) seconds */

#endif /* WORLD_H */
