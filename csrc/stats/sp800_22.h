/*
 * sp800_22.h -- the counting loops of four NIST SP 800-22 Rev. 1a tests (stats/nist_*.py).
 *
 * The stats layer (-> stats._kernels, prefix stat_) holds counting kernels for
 * stats/ only: pure functions of arrays, with no link to the core or its
 * generators.
 *
 * The kernels read the sequence as one byte per bit (0 or 1), the layout
 * numpy's unpackbits gives, and only count: every statistic and P-value is
 * computed in Python from what they return.
 *
 * Linear complexity (§2.10, stat_sp800_linear_complexity): Berlekamp-Massey
 * over GF(2), bit-sliced: 64 blocks of m bits run in lock step, one per bit
 * of a 64-bit word, so coefficient i of the connection polynomials C of all
 * 64 blocks is one word, and so is bit k of their sequences.  The
 * discrepancies of all blocks are one XOR of word ANDs, the update
 * C ^= x^(k - last) B one masked XOR per coefficient (B is kept already
 * multiplied by x^(k - last): one step moves every block's B up one power of
 * x by moving where it is read from), and only the lengths are kept per block.
 *
 * Pattern counts (§2.11 serial, §2.12 approximate entropy,
 * stat_sp800_pattern_counts): the counts of the 2^m overlapping m-bit patterns
 * of the sequence wrapped around by its first m - 1 bits, in one pass with a
 * sliding m-bit register.  Because the windows wrap, the counts of every
 * shorter length follow by summing pairs (a (m-1)-pattern v is the prefix of
 * exactly the m-patterns 2v and 2v + 1), so one pass serves ψ²_m, ψ²_(m-1),
 * ψ²_(m-2) and φ(m), φ(m+1) alike.
 *
 * Block pattern counts (§2.7 non-overlapping templates,
 * stat_sp800_block_pattern_counts): the counts of the m-bit windows lying
 * inside each of N disjoint blocks, not wrapped, with the same sliding
 * register.  An aperiodic template cannot overlap itself, so its
 * non-overlapping count in a block is its plain count there, and one pass
 * counts all 148 templates of m = 9 (every other value too) at once.
 */
#ifndef STAT_SP800_22_H
#define STAT_SP800_22_H

#include <stddef.h>
#include <stdint.h>

/* cffi:begin */
/* The statuses this layer returns: the same values as STAT_OK, STAT_E_ARGUMENT and
   STAT_E_MEMORY of the core (tests/test_stats_sp800_22_kernels.py checks it), but
   this layer needs nothing of the core, so stats stays independent of it. */
#define STAT_OK 0
#define STAT_E_ARGUMENT -3
#define STAT_E_MEMORY -5
#define STAT_SP800_MAX_PATTERN 25   /* 2^25 counters: 256 MiB */

/* out[j] = linear complexity of bits[j * m .. j * m + m - 1], j < blocks.
 * STAT_E_ARGUMENT on m == 0 or a NULL pointer with blocks > 0, STAT_E_MEMORY
 * if the word arrays cannot be allocated, else STAT_OK. */
int stat_sp800_linear_complexity(const uint8_t *bits, size_t blocks, size_t m, int32_t *out);

/* counts[v] = how many of the n cyclic windows bits[i], ..., bits[(i + m - 1) mod n]
 * read v (first bit most significant), for the 2^m values v (counts is
 * overwritten).  STAT_E_ARGUMENT on m outside 1..STAT_SP800_MAX_PATTERN,
 * n < m - 1 windows to wrap, or NULL pointers; else STAT_OK. */
int stat_sp800_pattern_counts(const uint8_t *bits, size_t n, unsigned m, uint64_t *counts);

/* counts[j * 2^m + v] = how many windows bits[j * size + i .. j * size + i + m - 1],
 * i = 0..size - m, of block j read v, for j < blocks (counts is overwritten).
 * STAT_E_ARGUMENT on m outside 1..STAT_SP800_MAX_PATTERN, size < m, or NULL
 * pointers with blocks > 0; else STAT_OK. */
int stat_sp800_block_pattern_counts(const uint8_t *bits, size_t blocks, size_t size, unsigned m, uint64_t *counts);
/* cffi:end */

#endif
