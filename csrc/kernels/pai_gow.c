/*
 * pai_gow.c -- exact Pai Gow counts (pai_gow.h).
 */
#include <string.h>
#include "pai_gow.h"

#define KEY4(a, b, c, d) ((((uint32_t)(a) * KERN_PG_ROWS + (b)) * KERN_PG_ROWS + (c)) * KERN_PG_ROWS + (d))

static const uint8_t CHOOSE[3][5] = {{1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}};

/* 0 win, 1 push, 2 lose for the customer's keys (ch, cl) against the dealer's. */
static inline unsigned settle(uint32_t ch, uint32_t cl, uint32_t dh, uint32_t dl)
{
    unsigned high = ch > dh, low = cl > dl;
    return high & low ? 0 : (high | low) ? 1 : 2;
}

int kern_pg_setting_counts(uint32_t hands, const uint8_t *tiles, const uint32_t *dealer, const uint32_t *settings,
                           const uint8_t *copies, uint64_t *out)
{
    if (hands == 0 || hands > KERN_PG_MAX_HANDS) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t r = 1; r < KERN_PG_ROWS; r++) {
        if (copies[r] > 2) {
            return RNG_E_ARGUMENT;
        }
    }
    for (uint32_t i = 0; i < hands * 4; i++) {
        if (tiles[i] < 1 || tiles[i] >= KERN_PG_ROWS) {
            return RNG_E_ARGUMENT;
        }
    }
    memset(out, 0, (size_t)hands * 9 * sizeof *out);
    for (uint32_t i = 0; i < hands; i++) {
        uint8_t left[KERN_PG_ROWS];
        memcpy(left, copies, sizeof left);
        int possible = 1;
        for (unsigned k = 0; k < 4; k++) {
            possible &= left[tiles[i * 4 + k]] > 0;
            left[tiles[i * 4 + k]] -= left[tiles[i * 4 + k]] > 0;
        }
        if (!possible) {
            continue;
        }
        const uint32_t *mine = settings + (size_t)i * 6;
        uint64_t *row = out + (size_t)i * 9;
        for (uint32_t j = 0; j < hands; j++) {
            const uint8_t *t = tiles + (size_t)j * 4;
            /* ways to take hand j's tiles from what is left: rows are sorted,
             * so equal rows are adjacent (a row appears at most twice) */
            uint64_t w = 1;
            for (unsigned k = 0; k < 4 && w; k++) {
                if (k < 3 && t[k + 1] == t[k]) {
                    w *= CHOOSE[left[t[k]]][2];
                    k++;
                } else {
                    w *= left[t[k]];
                }
            }
            if (!w) {
                continue;
            }
            uint32_t dh = dealer[j * 2], dl = dealer[j * 2 + 1];
            for (unsigned s = 0; s < 3; s++) {
                row[s * 3 + settle(mine[s * 2], mine[s * 2 + 1], dh, dl)] += w;
            }
        }
    }
    return RNG_OK;
}

int kern_pg_enumerate(const uint8_t *set, uint32_t n, const uint16_t *index, uint32_t hands,
                      const uint32_t *dealer, const uint32_t *customer, uint64_t *out)
{
    if (n < 8 || n > 32 || hands == 0 || hands > KERN_PG_MAX_HANDS) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t k = 0; k < n; k++) {
        if (set[k] < 1 || set[k] >= KERN_PG_ROWS || (k && set[k] < set[k - 1])) {
            return RNG_E_ARGUMENT;
        }
    }
    uint64_t tally[3] = {0, 0, 0};
    uint8_t rest[32];
    for (uint32_t a = 0; a < n; a++)
    for (uint32_t b = a + 1; b < n; b++)
    for (uint32_t c = b + 1; c < n; c++)
    for (uint32_t d = c + 1; d < n; d++) {
        uint16_t mine = index[KEY4(set[a], set[b], set[c], set[d])];
        if (mine >= hands) {
            return RNG_E_ARGUMENT;
        }
        uint32_t ch = customer[mine * 2], cl = customer[mine * 2 + 1], m = 0;
        for (uint32_t k = 0; k < n; k++) {
            if (k != a && k != b && k != c && k != d) {
                rest[m++] = set[k]; /* still nondecreasing */
            }
        }
        for (uint32_t e = 0; e < m; e++)
        for (uint32_t f = e + 1; f < m; f++) {
            uint32_t ef = (uint32_t)rest[e] * KERN_PG_ROWS + rest[f];
            for (uint32_t g = f + 1; g < m; g++) {
                uint32_t efg = ef * KERN_PG_ROWS + rest[g];
                for (uint32_t h = g + 1; h < m; h++) {
                    uint16_t theirs = index[efg * KERN_PG_ROWS + rest[h]];
                    if (theirs >= hands) {
                        return RNG_E_ARGUMENT;
                    }
                    tally[settle(ch, cl, dealer[theirs * 2], dealer[theirs * 2 + 1])]++;
                }
            }
        }
    }
    for (unsigned i = 0; i < 3; i++) {
        out[i] += tally[i];
    }
    return RNG_OK;
}
