/*
 * poker.h -- the hands of the poker (partition) test (stats/poker.py).
 *
 * The values are cut into hands of t consecutive values; each hand is
 * classed by how many distinct values it shows: a value is new when none
 * before it in its hand equals it (t(t - 1)/2 comparisons, 10 for Knuth's
 * t = 5), so no hand is sorted or copied and nothing is allocated: numpy's
 * version sorted every hand and compared its neighbours.  Integer counts
 * only (tests/test_stats_classical.py checks them against the set of each
 * hand's values).
 */
#ifndef STAT_POKER_H
#define STAT_POKER_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
#define STAT_POKER_MAX_HAND 64

/* For each of the `hands` hands values[h * t .. h * t + t - 1] (one category index in 0..k-1 per
 * value, `width` bytes each: 1 for uint8, 2 for uint16, native order) with d distinct values,
 * counts[min(d - 1, cells - 1)] += 1.  STAT_E_ARGUMENT on t outside 1..STAT_POKER_MAX_HAND,
 * cells == 0, a width other than 1 or 2, a value >= k (counts then hold the hands before its
 * hand), or NULL pointers; else STAT_OK. */
int stat_poker_tally(const void *values, size_t hands, size_t t, int width, size_t k, int64_t *counts,
                     size_t cells);
/* cffi:end */

#endif
