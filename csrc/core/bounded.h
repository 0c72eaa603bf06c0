/*
 * bounded.h -- unbiased integers on [0, max] by Lemire's nearly divisionless
 * method (D. Lemire, "Fast Random Integer Generation in an Interval",
 * ACM TOMACS 29(1), 2019), for words of W = 8, 16, 32 or 64 bits.
 *
 * Why it is exact.  Let n = max + 1 (1 < n < 2^W) and x a uniform W-bit word.
 * The 2W-bit product m = x * n splits into hi = floor(x * n / 2^W), the
 * candidate in [0, n), and lo = x * n mod 2^W.  The words with candidate c
 * are those with c * 2^W <= x * n < (c + 1) * 2^W: an interval of length
 * 2^W / n, holding floor(2^W / n) or floor(2^W / n) + 1 words.  Let
 * t = 2^W mod n.  Within each candidate's interval the lo values are
 * distinct and spaced n apart, starting below n; those with lo < t are the
 * surplus, and removing them leaves exactly floor(2^W / n) words for every
 * candidate.  So: accept x iff lo >= t, and an accepted word's hi is uniform
 * on [0, n); a rejected word is replaced by a fresh one.  Acceptance
 * depends on x alone, so the output is the sequence of hi of the accepted
 * words in order, however the words are fetched (one at a time or in
 * batches).
 *
 * Speed.  t needs a division, but t < n, so any x with lo >= n is accepted
 * without knowing t; the division runs only when lo < n (probability
 * n / 2^W).  The batch routine computes t once per batch, and takes a
 * chunk of words in one vectorisable pass when none of them has lo < n.
 *
 * Rejection rate: t / 2^W < n / 2^W per word.  For 32-bit words and
 * n = 37 it is 2^32 mod 37 = 7 words in 2^32, so each value costs
 * 1 + 1.6e-9 words on average; for any n <= 2^16 it is below 2^-16.
 *
 * Edge cases: max == 0 returns 0 and consumes nothing; max == 2^W - 1
 * returns one raw word.  W-bit words are the next W / 8 bytes of the source,
 * little-endian (rng_source's next32 / next64 for W = 32 / 64, its fill for
 * W = 8 / 16; see rng_source.h: they read the same byte stream).
 *
 * ONE definition, RNG_DEFINE_BOUNDED(W), generates every width, so the
 * exhaustive proofs at W = 8 and 16 (tests/test_core_bias_proof.py, over the
 * enumerating test engine in testengine.h) are proofs of the very code that
 * runs at W = 32 and 64.  No modulo of the draw and no float scaling ever
 * picks an outcome.
 */
#ifndef RNG_BOUNDED_H
#define RNG_BOUNDED_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "byteorder.h"
#include "rng_source.h"

/* Words per batch step: the batch routines fetch this many words with one
   fill call and keep a chunk of this many values on the stack. */
#define RNG_BOUNDED_CHUNK 512

/* ---- W-bit words from a source ----------------------------------------- */

/* (A failed fill may leave bytes unwritten; they read as all ones.) */
static inline uint8_t rng_source_next8(rng_source *src)
{
    uint8_t b[1] = {0xff};
    src->fill(src->state, b, 1);
    return b[0];
}

static inline uint16_t rng_source_next16(rng_source *src)
{
    uint8_t b[2] = {0xff, 0xff};
    src->fill(src->state, b, 2);
    return rng_load16_le(b);
}

static inline uint32_t rng_source_next32(rng_source *src) { return src->next32(src->state); }
static inline uint64_t rng_source_next64(rng_source *src) { return src->next64(src->state); }

static inline uint8_t rng_word_load8(const uint8_t *p) { return p[0]; }
static inline uint16_t rng_word_load16(const uint8_t *p) { return rng_load16_le(p); }
static inline uint32_t rng_word_load32(const uint8_t *p) { return rng_load32_le(p); }
static inline uint64_t rng_word_load64(const uint8_t *p) { return rng_load64_le(p); }

/* ---- W x W -> 2W-bit products: returns hi, stores lo -------------------- */

static inline uint8_t rng_mul8(uint8_t x, uint8_t n, uint8_t *lo)
{
    uint16_t m = (uint16_t)((uint16_t)x * n);
    *lo = (uint8_t)m;
    return (uint8_t)(m >> 8);
}

static inline uint16_t rng_mul16(uint16_t x, uint16_t n, uint16_t *lo)
{
    uint32_t m = (uint32_t)x * n;
    *lo = (uint16_t)m;
    return (uint16_t)(m >> 16);
}

static inline uint32_t rng_mul32(uint32_t x, uint32_t n, uint32_t *lo)
{
    uint64_t m = (uint64_t)x * n;
    *lo = (uint32_t)m;
    return (uint32_t)(m >> 32);
}

static inline uint64_t rng_mul64(uint64_t x, uint64_t n, uint64_t *lo)
{
#if defined(__SIZEOF_INT128__)
    unsigned __int128 m = (unsigned __int128)x * n;
    *lo = (uint64_t)m;
    return (uint64_t)(m >> 64);
#else
    /* Schoolbook on 32-bit halves. */
    uint64_t x0 = (uint32_t)x, x1 = x >> 32, n0 = (uint32_t)n, n1 = n >> 32;
    uint64_t p00 = x0 * n0, p01 = x0 * n1, p10 = x1 * n0, p11 = x1 * n1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    *lo = (mid << 32) | (uint32_t)p00;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/* ---- the one definition ------------------------------------------------ */

/*
 * RNG_DEFINE_BOUNDED(W) defines
 *   uintW_t rng_bounded_maxW(rng_source *src, uintW_t max)
 *       one uniform value on [0, max], words fetched one at a time;
 *   size_t rng_bounded_maxW_batch(rng_source *src, uintW_t max, uintW_t *out, size_t count)
 *       count uniform values on [0, max], the same values as count calls of
 *       rng_bounded_maxW; words fetched RNG_BOUNDED_CHUNK at a time but
 *       never more than the scalar calls would consume.  Returns the number
 *       of values written: count, or fewer if the source failed (then
 *       src->status is negative and the values must be discarded).
 * A failed source returns all-one words, which are always accepted (lo =
 * 2^W - n >= t), and the rejection loop also stops on a failed status.
 */
#define RNG_DEFINE_BOUNDED(W)                                                              \
    static inline uint##W##_t rng_bounded_max##W(rng_source *src, uint##W##_t max)         \
    {                                                                                      \
        if (max == 0) {                                                                    \
            return 0;                                                                      \
        }                                                                                  \
        if (max == UINT##W##_MAX) {                                                        \
            return rng_source_next##W(src);                                                \
        }                                                                                  \
        uint##W##_t n = (uint##W##_t)(max + 1u), lo;                                       \
        uint##W##_t hi = rng_mul##W(rng_source_next##W(src), n, &lo);                      \
        if (lo < n) { /* only now can the word be surplus: find t = 2^W mod n */           \
            uint##W##_t t = (uint##W##_t)((uint##W##_t)(0u - n) % n);                      \
            while (lo < t && src->status == RNG_OK) {                                      \
                hi = rng_mul##W(rng_source_next##W(src), n, &lo);                          \
            }                                                                              \
        }                                                                                  \
        return hi;                                                                         \
    }                                                                                      \
                                                                                           \
    static inline size_t rng_bounded_max##W##_batch(rng_source *src, uint##W##_t max,      \
                                                    uint##W##_t *out, size_t count)        \
    {                                                                                      \
        uint8_t words[RNG_BOUNDED_CHUNK * (W / 8)];                                        \
        size_t done = 0;                                                                   \
        if (max == 0) {                                                                    \
            memset(out, 0, count * sizeof *out);                                           \
            return count;                                                                  \
        }                                                                                  \
        uint##W##_t n = (uint##W##_t)(max + 1u); /* 0 when max is all ones */              \
        uint##W##_t t = n ? (uint##W##_t)((uint##W##_t)(0u - n) % n) : 0;                  \
        while (done < count) {                                                             \
            size_t k = count - done < RNG_BOUNDED_CHUNK ? count - done : RNG_BOUNDED_CHUNK; \
            if (src->fill(src->state, words, k * (W / 8)) != RNG_OK) {                     \
                return done;                                                               \
            }                                                                              \
            if (n == 0) { /* max is all ones: raw words */                                 \
                for (size_t i = 0; i < k; i++) {                                           \
                    out[done++] = rng_word_load##W(words + i * (W / 8));                   \
                }                                                                          \
                continue;                                                                  \
            }                                                                              \
            /* Fast path: a word with lo >= n is accepted whatever t is, so   \
               if no word of the chunk has lo < n, all k are accepted (this   \
               loop has no carried dependency and vectorises).  Otherwise   \
               redo the chunk word by word against t. */                      \
            uint##W##_t *dst = out + done;                                        \
            unsigned any_below = 0;                                               \
            for (size_t i = 0; i < k; i++) {                                      \
                uint##W##_t lo;                                                   \
                dst[i] = rng_mul##W(rng_word_load##W(words + i * (W / 8)), n, &lo);  \
                any_below |= lo < n;                                              \
            }                                                                     \
            if (!any_below) {                                                     \
                done += k;                                                        \
                continue;                                                         \
            }                                                                     \
            for (size_t i = 0; i < k; i++) {                                      \
                uint##W##_t lo;                                                   \
                out[done] = rng_mul##W(rng_word_load##W(words + i * (W / 8)), n, &lo);  \
                done += lo >= t; /* a rejected word's value is overwritten */     \
            }                                                                     \
        }                                                                         \
        return done;                                                                       \
    }

RNG_DEFINE_BOUNDED(8)
RNG_DEFINE_BOUNDED(16)
RNG_DEFINE_BOUNDED(32)
RNG_DEFINE_BOUNDED(64)

/* Uniform on [0, n) for 1 <= n < 2^32 (n <= 1 returns 0, consuming
   nothing): the 32-bit instantiation above. */
static inline uint32_t rng_bounded32(rng_source *src, uint32_t n)
{
    return n <= 1 ? 0 : rng_bounded_max32(src, n - 1);
}

#endif
