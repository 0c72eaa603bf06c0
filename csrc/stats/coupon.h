/*
 * coupon.h -- the segments of the coupon collector's test (stats/coupon.py).
 *
 * The sequence is cut into consecutive segments, each ending at the value
 * that completes the set of k categories seen since the segment started.
 * One pass: a stamp per category (the number of the segment that last saw
 * it) marks it seen in the current segment, so starting a segment costs
 * nothing and no value is looked at twice.  The lengths are exact integers;
 * the chi-square is made in Python from their counts.
 */
#ifndef STAT_COUPON_H
#define STAT_COUPON_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
#define STAT_COUPON_MAX_CATEGORIES 65536

/* Cut values[0 .. n - 1] (one category index in 0..k-1 per value, `width` bytes each: 1 for
 * uint8, 2 for uint16, native order) into whole segments from the start, writing at most
 * max_out segment lengths into lengths[].  *segments = lengths written, *consumed = values
 * those segments cover (where the incomplete segment, if any, begins).  STAT_E_ARGUMENT on
 * k outside 1..STAT_COUPON_MAX_CATEGORIES, a width other than 1 or 2, a value >= k, or NULL
 * pointers; STAT_E_MEMORY if the stamps cannot be allocated; else STAT_OK. */
int stat_coupon_segments(const void *values, size_t n, int width, size_t k, int64_t *lengths, size_t max_out,
                         size_t *segments, size_t *consumed);
/* cffi:end */

#endif
