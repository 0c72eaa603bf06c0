/*
 * shuffle_avx2.c -- the index chains of 16 shuffles at once, and the
 * near-rejection check of a row's words; the reasoning is in
 * shuffle_avx2.h.
 */
#include "shuffle_avx2.h"

#include "shuffle.h" /* rng_batch_near */

#if RNG_HAVE_AVX2_PATH
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

/* One chain step on four lanes: (rl, rh) <- (lo, mid); mid's high halves are the indices. */
#define CHAIN_STEP(rl, rh, bound)                                        \
    do {                                                                 \
        __m256i lo_ = _mm256_mul_epu32((rl), (bound));                   \
        __m256i hi_ = _mm256_mul_epu32((rh), (bound));                   \
        (rh) = _mm256_add_epi64(hi_, _mm256_srli_epi64(lo_, 32));        \
        (rl) = lo_;                                                      \
    } while (0)

static inline AVX2 __m256i load_lanes(const uint64_t *p)
{
    return _mm256_loadu_si256((const __m256i *)p);
}

/*
 * The 16 indices of one step, from the four mid vectors, as 16 uint16 in
 * row order.  shuffle_ps(0xDD) takes the high halves of two vectors within
 * each 128-bit half: half H of (v0, v1) gives v0 lanes 2H, 2H+1 then v1
 * lanes 2H, 2H+1; packus narrows (v0, v1) and (v2, v3) side by side, so
 * 16-bit slot 8H + 2v + e holds vector v, lane 2H + e.  rng_shuffle_lane
 * puts row 8H + 2v + e there, so slot l is row l.  (Indices < n <= 65536
 * fit the unsigned saturating narrow exactly.)
 */
static inline AVX2 __m256i step_indices(__m256i m0, __m256i m1, __m256i m2, __m256i m3)
{
    __m256 s01 = _mm256_shuffle_ps(_mm256_castsi256_ps(m0), _mm256_castsi256_ps(m1), 0xDD);
    __m256 s23 = _mm256_shuffle_ps(_mm256_castsi256_ps(m2), _mm256_castsi256_ps(m3), 0xDD);
    return _mm256_packus_epi32(_mm256_castps_si256(s01), _mm256_castps_si256(s23));
}

AVX2 void rng_shuffle_group_indices_avx2(const uint32_t *count, size_t batches, uint32_t n,
                                         const uint64_t *words, uint16_t *idx)
{
    uint32_t b = n; /* the next bound */
    size_t i = 0;   /* the next position index, n - 1 - position */
    for (size_t t = 0; t < batches; t++) {
        const uint64_t *w = words + t * RNG_SHUFFLE_GROUP;
        __m256i l0 = load_lanes(w), l1 = load_lanes(w + 4), l2 = load_lanes(w + 8),
                l3 = load_lanes(w + 12);
        __m256i h0 = _mm256_srli_epi64(l0, 32), h1 = _mm256_srli_epi64(l1, 32),
                h2 = _mm256_srli_epi64(l2, 32), h3 = _mm256_srli_epi64(l3, 32);
        for (uint32_t j = 0; j < count[t]; j++, i++) {
            const __m256i bound = _mm256_set1_epi64x((long long)(b - j));
            CHAIN_STEP(l0, h0, bound);
            CHAIN_STEP(l1, h1, bound);
            CHAIN_STEP(l2, h2, bound);
            CHAIN_STEP(l3, h3, bound);
            _mm256_storeu_si256((__m256i *)(idx + i * RNG_SHUFFLE_GROUP), step_indices(h0, h1, h2, h3));
        }
        b -= count[t];
    }
}

/*
 * Is any of x[0..count) near rejection for its batch, x[t] * P[t] mod 2^64 <
 * P[t] << shift (rng_batch_near)?  AVX2 has no 64 x 64-bit low multiply, so
 * with x = xh * 2^32 + xl and P = Ph * 2^32 + Pl:
 *     x * P mod 2^64 = (xl * Pl + ((xh * Pl + xl * Ph) << 32)) mod 2^64
 * (the xh * Ph * 2^64 term vanishes).  The unsigned comparison is a signed
 * one after flipping both sign bits.
 */
AVX2 int rng_shuffle_any_near_avx2(const uint64_t *x, const uint64_t *product, unsigned shift,
                                   size_t count)
{
    const __m256i sign = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    const __m128i by = _mm_cvtsi32_si128((int)shift);
    __m256i near = _mm256_setzero_si256();
    size_t t = 0;
    for (; t + 4 <= count; t += 4) {
        __m256i xv = load_lanes(x + t), pv = load_lanes(product + t);
        __m256i low = _mm256_mul_epu32(xv, pv);
        __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(xv, 32), pv),
                                         _mm256_mul_epu32(xv, _mm256_srli_epi64(pv, 32)));
        __m256i r = _mm256_add_epi64(low, _mm256_slli_epi64(cross, 32));
        __m256i pl = _mm256_sll_epi64(pv, by);
        near = _mm256_or_si256(near, _mm256_cmpgt_epi64(_mm256_xor_si256(pl, sign), _mm256_xor_si256(r, sign)));
    }
    int any = !_mm256_testz_si256(near, near);
    for (; t < count; t++) {
        any |= rng_batch_near(x[t], product[t], product[t] << shift);
    }
    return any;
}

#else /* no AVX2 path in this build: never called (rng_cpu_has_avx2() is 0) */

void rng_shuffle_group_indices_avx2(const uint32_t *count, size_t batches, uint32_t n,
                                    const uint64_t *words, uint16_t *idx)
{
    (void)count; (void)batches; (void)n; (void)words; (void)idx;
}

int rng_shuffle_any_near_avx2(const uint64_t *x, const uint64_t *product, unsigned shift,
                              size_t count)
{
    (void)x; (void)product; (void)shift; (void)count;
    return 1;
}

#endif
