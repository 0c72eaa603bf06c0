/*
 * sp800_22_universal.h -- the distances of Maurer's universal statistical test
 * (NIST SP 800-22 Rev. 1a §2.9, stats/nist_universal.py).
 *
 * The sequence (one byte per bit, 0 or 1) is read as L-bit blocks, first bit
 * most significant; blocks 1..Q fill the table of the last (1-based) index at
 * which each value was seen (0: never), and each block i = Q + 1..Q + K
 * gives the distance i - last[value] and updates the table.  One pass with a
 * 2^L table; the logarithms and their sum stay in Python (numpy's log2 and
 * pairwise sum), so f_n is the same to the last bit.
 */
#ifndef STAT_SP800_22_UNIVERSAL_H
#define STAT_SP800_22_UNIVERSAL_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
#define STAT_SP800_MAX_UNIVERSAL_BLOCK 16

/* distances[i - Q - 1] for the blocks i = Q + 1..Q + K of bits[0 .. (Q + K) L).
 * STAT_E_ARGUMENT on L outside 1..STAT_SP800_MAX_UNIVERSAL_BLOCK or NULL
 * pointers, STAT_E_MEMORY if the table cannot be allocated, else STAT_OK. */
int stat_sp800_universal_distances(const uint8_t *bits, unsigned l, size_t q, size_t k, int64_t *distances);
/* cffi:end */

#endif
