/* sp800_22_walk.c -- cumulative sums and excursion counts of the +-1 walk (see sp800_22_walk.h). */
#include "sp800_22_walk.h"

#include <string.h>

int stat_sp800_cusum(const uint8_t *bits, size_t n, int64_t *forward, int64_t *backward)
{
    if (n == 0 || bits == NULL || forward == NULL || backward == NULL) {
        return STAT_E_ARGUMENT;
    }
    /* lo/hi over S_0..S_(n-1) (S_0 = 0) for the backward mode, over S_1..S_n for the forward one */
    int64_t s = 0, lo = 0, hi = 0, f = 0;
    for (size_t i = 0; i < n; i++) {
        lo = s < lo ? s : lo;
        hi = s > hi ? s : hi;
        s += 2 * (int64_t)(bits[i] & 1u) - 1;
        int64_t a = s < 0 ? -s : s;
        f = a > f ? a : f;
    }
    int64_t up = s - lo, down = hi - s; /* |S_n - S_j| is largest at an extreme of S_j */
    *forward = f;
    *backward = up > down ? up : down;
    return STAT_OK;
}

int stat_sp800_excursions(const uint8_t *bits, size_t n, int64_t *cycles, int64_t *nu, int64_t *xi)
{
    if (n == 0 || bits == NULL || cycles == NULL || nu == NULL || xi == NULL) {
        return STAT_E_ARGUMENT;
    }
    enum { NEAR = 4, FAR = 9 };
    int64_t visits[2 * NEAR + 1] = {0}; /* visits of -4..4 in the current cycle (index state + 4) */
    int64_t all[2 * FAR + 1] = {0};     /* visits of -9..9 in the whole walk (index state + 9) */
    int64_t by_class[2 * NEAR + 1][STAT_SP800_EXCURSION_CLASSES];
    memset(by_class, 0, sizeof by_class);
    int64_t s = 0, j = 0;
    for (size_t i = 0; i < n; i++) {
        s += 2 * (int64_t)(bits[i] & 1u) - 1;
        if (s >= -FAR && s <= FAR) {
            all[s + FAR]++;
            if (s == 0) { /* the cycle ends: class each state by its visits */
                for (int k = 0; k < 2 * NEAR + 1; k++) {
                    by_class[k][visits[k] < 5 ? visits[k] : 5]++;
                    visits[k] = 0;
                }
                j++;
            } else if (s >= -NEAR && s <= NEAR) {
                visits[s + NEAR]++;
            }
        }
    }
    if (s != 0) { /* the walk is padded with a final 0: the last cycle ends at n */
        for (int k = 0; k < 2 * NEAR + 1; k++) {
            by_class[k][visits[k] < 5 ? visits[k] : 5]++;
        }
        j++;
    }
    *cycles = j;
    for (int k = 0, out = 0; k < 2 * NEAR + 1; k++) {
        if (k != NEAR) {
            memcpy(nu + STAT_SP800_EXCURSION_CLASSES * out++, by_class[k], sizeof by_class[k]);
        }
    }
    for (int k = 0, out = 0; k < 2 * FAR + 1; k++) {
        if (k != FAR) {
            xi[out++] = all[k];
        }
    }
    return STAT_OK;
}
