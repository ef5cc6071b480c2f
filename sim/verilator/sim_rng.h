/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Deterministic random numbers for the world models: xoshiro256** seeded by
 * splitmix64, so a run is reproducible from one 64-bit seed on any host.
 * Gaussian deviates by the polar (Marsaglia) method.
 */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include <stdint.h>

struct sim_rng {
	uint64_t s[4];
	int have_spare;
	double spare;
};

void sim_rng_seed(struct sim_rng *r, uint64_t seed);
uint64_t sim_rng_u64(struct sim_rng *r);
/* Uniform in [0, 1). */
double sim_rng_uniform(struct sim_rng *r);
/* Standard normal (mean 0, variance 1). */
double sim_rng_gauss(struct sim_rng *r);

#endif /* SIM_RNG_H */
