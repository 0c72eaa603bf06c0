/*
 * pit.h -- the randomized probability integral transform of stats/pit.py, in place.
 *
 * For an outcome in category c with F(c-) = lower[c] and probability p[c],
 * u = lower[c] + w * p[c] with the jitter w ~ U[0, 1) already in u.  One pass,
 * no temporary: numpy's version gathered lower[x] and p[x] into two new
 * arrays, a product and a sum into two more, each as long as the chunk.
 * The product is rounded before the sum, as numpy rounds it (no fused
 * multiply-add: the results are bit for bit numpy's, which
 * tests/test_stats_pit.py checks).
 */
#ifndef STAT_PIT_H
#define STAT_PIT_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
/* u[i] = lower[c] + u[i] * p[c], c = values[i], for i < n (values of `width` bytes each: 1, 2
 * or 4, unsigned, native order; u holds the jitter on entry).  STAT_E_ARGUMENT on a width
 * other than 1, 2 or 4, a value >= k (u is then partly transformed), or NULL pointers with
 * n > 0; else STAT_OK. */
int stat_pit(const void *values, size_t n, int width, size_t k, const double *lower, const double *p, double *u);
/* cffi:end */

#endif
