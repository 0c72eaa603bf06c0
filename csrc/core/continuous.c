/* continuous.c -- no output block equal to either of the two before it (see continuous.h). */
#include "continuous.h"

#include <string.h>

#include "chacha20.h"
#include "chacha20_avx2.h"
#include "chacha20_avx512.h"
#include "entropy.h"
#include "faults.h"
#include "hmac_drbg.h"
#include "rng_source.h"

#define FP RNG_CONTINUOUS_FINGERPRINT

void rng_continuous_init(rng_continuous *c)
{
    memset(c, 0, sizeof *c);
    c->block = RNG_CONTINUOUS_BLOCK;
}

_Static_assert(RNG_CONTINUOUS_BLOCK == 32, "a block is one rng_sha256_32x4 message");
_Static_assert(sizeof(((rng_continuous *)0)->last) == FP, "fingerprint size");

/* ---- inside a run: a scan that can only miss nothing ----------------------- */

/* Whether some block of p[0 .. count blocks) starts with the 64-bit word
   the block before it, or the one before that, starts with.  Every
   repeated block does, good output almost never (2^-63 a block), so the
   blocks themselves are compared only when this says so.  Branch-free. */
static int words_repeat_portable(const uint8_t *p, size_t count)
{
    uint64_t hit = 0, before = 0, prev, cur;
    memcpy(&prev, p, 8);
    for (size_t i = 1; i < count; i++) {
        memcpy(&cur, p + RNG_CONTINUOUS_BLOCK * i, 8);
        hit |= (prev == cur) | ((i >= 2) & (before == cur));
        before = prev;
        prev = cur;
    }
    return hit != 0;
}

#if RNG_HAVE_AVX2_PATH
#include <immintrin.h>

/* The same scan with a whole block in one 256-bit register: two compares
   and two ORs a block, on the bytes the generator has just written (still
   in L1).  It compares all four words of each block, not only the first,
   so it hits whenever the portable scan does: after the exact compare
   both give the same answer for every input. */
__attribute__((target("avx2"))) static int words_repeat_avx2(const uint8_t *p, size_t count)
{
    __m256i hit = _mm256_setzero_si256();
    __m256i before = _mm256_loadu_si256((const __m256i *)p), prev = before;
    if (count >= 2) {
        prev = _mm256_loadu_si256((const __m256i *)(p + RNG_CONTINUOUS_BLOCK));
        hit = _mm256_cmpeq_epi64(prev, before);
    }
    for (size_t i = 2; i < count; i++) {
        __m256i cur = _mm256_loadu_si256((const __m256i *)(p + RNG_CONTINUOUS_BLOCK * i));
        hit = _mm256_or_si256(hit, _mm256_or_si256(_mm256_cmpeq_epi64(cur, prev), _mm256_cmpeq_epi64(cur, before)));
        before = prev;
        prev = cur;
    }
    return !_mm256_testz_si256(hit, hit);
}
#endif

#if RNG_HAVE_AVX512_PATH
#include <immintrin.h>

/* The portable scan (first words only) eight blocks a step in one 512-bit
   register: the first words of blocks i..i+7 gathered from four loads by
   two permutes and a blend, compared with the same words shifted by one
   and by two blocks.  About a third of the AVX2 scan's work, which at
   AVX-512 keystream speed would cost a sixth of the generation. */
__attribute__((target("avx512f"))) static int words_repeat_avx512(const uint8_t *p, size_t count)
{
    if (count < 8) {
        return words_repeat_portable(p, count);
    }
    const __m512i low4 = _mm512_setr_epi64(0, 4, 8, 12, 0, 4, 8, 12); /* first words of two loads */
    __m512i prev = _mm512_setzero_si512();
    __mmask8 hit = 0, first1 = 0xfe, first2 = 0xfc; /* block 0 has no block before it, block 1 one */
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const uint8_t *q = p + RNG_CONTINUOUS_BLOCK * i;
        __m512i ab = _mm512_permutex2var_epi64(_mm512_loadu_si512((const void *)q), low4,
                                               _mm512_loadu_si512((const void *)(q + 64)));
        __m512i cd = _mm512_permutex2var_epi64(_mm512_loadu_si512((const void *)(q + 128)), low4,
                                               _mm512_loadu_si512((const void *)(q + 192)));
        __m512i cur = _mm512_mask_blend_epi64(0xf0, ab, cd); /* lane j: block i + j */
        hit |= _mm512_mask_cmpeq_epi64_mask(first1, cur, _mm512_alignr_epi64(cur, prev, 7))  /* block - 1 */
               | _mm512_mask_cmpeq_epi64_mask(first2, cur, _mm512_alignr_epi64(cur, prev, 6)); /* block - 2 */
        first1 = first2 = 0xff;
        prev = cur;
    }
    /* The last count % 8 blocks, from two blocks back. */
    return hit != 0 || (i < count && words_repeat_portable(p + RNG_CONTINUOUS_BLOCK * (i - 2), count - i + 2));
}
#endif

/* The scan on ChaCha20's path: AVX-512 or AVX2 where ChaCha20 runs on it
   (so RNGCERT_FORCE_PORTABLE=1 and rng_chacha_set_impl select each). */
static int words_repeat(const uint8_t *p, size_t count)
{
#if RNG_HAVE_AVX512_PATH
    if (rng_chacha_get_impl() == RNG_CHACHA_IMPL_AVX512) {
        return words_repeat_avx512(p, count);
    }
#endif
#if RNG_HAVE_AVX2_PATH
    if (rng_chacha_uses_avx2()) {
        return words_repeat_avx2(p, count);
    }
#endif
    return words_repeat_portable(p, count);
}

/* Whether a block of p[0 .. count blocks) equals one of the two before it. */
static int blocks_repeat(const uint8_t *p, size_t count, size_t b)
{
    for (size_t i = 1; i < count; i++) {
        if (memcmp(p + (i - 1) * b, p + i * b, b) == 0 || (i >= 2 && memcmp(p + (i - 2) * b, p + i * b, b) == 0)) {
            return 1;
        }
    }
    return 0;
}

/* ---- across runs: fingerprints ------------------------------------------ */

/* The fingerprints of the run's first two blocks and its last two (the
   same block more than once in a short run), in one interleaved pass:
   f[0], f[1] for blocks 0 and 1, f[2], f[3] for blocks count - 2 and
   count - 1 (clamped to the run). */
static void fingerprints(const uint8_t *p, size_t count, uint8_t f[4][FP])
{
    size_t b = RNG_CONTINUOUS_BLOCK, last = count - 1;
    const uint8_t *in[4] = {p, p + b * (count > 1), p + b * (last - (count > 1)), p + b * last};
    uint8_t digest[4][32];
    rng_sha256_32x4(in, digest);
    for (int j = 0; j < 4; j++) {
        memcpy(f[j], digest[j], FP);
    }
    rng_memzero(digest, sizeof digest);
}

int rng_continuous_check(rng_continuous *c, uint8_t *batch, size_t n)
{
    rng_fault_output_tamper(batch, n);
    size_t b = c->block, count = n / b;
    if (count == 0) {
        return RNG_OK;
    }
    uint8_t f[4][FP];
    fingerprints(batch, count, f);
    /* Across the border: the first block against the last two kept, the
       second against the last (kept: blocks -2 and -1, this run: 0 and 1). */
    int repeated = (c->kept >= 1 && memcmp(f[0], c->last, FP) == 0)
                   | (c->kept >= 2 && memcmp(f[0], c->before, FP) == 0)
                   | (c->kept >= 1 && count >= 2 && memcmp(f[1], c->last, FP) == 0);
    /* Inside the run: the cheap scan decides; the blocks only on a hit. */
    repeated = repeated || (words_repeat(batch, count) && blocks_repeat(batch, count, b));
    /* Keep the last two blocks' fingerprints (a one-block run keeps the
       one before it as the second). */
    if (count >= 2) {
        memcpy(c->before, f[2], FP);
    } else {
        memcpy(c->before, c->last, FP);
    }
    memcpy(c->last, f[3], FP);
    c->kept = c->kept + count >= 2 ? 2 : 1;
    rng_memzero(f, sizeof f);
    c->blocks += count;
    return repeated ? RNG_E_CONTINUOUS : RNG_OK;
}
