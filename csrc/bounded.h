/*
 * bounded.h -- unbiased integers on [0, n) by Lemire's nearly divisionless
 * method (D. Lemire, "Fast Random Integer Generation in an Interval",
 * ACM TOMACS 29(1), 2019).
 *
 * Why it is exact: for a uniform 32-bit word x, m = x * n is a 64-bit
 * product whose high word is the candidate.  Each candidate value c owns the
 * words x with floor(x * n / 2^32) = c; there are either floor(2^32 / n) or
 * floor(2^32 / n) + 1 of them.  Rejecting x when the low word of m is below
 * t = 2^32 mod n removes exactly the surplus, leaving every value of [0, n)
 * exactly floor(2^32 / n) words.  The modulo that computes t runs only when
 * the low word is below n, which happens with probability n / 2^32, so the
 * common path has no division.  Rejection probability is t / 2^32 < n / 2^32.
 *
 * No modulo of the draw and no float scaling ever picks an outcome.
 */
#ifndef RNG_BOUNDED_H
#define RNG_BOUNDED_H

#include <stdint.h>
#include "rng_source.h"

/* Uniform on [0, n); n >= 1.  n == 1 returns 0 without consuming a word. */
static inline uint32_t rng_bounded32(rng_source *src, uint32_t n)
{
    if (n <= 1) {
        return 0;
    }
    uint64_t m = (uint64_t)src->next32(src->state) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t t = (uint32_t)(-n) % n; /* 2^32 mod n, computed without 64-bit math */
        while (low < t) {
            m = (uint64_t)src->next32(src->state) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

#endif
