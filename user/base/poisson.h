/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two Poisson counts compared: the exact conditional test of equal rates
 * (Przyborowski and Wilenski, 1940).  A sampled figure rests on a count of
 * samples, and a count has Poisson noise even in a single run: 0 samples
 * in one file against 3 in another is no evidence of a change.
 */
#ifndef IODIG_POISSON_H
#define IODIG_POISSON_H

#include <stdint.h>

/*
 * Counts @k1 and @k2 seen over exposures @e1 and @e2 (the expected count
 * is rate × exposure): the two-sided p-value of "the two rates are equal".
 * Given n = k1 + k2, k2 is Binomial(n, e2 / (e1 + e2)) under that
 * hypothesis; p sums the probabilities of the outcomes no more likely
 * than the one seen (R's binom.test).  1 when n is 0 or an exposure is
 * not positive.
 */
double poisson_rates_p(uint64_t k1, double e1, uint64_t k2, double e2);

#endif /* IODIG_POISSON_H */
