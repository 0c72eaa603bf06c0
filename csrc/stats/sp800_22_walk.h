/*
 * sp800_22_walk.h -- the +-1 random walk of three NIST SP 800-22 Rev. 1a tests:
 * cumulative sums (§2.13, stats/nist_cusum.py), random excursions (§2.14,
 * stats/nist_excursions.py) and its variant (§2.15, stats/nist_excursions_variant.py).
 *
 * The walk S_k = sum of 2 x_i - 1 over i <= k is read from one byte per bit
 * (0 or 1) in one pass, in exact integers; the P-values are computed in
 * Python from what these functions return.
 *
 * Cumulative sums: the forward excursion is max |S_k|, k = 1..n; the walk
 * from the end is T_k = S_n - S_(n-k), so the backward excursion is
 * max |S_n - S_j| over j = 0..n-1, which the extremes of S_0..S_(n-1) give:
 * one pass for both modes.
 *
 * Excursions: the walk padded with 0 at both ends splits into J cycles, one
 * ending at each zero of S and, when S_n != 0, one more ending at n.  For the
 * states -4..-1, 1..4, nu[state][k] counts the cycles that visit it exactly
 * k times (k = 5: five or more); xi[state] counts every visit to the states
 * -9..-1, 1..9 over the whole walk.
 */
#ifndef STAT_SP800_22_WALK_H
#define STAT_SP800_22_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
#define STAT_SP800_EXCURSION_STATES 8    /* -4..-1, 1..4 */
#define STAT_SP800_EXCURSION_CLASSES 6   /* visits 0, 1, 2, 3, 4, >= 5 */
#define STAT_SP800_VARIANT_STATES 18     /* -9..-1, 1..9 */

/* *forward = max |S_k| (k = 1..n), *backward = max |S_n - S_j| (j = 0..n-1).
 * STAT_E_ARGUMENT on n == 0 or NULL pointers, else STAT_OK. */
int stat_sp800_cusum(const uint8_t *bits, size_t n, int64_t *forward, int64_t *backward);

/* *cycles = J; nu[8 * 6] (state-major, states -4..-1, 1..4, classes 0..5) and
 * xi[18] (states -9..-1, 1..9) are overwritten.  STAT_E_ARGUMENT on n == 0 or
 * NULL pointers, else STAT_OK. */
int stat_sp800_excursions(const uint8_t *bits, size_t n, int64_t *cycles, int64_t *nu, int64_t *xi);
/* cffi:end */

#endif
