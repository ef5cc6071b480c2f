// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xoshiro256** (Blackman and Vigna's published algorithm, written from its
 * description) and splitmix64 seeding. Statistical quality is far beyond
 * what jitter and random-walk models need; what matters here is that the
 * sequence depends only on the seed.
 */
#include <math.h>

#include "sim_rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void sim_rng_seed(struct sim_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
	r->have_spare = 0;
	r->spare = 0.0;
}

uint64_t sim_rng_u64(struct sim_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

double sim_rng_uniform(struct sim_rng *r)
{
	/* top 53 bits: every double in [0,1) on the 2^-53 grid */
	return (double)(sim_rng_u64(r) >> 11) * 0x1.0p-53;
}

double sim_rng_gauss(struct sim_rng *r)
{
	double u, v, q;

	if (r->have_spare) {
		r->have_spare = 0;
		return r->spare;
	}
	do {
		u = 2.0 * sim_rng_uniform(r) - 1.0;
		v = 2.0 * sim_rng_uniform(r) - 1.0;
		q = u * u + v * v;
	} while (q >= 1.0 || q == 0.0);
	q = sqrt(-2.0 * log(q) / q);
	r->spare = v * q;
	r->have_spare = 1;
	return u * q;
}
