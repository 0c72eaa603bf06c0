/*
 * shuffle_avx2.h -- the batched index chains of 16 shuffles at once (AVX2).
 *
 * rng_shuffle16_rows shuffles its rows in groups of RNG_SHUFFLE_GROUP that
 * share one plan (shuffle.h): every row of a group has the same batches and
 * the same bound at every step; only the accepted words differ.  So step j
 * of batch t is one operation on 16 words, four AVX2 vectors of four
 * 64-bit lanes, and the chains of a group run on the vector unit instead of
 * the (one) scalar 64 x 64 -> 128-bit multiplier, which bounded the scalar
 * kernel.  The swaps stay scalar (shuffle.c).
 *
 * The chain step r * b = i * 2^64 + r' (shuffle.h), for b < 2^32, on 32-bit
 * halves, because AVX2 multiplies 32 x 32 -> 64 bits (vpmuludq).  Keep r as
 * rl (low half) and rh (high half):
 *     lo  = rl * b                 < 2^64, exact
 *     hi  = rh * b                 < 2^64, exact
 *     mid = hi + floor(lo / 2^32)  <= (2^32 - 1)^2 + 2^32 - 1 < 2^64, exact
 * so r * b = mid * 2^32 + (lo mod 2^32), which gives
 *     i   = floor(mid / 2^32)
 *     r'  = (mid mod 2^32) * 2^32 + (lo mod 2^32),
 * i.e. rh' = the low half of mid and rl' = the low half of lo.  vpmuludq
 * reads only the low half of each lane, so rl' = lo and rh' = mid need no
 * masking.  These are the integers the scalar chain (rng_mul64) computes,
 * bit for bit; tests/test_devices_shuffle_paths.py compares the two paths
 * on every n up to 700 and on narrow words full of rejections.
 *
 * Before that, each row's words are checked for being near rejection
 * (rng_batch_near, one 64-bit low product per word) four at a time; a row
 * with none near takes its words at once (shuffle.c).
 *
 * The path exists on x86-64 with GCC or clang (per-function target
 * attribute, no -mavx2 needed) and is used only when ChaCha20 runs on a
 * vector path (rng_chacha_uses_avx2(): AVX2 or AVX-512, both of which have
 * AVX2): RNGCERT_FORCE_PORTABLE=1 and rng_chacha_set_impl switch
 * every SIMD path of the library together.
 */
#ifndef RNG_SHUFFLE_AVX2_H
#define RNG_SHUFFLE_AVX2_H

#include <stddef.h>
#include <stdint.h>
#include "chacha20_avx2.h" /* RNG_HAVE_AVX2_PATH */

/* Rows per group. */
#define RNG_SHUFFLE_GROUP 16

/*
 * Where row l (0..15) of a group keeps its words: lane position
 * rng_shuffle_lane(l) of each batch's 16 words.  This order makes the
 * index stores come out in row order (see shuffle_avx2.c).
 */
static inline unsigned rng_shuffle_lane(unsigned row)
{
    return ((row >> 1) & 3u) * 4u + (row >> 3) * 2u + (row & 1u);
}

/*
 * The indices of a group: words[t * 16 + rng_shuffle_lane(l)] is row l's
 * accepted word for batch t (count[t] steps, bounds from n down); writes
 * idx[i * 16 + l] = row l's index for position n - 1 - i, for i < n - 1.
 * Needs 2 <= n <= 65536 (indices fit 16 bits).  Only call when
 * rng_chacha_uses_avx2() is 1.
 */
void rng_shuffle_group_indices_avx2(const uint32_t *count, size_t batches, uint32_t n,
                                    const uint64_t *words, uint16_t *idx);

/* 1 if any x[t], t < count, is near rejection for a batch of product
 * product[t] (rng_batch_near with PL = product[t] << shift), else 0. */
int rng_shuffle_any_near_avx2(const uint64_t *x, const uint64_t *product, unsigned shift,
                              size_t count);

#endif
