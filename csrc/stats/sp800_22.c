/* sp800_22.c -- Berlekamp-Massey, overlapping and block pattern counts (see sp800_22.h). */
#include "sp800_22.h"

#include <stdlib.h>
#include <string.h>

/* Bits [r, r + 64) of the word array (r >= 0), read across two words. */
static inline uint64_t bits_at(const uint64_t *words, size_t r)
{
    size_t q = r / 64;
    unsigned o = (unsigned)(r % 64);
    return o ? (words[q] >> o) | (words[q + 1] << (64 - o)) : words[q];
}

/* Linear complexity of s[0..m).  Scratch: rev, c, b, t of `width` words each,
 * width >= m / 64 + 2. */
static int32_t berlekamp_massey(const uint8_t *s, size_t m, size_t width, uint64_t *rev, uint64_t *c,
                                uint64_t *b, uint64_t *t)
{
    /* rev bit m - 1 - j holds s_j, so the window s_k, s_(k-1), ... (bit i = s_(k - i)) is rev
       read from bit m - 1 - k; the bits above m - 1 and the last word are zero. */
    memset(rev, 0, width * sizeof *rev);
    for (size_t j = 0; j < m; j++) {
        size_t at = m - 1 - j;
        rev[at / 64] |= (uint64_t)(s[j] & 1u) << (at % 64);
    }
    memset(c, 0, width * sizeof *c);
    memset(b, 0, width * sizeof *b);
    c[0] = b[0] = 1;
    size_t length = 0, b_length = 0; /* deg C <= length, deg B <= b_length */
    size_t last = (size_t)-1;        /* the step B was taken at (-1: none yet) */
    for (size_t k = 0; k < m; k++) {
        /* d = parity of popcount(C & window): the parity of the XOR of the words' ANDs. */
        size_t c_words = length / 64 + 1;
        uint64_t folded = 0;
        for (size_t w = 0; w < c_words; w++) {
            folded ^= c[w] & bits_at(rev, m - 1 - k + 64 * w);
        }
        if (!__builtin_parityll(folded)) {
            continue;
        }
        size_t shift = k - last; /* C ^= x^(k - last) B */
        size_t q = shift / 64;
        unsigned o = (unsigned)(shift % 64);
        size_t b_words = b_length / 64 + 1;
        int grow = 2 * length <= k;
        if (grow) {
            memcpy(t, c, c_words * sizeof *c);
        }
        for (size_t w = 0; w < b_words; w++) {
            c[w + q] ^= b[w] << o;
            if (o && w + q + 1 < width) {
                c[w + q + 1] ^= b[w] >> (64 - o);
            }
        }
        if (grow) {
            memset(b, 0, b_words * sizeof *b);
            memcpy(b, t, c_words * sizeof *b);
            b_length = length;
            length = k + 1 - length;
            last = k;
        }
    }
    return (int32_t)length;
}

int stat_sp800_linear_complexity(const uint8_t *bits, size_t blocks, size_t m, int32_t *out)
{
    if (m == 0 || (blocks > 0 && (bits == NULL || out == NULL))) {
        return STAT_E_ARGUMENT;
    }
    if (blocks == 0) {
        return STAT_OK;
    }
    /* deg C <= m, and a zero word above the sequence for bits_at's second word. */
    size_t width = m / 64 + 2;
    uint64_t *scratch = calloc(4 * width, sizeof *scratch);
    if (scratch == NULL) {
        return STAT_E_MEMORY;
    }
    for (size_t j = 0; j < blocks; j++) {
        out[j] = berlekamp_massey(bits + j * m, m, width, scratch, scratch + width, scratch + 2 * width,
                                  scratch + 3 * width);
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
