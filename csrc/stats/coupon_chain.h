/*
 * coupon_chain.h -- the Markov chain of the coupon collector's segment
 * length (stats/_exact.py coupon_length_distribution, stats/coupon.py).
 *
 * States are mixed-radix indices of how many categories of each group of
 * equally likely ones have been seen; the chain is stepped max_length - 1
 * times exactly as the element-by-element numpy form steps it: new = state
 * * stay, then for each group g in order, new[i + stride[g]] += state[i] *
 * rate[g][i] for every state i where group g can still grow (elsewhere
 * the rate is 0 and adding the +0 product changes no value), then the
 * probability of the full state is taken out.  Same products and sums in
 * the same order, in IEEE double (the build's -std=c11 contracts no
 * multiply-add), so the figures equal the numpy form's bit for bit
 * (tests/test_stats_classical.py); the final sum stays in numpy.
 */
#ifndef STAT_COUPON_CHAIN_H
#define STAT_COUPON_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h" /* the layer's statuses */

/* cffi:begin */
/* out[r] = P(T = r) for r = 1 .. max_length - 1 (out[0] is left alone);
 * state[states] holds the start distribution and is left holding the
 * distribution after max_length - 1 steps (the full state emptied);
 * stay[states]; rate is groups x states, row g for group g, 0 where the
 * group cannot grow; work[states] is scratch.  STAT_E_ARGUMENT on NULL
 * pointers, no states, a stride outside 1 .. states - 1 or a nonzero
 * rate for a move past the last state, else STAT_OK. */
int stat_coupon_chain(size_t states, size_t groups, const double *stay, const int64_t *stride,
                      const double *rate, size_t max_length, double *out, double *state, double *work);
/* cffi:end */

#endif
