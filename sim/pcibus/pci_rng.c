/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "pci_rng.h"

void pci_rng_seed(struct pci_rng *r, uint64_t seed)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15ull;

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	r->s = z ? z : 1;   /* xorshift must not start at 0 */
}

uint64_t pci_rng_next(struct pci_rng *r)
{
	uint64_t x = r->s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

uint32_t pci_rng_below(struct pci_rng *r, uint32_t n)
{
	return (uint32_t)((pci_rng_next(r) >> 32) % n);
}

int pci_rng_pct(struct pci_rng *r, unsigned pct)
{
	return pci_rng_below(r, 100) < pct;
}

double pci_rng_unit(struct pci_rng *r)
{
	return (double)(pci_rng_next(r) >> 11) / 9007199254740992.0;
}

double pci_rng_exp(struct pci_rng *r, double mean)
{
	return -mean * log(1.0 - pci_rng_unit(r));
}
