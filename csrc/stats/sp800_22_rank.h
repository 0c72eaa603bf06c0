/*
 * sp800_22_rank.h -- ranks over GF(2) of the matrices of the binary matrix rank test
 * (NIST SP 800-22 Rev. 1a §2.5, stats/nist_rank.py).
 *
 * Each matrix is `rows` consecutive rows of `cols` bits (cols <= 64), read
 * from one byte per bit (0 or 1), first bit of a row most significant, so a
 * row is one 64-bit word and Gaussian elimination is word XORs: for each
 * column, the first unused row holding it becomes the pivot and is XORed
 * into every later row holding it.  The rank is the number of pivots; it
 * does not depend on the order of the columns or rows eliminated, so the
 * counts (and P-values) equal any other elimination's.
 */
#ifndef STAT_SP800_22_RANK_H
#define STAT_SP800_22_RANK_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
/* ranks[j] = rank over GF(2) of matrix j (bits[j * rows * cols ..), j < matrices.
 * STAT_E_ARGUMENT on rows == 0, cols outside 1..64 or NULL pointers with
 * matrices > 0, STAT_E_MEMORY if the row words cannot be allocated, else STAT_OK. */
int stat_sp800_ranks(const uint8_t *bits, size_t matrices, size_t rows, unsigned cols, int32_t *ranks);
/* cffi:end */

#endif
