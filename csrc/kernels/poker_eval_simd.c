/*
 * poker_eval_simd.c -- the AVX-512 path of the best five (poker_eval_simd.h)
 * and the choice of path.
 *
 * Layout of one block of sixteen hands of p cards (p = 5..7): the 16 p card
 * bytes are loaded as they lie (hand-major) and one two-register byte
 * permute per four card positions transposes them, so that byte group g
 * (16 bytes) of a register holds card position g of hands 0..15.  Each
 * position's ranks then widen to sixteen 32-bit lanes and index a register
 * of 5^rank (a 16-entry permute), and likewise the suits index their
 * counters.  A card given twice in a hand is found by comparing the position
 * groups with each other, rotated, 64 bytes per compare.
 */
#include "poker_eval_simd.h"
#include "poker_eval_lut.h"

#include "dispatch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define AVX512 __attribute__((target("avx512f,avx512bw,avx512vbmi")))

int kern_pk_cpu_has_avx512(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi");
}

/* The bytes of the groups in `groups` (bit g: group g). */
static uint64_t group_bytes(unsigned groups)
{
    uint64_t m = 0;
    for (unsigned g = 0; g < 4; g++) {
        if (groups & (1u << g)) {
            m |= 0xFFFFull << (16 * g);
        }
    }
    return m;
}

/* Groups g whose positions first + g and first + (g + r) % 4 are both cards (< p). */
static unsigned pair_groups(unsigned first_a, unsigned first_b, unsigned r, unsigned p)
{
    unsigned groups = 0;
    for (unsigned g = 0; g < 4; g++) {
        if (first_a + g < p && first_b + (g + r) % 4 < p) {
            groups |= 1u << g;
        }
    }
    return groups;
}

/* Adds position group G of the rank and suit byte registers to the lane sums. */
#define ADD_POSITION(ranks, suits, G)                                                                           \
    do {                                                                                                        \
        key = _mm512_add_epi32(key, _mm512_permutexvar_epi32(                                                  \
                                        _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(ranks, G)), pow5));      \
        suit = _mm512_add_epi32(suit, _mm512_permutexvar_epi32(                                                 \
                                          _mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(suits, G)), suit_one)); \
    } while (0)

AVX512 int kern_pk_rank_best5_avx512(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t *out)
{
    const unsigned p = per_hand;
    uint8_t rank_of[64] = {0}, suit_of[64] = {0}, idx0[64], idx1[64];
    uint32_t pow5_of[16] = {0}, suit_one_of[16] = {0};
    for (unsigned c = 0; c < 52; c++) {
        rank_of[c] = (uint8_t)((c % 13 + 12) % 13); /* the rank bit of KERN_PK_CARD */
        suit_of[c] = (uint8_t)(c / 13);
        pow5_of[rank_of[c]] = (uint32_t)kern_pk_card_key[c];
        suit_one_of[suit_of[c]] = kern_pk_suit_one[c];
    }
    for (unsigned g = 0; g < 4; g++) {
        for (unsigned j = 0; j < 16; j++) {
            idx0[16 * g + j] = (uint8_t)(p * j + g);
            idx1[16 * g + j] = (uint8_t)(4 + g < p ? p * j + 4 + g : 0);
        }
    }
    const __m512i ranks_t = _mm512_loadu_si512(rank_of), suits_t = _mm512_loadu_si512(suit_of);
    const __m512i pow5 = _mm512_loadu_si512(pow5_of), suit_one = _mm512_loadu_si512(suit_one_of);
    const __m512i i0 = _mm512_loadu_si512(idx0), i1 = _mm512_loadu_si512(idx1);
    const __m512i m1 = _mm512_set1_epi32((int)kern_pk_lut.m1), m2 = _mm512_set1_epi32((int)kern_pk_lut.m2);
    const __m512i flush_add = _mm512_set1_epi32(0x3333), flush_bits = _mm512_set1_epi32(0x8888);
    const __m512i no_card = _mm512_set1_epi8(52);
    /* which byte groups hold two card positions to compare: within 0..3
     * (rotated by 1 and 2 groups: every pair), within 4..p-1, and across */
    const uint64_t in1_r1 = group_bytes(pair_groups(4, 4, 1, p)), in1_r2 = group_bytes(pair_groups(4, 4, 2, p));
    uint64_t across[4];
    for (unsigned r = 0; r < 4; r++) {
        across[r] = group_bytes(pair_groups(0, 4, r, p));
    }
    for (uint64_t h = 0; h < hands; h += 16) {
        const uint8_t *c = cards + h * p;
        unsigned n = hands - h < 16 ? (unsigned)(hands - h) : 16;
        unsigned bytes = n * p;
        __mmask16 lanes = (__mmask16)(n == 16 ? 0xFFFFu : (1u << n) - 1);
        uint64_t live = (uint64_t)lanes * 0x0001000100010001ull; /* the lanes of every group */
        __m512i a = _mm512_maskz_loadu_epi8(bytes >= 64 ? ~0ull : (1ull << bytes) - 1, c);
        __m512i b = _mm512_maskz_loadu_epi8(bytes > 64 ? (1ull << (bytes - 64)) - 1 : 0, c + 64);
        if (_mm512_cmpge_epu8_mask(a, no_card) | _mm512_cmpge_epu8_mask(b, no_card)) {
            return RNG_E_ARGUMENT; /* a byte that is no card (the bytes not loaded are 0) */
        }
        __m512i p0 = _mm512_permutex2var_epi8(a, i0, b), p1 = _mm512_permutex2var_epi8(a, i1, b);
        __mmask64 same = _mm512_mask_cmpeq_epi8_mask(live, p0, _mm512_alignr_epi64(p0, p0, 2)) |
                         _mm512_mask_cmpeq_epi8_mask(live, p0, _mm512_alignr_epi64(p0, p0, 4)) |
                         _mm512_mask_cmpeq_epi8_mask(live & in1_r1, p1, _mm512_alignr_epi64(p1, p1, 2)) |
                         _mm512_mask_cmpeq_epi8_mask(live & in1_r2, p1, _mm512_alignr_epi64(p1, p1, 4)) |
                         _mm512_mask_cmpeq_epi8_mask(live & across[0], p0, p1) |
                         _mm512_mask_cmpeq_epi8_mask(live & across[1], p0, _mm512_alignr_epi64(p1, p1, 2)) |
                         _mm512_mask_cmpeq_epi8_mask(live & across[2], p0, _mm512_alignr_epi64(p1, p1, 4)) |
                         _mm512_mask_cmpeq_epi8_mask(live & across[3], p0, _mm512_alignr_epi64(p1, p1, 6));
        if (same) {
            return RNG_E_ARGUMENT;
        }
        __m512i r0 = _mm512_permutexvar_epi8(p0, ranks_t), s0 = _mm512_permutexvar_epi8(p0, suits_t);
        __m512i r1 = _mm512_permutexvar_epi8(p1, ranks_t), s1 = _mm512_permutexvar_epi8(p1, suits_t);
        __m512i key = _mm512_setzero_si512(), suit = _mm512_setzero_si512();
        ADD_POSITION(r0, s0, 0);
        ADD_POSITION(r0, s0, 1);
        ADD_POSITION(r0, s0, 2);
        ADD_POSITION(r0, s0, 3);
        ADD_POSITION(r1, s1, 0);
        if (p > 5) {
            ADD_POSITION(r1, s1, 1);
        }
        if (p > 6) {
            ADD_POSITION(r1, s1, 2);
        }
        /* kern_pk_lut_value: a suit counter >= 5 is a flush, else the hash */
        __mmask16 flush = _mm512_mask_test_epi32_mask(lanes, _mm512_add_epi32(suit, flush_add), flush_bits);
        __mmask16 plain = lanes & (__mmask16)~flush;
        __m512i bucket = _mm512_srli_epi32(_mm512_mullo_epi32(key, m1), 32 - KERN_PK_LUT_BUCKET_BITS);
        __m512i disp = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), plain, bucket, kern_pk_lut.disp, 4);
        __m512i slot = _mm512_xor_si512(_mm512_srli_epi32(_mm512_mullo_epi32(key, m2), 32 - KERN_PK_LUT_SLOT_BITS), disp);
        __m512i value = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), plain, slot, kern_pk_lut.value, 4);
        _mm512_mask_storeu_epi32(out + h, plain, value);
        for (unsigned f = flush; f; f &= f - 1) {
            unsigned j = (unsigned)__builtin_ctz(f);
            (void)kern_pk_lut_cards(c + j * p, p, out + h + j); /* no repeats: checked above */
        }
    }
    return RNG_OK;
}

#else /* no AVX-512 path in this build: never called (kern_pk_cpu_has_avx512() is 0) */

int kern_pk_cpu_has_avx512(void)
{
    return 0;
}

int kern_pk_rank_best5_avx512(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t *out)
{
    (void)cards; (void)per_hand; (void)hands; (void)out;
    return RNG_E_ARGUMENT;
}

#endif

/* ---- path selection ---------------------------------------------------- */

static int pk_impl = -1; /* -1 until first use, then KERN_PK_IMPL_* */

static int best_impl(void)
{
    return kern_pk_cpu_has_avx512() ? KERN_PK_IMPL_AVX512 : KERN_PK_IMPL_PORTABLE;
}

int kern_pk_get_impl(void)
{
    return rng_dispatch_get(&pk_impl, best_impl);
}

int kern_pk_set_impl(int impl)
{
    if (impl != KERN_PK_IMPL_PORTABLE && (impl != KERN_PK_IMPL_AVX512 || !kern_pk_cpu_has_avx512())) {
        return RNG_E_ARGUMENT;
    }
    __atomic_store_n(&pk_impl, impl, __ATOMIC_RELAXED);
    return RNG_OK;
}
