/* sp800_22_rank.c -- GF(2) ranks of bit matrices on 64-bit row words (see sp800_22_rank.h). */
#include "sp800_22_rank.h"

#include <stdlib.h>

/* Rank of the `rows` words of `w` (destroyed). */
static int32_t gf2_rank(uint64_t *w, size_t rows, unsigned cols)
{
    size_t rank = 0;
    for (unsigned bit = 0; bit < cols && rank < rows; bit++) {
        uint64_t mask = (uint64_t)1 << bit;
        size_t pivot = rank;
        while (pivot < rows && !(w[pivot] & mask)) {
            pivot++;
        }
        if (pivot == rows) {
            continue;
        }
        uint64_t p = w[pivot];
        w[pivot] = w[rank];
        w[rank] = p;
        for (size_t r = rank + 1; r < rows; r++) {
            w[r] ^= p & (uint64_t)-(int64_t)((w[r] >> bit) & 1u); /* branch-free: XOR where the bit is set */
        }
        rank++;
    }
    return (int32_t)rank;
}

int stat_sp800_ranks(const uint8_t *bits, size_t matrices, size_t rows, unsigned cols, int32_t *ranks)
{
    if (rows == 0 || cols < 1 || cols > 64 || (matrices > 0 && (bits == NULL || ranks == NULL))) {
        return STAT_E_ARGUMENT;
    }
    if (matrices == 0) {
        return STAT_OK;
    }
    uint64_t *w = malloc(rows * sizeof *w);
    if (w == NULL) {
        return STAT_E_MEMORY;
    }
    const uint8_t *s = bits;
    for (size_t j = 0; j < matrices; j++) {
        for (size_t r = 0; r < rows; r++) {
            uint64_t word = 0;
            for (unsigned c = 0; c < cols; c++) {
                word = (word << 1) | (s[c] & 1u);
            }
            w[r] = word;
            s += cols;
        }
        ranks[j] = gf2_rank(w, rows, cols);
    }
    free(w);
    return STAT_OK;
}
