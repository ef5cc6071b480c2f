/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Deterministic random numbers for the bus models (xorshift64*, seeded
 * through splitmix64 so small seeds give unrelated streams). Every random
 * choice of a model comes from its own stream: a run is a function of its
 * seeds only.
 */
#ifndef PCI_RNG_H
#define PCI_RNG_H

#include <stdint.h>

struct pci_rng {
	uint64_t s;
};

void pci_rng_seed(struct pci_rng *r, uint64_t seed);
uint64_t pci_rng_next(struct pci_rng *r);
/* uniform in 0..n-1 (n > 0) */
uint32_t pci_rng_below(struct pci_rng *r, uint32_t n);
/* true with probability pct/100 */
int pci_rng_pct(struct pci_rng *r, unsigned pct);
/* uniform in [0, 1) */
double pci_rng_unit(struct pci_rng *r);
/* exponential with the given mean */
double pci_rng_exp(struct pci_rng *r, double mean);

#endif /* PCI_RNG_H */
