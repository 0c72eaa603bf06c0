/* chacha20_avx2.c -- eight ChaCha20 blocks per step in 256-bit registers.
 *
 * Register x<k> holds state word k of eight consecutive blocks (one block
 * per 32-bit lane), so each quarter round works on eight blocks at once.
 * After the rounds an 8x8 transpose of 32-bit lanes turns "word k of every
 * block" into "words 0-7 (or 8-15) of one block" for plain stores.
 */
#include "chacha20_avx2.h"
#include "chacha20.h"

#if RNG_HAVE_AVX2_PATH
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

int rng_cpu_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

/* Rotations by 16 and 8 are byte shuffles; 12 and 7 need shifts. */
#define ROT16(x) _mm256_shuffle_epi8((x), rot16)
#define ROT8(x) _mm256_shuffle_epi8((x), rot8)
#define ROTL(x, n) _mm256_or_si256(_mm256_slli_epi32((x), (n)), _mm256_srli_epi32((x), 32 - (n)))

/* Two quarter rounds advanced step by step (independent chains interleave). */
#define QR2(a0, b0, c0, d0, a1, b1, c1, d1)                                          \
    do {                                                                             \
        a0 = _mm256_add_epi32(a0, b0); a1 = _mm256_add_epi32(a1, b1);                \
        d0 = ROT16(_mm256_xor_si256(d0, a0)); d1 = ROT16(_mm256_xor_si256(d1, a1));  \
        c0 = _mm256_add_epi32(c0, d0); c1 = _mm256_add_epi32(c1, d1);                \
        b0 = ROTL(_mm256_xor_si256(b0, c0), 12); b1 = ROTL(_mm256_xor_si256(b1, c1), 12); \
        a0 = _mm256_add_epi32(a0, b0); a1 = _mm256_add_epi32(a1, b1);                \
        d0 = ROT8(_mm256_xor_si256(d0, a0)); d1 = ROT8(_mm256_xor_si256(d1, a1));    \
        c0 = _mm256_add_epi32(c0, d0); c1 = _mm256_add_epi32(c1, d1);                \
        b0 = ROTL(_mm256_xor_si256(b0, c0), 7); b1 = ROTL(_mm256_xor_si256(b1, c1), 7); \
    } while (0)

/* Transpose eight registers of eight 32-bit lanes and store lane i's eight
   words at out + 64 * i (the caller passes out or out + 32 for words 8-15). */
static AVX2 void transpose_store(__m256i a0, __m256i a1, __m256i a2, __m256i a3,
                                 __m256i a4, __m256i a5, __m256i a6, __m256i a7,
                                 uint8_t *out)
{
    __m256i t0 = _mm256_unpacklo_epi32(a0, a1), t1 = _mm256_unpackhi_epi32(a0, a1);
    __m256i t2 = _mm256_unpacklo_epi32(a2, a3), t3 = _mm256_unpackhi_epi32(a2, a3);
    __m256i t4 = _mm256_unpacklo_epi32(a4, a5), t5 = _mm256_unpackhi_epi32(a4, a5);
    __m256i t6 = _mm256_unpacklo_epi32(a6, a7), t7 = _mm256_unpackhi_epi32(a6, a7);
    /* u0: words 0-3 of blocks 0 (low half) and 4 (high half); u1: blocks 1, 5; ... */
    __m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    __m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    __m256i u4 = _mm256_unpacklo_epi64(t4, t6), u5 = _mm256_unpackhi_epi64(t4, t6);
    __m256i u6 = _mm256_unpacklo_epi64(t5, t7), u7 = _mm256_unpackhi_epi64(t5, t7);
    _mm256_storeu_si256((__m256i *)(out + 0 * 64), _mm256_permute2x128_si256(u0, u4, 0x20));
    _mm256_storeu_si256((__m256i *)(out + 1 * 64), _mm256_permute2x128_si256(u1, u5, 0x20));
    _mm256_storeu_si256((__m256i *)(out + 2 * 64), _mm256_permute2x128_si256(u2, u6, 0x20));
    _mm256_storeu_si256((__m256i *)(out + 3 * 64), _mm256_permute2x128_si256(u3, u7, 0x20));
    _mm256_storeu_si256((__m256i *)(out + 4 * 64), _mm256_permute2x128_si256(u0, u4, 0x31));
    _mm256_storeu_si256((__m256i *)(out + 5 * 64), _mm256_permute2x128_si256(u1, u5, 0x31));
    _mm256_storeu_si256((__m256i *)(out + 6 * 64), _mm256_permute2x128_si256(u2, u6, 0x31));
    _mm256_storeu_si256((__m256i *)(out + 7 * 64), _mm256_permute2x128_si256(u3, u7, 0x31));
}

AVX2 void rng_chacha20_avx2_groups(const uint32_t key[8], uint64_t counter, uint64_t stream,
                                   uint8_t *out, size_t ngroups)
{
    const __m256i rot16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                           2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    const __m256i rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
                                          3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    __m256i in[16];
    in[0] = _mm256_set1_epi32(0x61707865);
    in[1] = _mm256_set1_epi32(0x3320646e);
    in[2] = _mm256_set1_epi32(0x79622d32);
    in[3] = _mm256_set1_epi32(0x6b206574);
    for (int i = 0; i < 8; i++) {
        in[4 + i] = _mm256_set1_epi32((int)key[i]);
    }
    in[14] = _mm256_set1_epi32((int)(uint32_t)stream);
    in[15] = _mm256_set1_epi32((int)(uint32_t)(stream >> 32));

    for (size_t g = 0; g < ngroups; g++, out += 512, counter += 8) {
        /* Per-lane 64-bit counters, computed in scalar so the carry from
           word 12 into word 13 (and the wrap at 2^64) is exact. */
        uint32_t lo[8], hi[8];
        for (int i = 0; i < 8; i++) {
            lo[i] = (uint32_t)(counter + (uint64_t)i);
            hi[i] = (uint32_t)((counter + (uint64_t)i) >> 32);
        }
        in[12] = _mm256_loadu_si256((const __m256i *)lo);
        in[13] = _mm256_loadu_si256((const __m256i *)hi);

        /* Sixteen rows, a rotation temporary and the shuffle masks do not
           fit in sixteen registers.  Rather than let the compiler spill on
           the critical path, two of the four "c" rows (words 8-11) are kept
           in memory at any time and swapped between quarter-round pairs,
           where the store and the load are off the dependency chains
           (volatile pins them there). */
        volatile __m256i spill_hi[2], spill_lo[2];
        __m256i x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
        __m256i x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
        __m256i x8 = in[8], x9 = in[9], x10, x11;
        __m256i x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
        spill_hi[0] = in[10];
        spill_hi[1] = in[11];
        for (int r = 0; r < 10; r++) {
            /* column round; x10, x11 in memory */
            QR2(x0, x4, x8, x12, x1, x5, x9, x13);
            spill_lo[0] = x8;
            spill_lo[1] = x9;
            x10 = spill_hi[0];
            x11 = spill_hi[1];
            QR2(x2, x6, x10, x14, x3, x7, x11, x15);
            /* diagonal round; x8, x9 in memory */
            QR2(x0, x5, x10, x15, x1, x6, x11, x12);
            spill_hi[0] = x10;
            spill_hi[1] = x11;
            x8 = spill_lo[0];
            x9 = spill_lo[1];
            QR2(x2, x7, x8, x13, x3, x4, x9, x14);
        }
        x10 = spill_hi[0];
        x11 = spill_hi[1];
        x0 = _mm256_add_epi32(x0, in[0]);
        x1 = _mm256_add_epi32(x1, in[1]);
        x2 = _mm256_add_epi32(x2, in[2]);
        x3 = _mm256_add_epi32(x3, in[3]);
        x4 = _mm256_add_epi32(x4, in[4]);
        x5 = _mm256_add_epi32(x5, in[5]);
        x6 = _mm256_add_epi32(x6, in[6]);
        x7 = _mm256_add_epi32(x7, in[7]);
        x8 = _mm256_add_epi32(x8, in[8]);
        x9 = _mm256_add_epi32(x9, in[9]);
        x10 = _mm256_add_epi32(x10, in[10]);
        x11 = _mm256_add_epi32(x11, in[11]);
        x12 = _mm256_add_epi32(x12, in[12]);
        x13 = _mm256_add_epi32(x13, in[13]);
        x14 = _mm256_add_epi32(x14, in[14]);
        x15 = _mm256_add_epi32(x15, in[15]);
        transpose_store(x0, x1, x2, x3, x4, x5, x6, x7, out);
        transpose_store(x8, x9, x10, x11, x12, x13, x14, x15, out + 32);
    }
}

#else /* no AVX2 path in this build */

int rng_cpu_has_avx2(void)
{
    return 0;
}

void rng_chacha20_avx2_groups(const uint32_t key[8], uint64_t counter, uint64_t stream,
                              uint8_t *out, size_t ngroups)
{
    (void)key; (void)counter; (void)stream; (void)out; (void)ngroups;
}

#endif
