/*
 * shuffle.h -- batched unbiased bounded indices and the Fisher-Yates shuffle
 * built on them (every card shoe, deck and tile set in rngcore.devices).
 *
 * Batched bounded indices (the idea of N. Brackett-Rozinsky and D. Lemire,
 * "Batched Ranged Random Integer Generation", Software: Practice and
 * Experience, 2024; derived here, not copied):
 *
 *   We want k independent indices i_j uniform on [0, b_j) from ONE 64-bit
 *   word x, instead of one word per index.  Multiply down a chain:
 *
 *       x * b_1     = i_1 * 2^64 + r_1        (i_1 = high word, r_1 = low word)
 *       r_1 * b_2   = i_2 * 2^64 + r_2
 *       ...
 *       r_{k-1}*b_k = i_k * 2^64 + r_k
 *
 *   By induction x * P = I * 2^64 + r_k, where P = b_1 * ... * b_k and
 *   I = i_1 * (b_2...b_k) + i_2 * (b_3...b_k) + ... + i_k is the mixed-radix
 *   number whose digits are the i_j (each 0 <= i_j < b_j, so I < P and the
 *   map (i_1..i_k) <-> I is a bijection).  So the chain computes exactly
 *   Lemire's I = floor(x * P / 2^64) with low word r_k = x * P mod 2^64, and
 *   Lemire's rejection rule makes I uniform on [0, P): the words x with a
 *   given I have low words x * P - I * 2^64 that are distinct and step by P
 *   through [0, 2^64), i.e. one per member of the residue class of
 *   -I * 2^64 mod P.  Accepting only r_k >= t = 2^64 mod P keeps the range
 *   [t, 2^64), whose length 2^64 - t is a multiple of P, so it holds exactly
 *   floor(2^64 / P) members of every residue class: every I keeps exactly
 *   floor(2^64 / P) words.  Uniform I means independent uniform digits.  On
 *   rejection the whole batch is redrawn from a fresh word.  t < P, so
 *   r_k >= P accepts at once and the division computing t runs only with
 *   probability < P / 2^64.
 *
 *   The identity also gives r_k = x * P mod 2^64 directly, with one
 *   multiplication, so the acceptance test runs BEFORE the chain and the
 *   indices can be used (swapped) as the chain produces them.
 *
 *   Batch size: the greedy plan takes bounds while the product stays
 *   <= 2^56 (word width minus one eighth), so a batch is rejected with
 *   probability < 2^-8 and a 416-card shuffle uses 59 words, not 415.
 *
 * Reduced word width for the exhaustive proofs.  Every exported function
 * takes `bits`, the width of the source's words; production passes 64.  A
 * test engine of width w returns each w-bit word y left-aligned, x = y <<
 * (64 - w).  The chain above then computes, bit for bit, the w-bit chain
 * shifted left by 64 - w (x * b keeps the low 64 - w bits zero), so its
 * indices are the w-bit chain's and r_k = (y * P mod 2^w) << (64 - w); and
 * 2^64 mod (P << (64 - w)) = (2^w mod P) << (64 - w).  So the SAME compiled
 * code, comparing r_k with PL = P << (64 - w) and with 2^64 mod PL (for
 * w = 64: P and 2^64 mod P), runs Lemire's rule on w-bit words, and
 * enumerating every sequence of w-bit words exercises exactly the
 * instructions that production runs: `bits` only changes the plan (the
 * product limit) and the shift that makes PL.
 *
 * No modulo of the draw and no float scaling ever picks an outcome.
 */
#ifndef RNG_SHUFFLE_H
#define RNG_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>
#include "bounded.h" /* rng_mul64: the 64 x 64 -> 128-bit product */
#include "rng_source.h"

/* Most indices one word may carry (bounds 2, 2, 2, ... would allow 56). */
#define RNG_BATCH_MAX 24

/* cffi:begin */
/* Fisher-Yates from the end over a[0..n), batched indices from `bits`-bit
 * words (64 in production).  RNG_E_ARGUMENT if bits is outside [2, 64] or
 * n exceeds rng_batch_limit(bits); RNG_E_MEMORY if a plan for a very large
 * n cannot be allocated; else the source's status (RNG_OK normally). */
int rng_shuffle16(rng_source *src, uint16_t *a, size_t n, unsigned bits);

/* The same shuffle over 32-bit items, a[0..n) for n < 2^32: the same plan,
 * the same words and the same swaps as rng_shuffle16 (so for n <= 65536 a
 * shuffled 0..n-1 is identical); for permutations of more than 65536 items. */
int rng_shuffle32(rng_source *src, uint32_t *a, size_t n, unsigned bits);

/* `rows` fresh shuffles: out[r*width ..] = a shuffled copy of fresh[0..width).
 * Row r is exactly what rng_shuffle16 would make of a copy of `fresh` after
 * rows 0..r-1 (one plan, computed once). */
int rng_shuffle16_rows(rng_source *src, const uint16_t *fresh, size_t width,
                       uint16_t *out, size_t rows, unsigned bits);

/* 1 when rng_shuffle16_rows(src, fresh, n, out, rows, bits) runs its rows
 * in 16-row groups with AVX2 index chains (the AVX2 path is selected, see
 * shuffle_avx2.h; rows >= 16; 2 <= n <= 65536); 0 when every row takes the
 * scalar kernel.  Both give identical output; this reports speed only. */
int rng_shuffle_uses_groups(size_t n, size_t rows);

/* Largest product a batch may have for `bits`-bit words: 2^(bits - max(1, bits/8));
 * 0 if bits is outside [2, 64]. */
uint64_t rng_batch_limit(unsigned bits);
/* cffi:end */

/*
 * Is x an accepted word for a batch of product P (pl = P << (64 - bits))?
 * The chain's final low word is r_k = x * P mod 2^64 (see above), so the
 * test needs one multiplication and runs before any index is formed; the
 * division computing t runs only when r_k < PL (probability < 2^-8).
 */
static inline int rng_batch_accept(uint64_t x, uint64_t product, uint64_t pl)
{
    uint64_t r = x * product;
    return r >= pl || r >= (0 - pl) % pl; /* (2^64 - PL) mod PL == 2^64 mod PL == t < PL */
}

/* Could x be rejected at all?  Only if r_k = x * P mod 2^64 < PL (then the
 * division above decides); a word that is not near is accepted. */
static inline int rng_batch_near(uint64_t x, uint64_t product, uint64_t pl)
{
    return x * product < pl;
}

/*
 * Read words until one is accepted for a batch of product P; returns RNG_OK,
 * or the source's latched status if it failed while a batch was being
 * rejected (so a dead source cannot spin).
 */
static inline int rng_batch_word(rng_source *src, uint64_t product, uint64_t pl, uint64_t *word)
{
    for (;;) {
        uint64_t x = src->next64(src->state);
        if (rng_batch_accept(x, product, pl)) {
            *word = x;
            return RNG_OK;
        }
        if (src->status != RNG_OK) {
            return src->status;
        }
    }
}

/* One step of the chain: the next index on [0, bound) from the running low
 * word *r (which starts as the accepted word x). */
static inline uint32_t rng_batch_next(uint64_t *r, uint32_t bound)
{
    return (uint32_t)rng_mul64(*r, bound, r);
}

#endif
