/* pit.c -- the randomized PIT in place (see pit.h). */
#include "pit.h"

/* The product is rounded before the sum (numpy's order): never contract them into an fma. */
#pragma STDC FP_CONTRACT OFF

#define STAT_PIT_LOOP(type)                                                                   \
    do {                                                                                      \
        const type *x = values;                                                               \
        for (size_t i = 0; i < n; i++) {                                                      \
            size_t c = x[i];                                                                  \
            if (c >= k) {                                                                     \
                return STAT_E_ARGUMENT;                                                       \
            }                                                                                 \
            double scaled = u[i] * p[c];                                                      \
            u[i] = lower[c] + scaled;                                                         \
        }                                                                                     \
    } while (0)

int stat_pit(const void *values, size_t n, int width, size_t k, const double *lower, const double *p, double *u)
{
    if (n == 0) {
        return STAT_OK;
    }
    if (values == NULL || lower == NULL || p == NULL || u == NULL) {
        return STAT_E_ARGUMENT;
    }
    switch (width) {
    case 1:
        STAT_PIT_LOOP(uint8_t);
        break;
    case 2:
        STAT_PIT_LOOP(uint16_t);
        break;
    case 4:
        STAT_PIT_LOOP(uint32_t);
        break;
    default:
        return STAT_E_ARGUMENT;
    }
    return STAT_OK;
}
