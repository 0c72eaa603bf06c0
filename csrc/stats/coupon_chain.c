/* coupon_chain.c -- the coupon collector's chain, stepped in C (see coupon_chain.h). */
#include "coupon_chain.h"

#include <string.h>

#if defined(__x86_64__) || defined(__SSE2__)
#include <immintrin.h>
/* Subnormal operands and results as zero (MXCSR DAZ and FTZ) while the
 * chain runs, restored after.  The states of few seen categories decay
 * through the subnormal range over a thousand steps or more, and
 * arithmetic on subnormals costs some hundred times the normal; what is
 * dropped is below 2^-1022 per value, so any out[r] or sum above about
 * 2^-940 is the same double either way (a value of the chain only ever
 * feeds values no larger than itself; every figure used is far larger). */
#define FLUSH_BEGIN unsigned int saved_csr = _mm_getcsr(); _mm_setcsr(saved_csr | 0x8040u);
#define FLUSH_END _mm_setcsr(saved_csr);
#else
#define FLUSH_BEGIN
#define FLUSH_END
#endif

int stat_coupon_chain(size_t states, size_t groups, const double *stay, const int64_t *stride,
                      const double *rate, size_t max_length, double *out, double *state, double *work)
{
    if (states == 0 || stay == NULL || out == NULL || state == NULL || work == NULL
        || (groups > 0 && (stride == NULL || rate == NULL))) {
        return STAT_E_ARGUMENT;
    }
    for (size_t g = 0; g < groups; g++) {
        if (stride[g] <= 0 || (size_t)stride[g] >= states) {
            return STAT_E_ARGUMENT;
        }
        for (size_t i = states - (size_t)stride[g]; i < states; i++) {
            if (rate[g * states + i] != 0.0) {
                return STAT_E_ARGUMENT; /* a move past the last state */
            }
        }
    }
    size_t full = states - 1;
    double *cur = state, *next = work;
    FLUSH_BEGIN
    for (size_t r = 1; r < max_length; r++) {
        for (size_t i = 0; i < states; i++) {
            next[i] = cur[i] * stay[i];
        }
        /* Where group g cannot grow its rate is 0: adding +0 leaves every
           (non-negative) value as it is, so the loop needs no branch. */
        for (size_t g = 0; g < groups; g++) {
            const double *by = rate + g * states;
            size_t step = (size_t)stride[g];
            for (size_t i = 0; i + step < states; i++) {
                next[i + step] += cur[i] * by[i];
            }
        }
        out[r] = next[full];
        next[full] = 0.0;
        double *swap = cur;
        cur = next;
        next = swap;
    }
    FLUSH_END
    if (cur != state) {
        memcpy(state, cur, states * sizeof *state);
    }
    return STAT_OK;
}
