/* sp800_22.c -- Berlekamp-Massey, overlapping and block pattern counts (see sp800_22.h). */
#include "sp800_22.h"

#include <stdlib.h>
#include <string.h>

/* Berlekamp-Massey on 64 blocks at once, bit-sliced: word i of an array holds coefficient
 * (or sequence bit) i of all 64 lanes, lane j being block j of the group.  Every lane runs the
 * textbook recursion of Massey (1969) in lock step: at step k the discrepancy of all lanes is one
 * XOR of ANDs, d = XOR_i c[i] & s[k - i] (coefficients of C above a lane's length are zero), then
 * C ^= x^(k - last) B where d is set, and B <- the old C where the length grows.  B is kept already
 * multiplied by x^(k - last): bs[base + i] is its coefficient i, and moving base down one word
 * per step multiplies every lane by x, so the update is a plain masked XOR.
 * s: m words; c: m + 2 words; bs: 2m + 4 words (zero below base); lengths: the 64 outputs. */
static void berlekamp_massey_64(const uint64_t *s, size_t m, uint64_t *c, uint64_t *bs, int32_t *lengths)
{
    memset(c, 0, (m + 2) * sizeof *c);
    memset(bs, 0, (2 * m + 4) * sizeof *bs);
    c[0] = ~(uint64_t)0;
    size_t base = m + 1;
    bs[base + 1] = ~(uint64_t)0; /* x^(0 - (-1)) B, B = 1 */
    int32_t length[64] = {0};
    size_t longest = 0; /* the largest length of any lane: deg C <= longest */
    for (size_t k = 0; k < m; k++) {
        uint64_t d = 0;
        size_t top = longest < k ? longest : k;
        for (size_t i = 0; i <= top; i++) {
            d ^= c[i] & s[k - i];
        }
        if (!d) {
            base--; /* next step: every lane's B one power of x higher */
            continue;
        }
        /* The lanes whose length grows (d set and 2 L <= k), branch-free: d's bits are random. */
        uint64_t grow = 0;
        int32_t step = (int32_t)k, most = (int32_t)longest;
        for (unsigned j = 0; j < 64; j++) {
            int32_t g = (int32_t)(d >> j & 1u) & (2 * length[j] <= step);
            grow |= (uint64_t)g << j;
            length[j] = g ? step + 1 - length[j] : length[j];
            most = length[j] > most ? length[j] : most;
        }
        longest = (size_t)most;
        /* Every lane's new C, its x^(k - last) B and (where it grows) its new B have degree at most
           its new length (deg C <= L always; deg x^(k - last) B <= k + 1 - L_old, which is the new
           length where the lane grows and below L_old + 1 where it does not), so coefficients above
           the longest new length are zero in all three: only 0 .. min(longest, k + 1, m) change. */
        size_t hi = k + 1 < m ? k + 1 : m;
        hi = longest < hi ? longest : hi;
        uint64_t *b = bs + base;
        for (size_t i = 0; i <= hi; i++) {
            uint64_t old = c[i];
            c[i] = old ^ (b[i] & d);
            b[i] = (old & grow) | (b[i] & ~grow);
        }
        base--;
    }
    memcpy(lengths, length, sizeof length);
}

int stat_sp800_linear_complexity(const uint8_t *bits, size_t blocks, size_t m, int32_t *out)
{
    if (m == 0 || (blocks > 0 && (bits == NULL || out == NULL))) {
        return STAT_E_ARGUMENT;
    }
    if (blocks == 0) {
        return STAT_OK;
    }
    uint64_t *scratch = calloc(m + (m + 2) + (2 * m + 4), sizeof *scratch);
    if (scratch == NULL) {
        return STAT_E_MEMORY;
    }
    uint64_t *s = scratch, *c = scratch + m, *bs = scratch + 2 * m + 2;
    int32_t lengths[64];
    for (size_t first = 0; first < blocks; first += 64) {
        size_t lanes = blocks - first < 64 ? blocks - first : 64; /* lanes past the end stay zero */
        memset(s, 0, m * sizeof *s);
        for (size_t j = 0; j < lanes; j++) {
            const uint8_t *block = bits + (first + j) * m;
            for (size_t k = 0; k < m; k++) {
                s[k] |= (uint64_t)(block[k] & 1u) << j;
            }
        }
        berlekamp_massey_64(s, m, c, bs, lengths);
        memcpy(out + first, lengths, lanes * sizeof *out);
    }
    free(scratch);
    return STAT_OK;
}

int stat_sp800_pattern_counts(const uint8_t *bits, size_t n, unsigned m, uint64_t *counts)
{
    if (m < 1 || m > STAT_SP800_MAX_PATTERN || bits == NULL || counts == NULL || n < (size_t)m - 1 || n == 0) {
        return STAT_E_ARGUMENT;
    }
    const uint32_t mask = (uint32_t)((1ull << m) - 1);
    memset(counts, 0, ((size_t)1 << m) * sizeof *counts);
    uint32_t v = 0;
    for (unsigned i = 0; i + 1 < m; i++) { /* the first m - 1 bits fill the register */
        v = (v << 1) | (bits[i] & 1u);
    }
    for (size_t i = m - 1; i < n; i++) {
        v = ((v << 1) | (bits[i] & 1u)) & mask;
        counts[v]++;
    }
    for (unsigned i = 0; i + 1 < m; i++) { /* the m - 1 windows that wrap to the start */
        v = ((v << 1) | (bits[i] & 1u)) & mask;
        counts[v]++;
    }
    return STAT_OK;
}

int stat_sp800_block_pattern_counts(const uint8_t *bits, size_t blocks, size_t size, unsigned m, uint64_t *counts)
{
    if (m < 1 || m > STAT_SP800_MAX_PATTERN || size < m || (blocks > 0 && (bits == NULL || counts == NULL))) {
        return STAT_E_ARGUMENT;
    }
    const uint32_t mask = (uint32_t)((1ull << m) - 1);
    const size_t values = (size_t)1 << m;
    memset(counts, 0, blocks * values * sizeof *counts);
    for (size_t j = 0; j < blocks; j++) {
        const uint8_t *s = bits + j * size;
        uint64_t *row = counts + j * values;
        uint32_t v = 0;
        for (unsigned i = 0; i + 1 < m; i++) {
            v = (v << 1) | (s[i] & 1u);
        }
        for (size_t i = m - 1; i < size; i++) {
            v = ((v << 1) | (s[i] & 1u)) & mask;
            row[v]++;
        }
    }
    return STAT_OK;
}
