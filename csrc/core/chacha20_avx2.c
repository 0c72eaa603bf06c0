/* chacha20_avx2.c -- eight ChaCha20 blocks per step in 256-bit registers.
 *
 * Layout ("vertical"): register row k holds state word k of eight
 * consecutive blocks, one block per 32-bit lane, so each quarter round works
 * on eight blocks at once.  After the rounds an 8x8 transpose of 32-bit
 * lanes turns "word k of every block" into "words 0-7 (8-15) of one block".
 *
 * Why inline assembly.  The rounds need sixteen state rows, a rotation
 * temporary and a byte-shuffle mask, and x86-64 has sixteen ymm registers.
 * The schedule that works keeps fourteen rows in registers and two of the
 * four "c" rows (words 8-11) in memory, swapped between quarter-round pairs
 * where the store and the load are off the dependency chains.  Written with
 * intrinsics, GCC 12 kept other rows on the stack as well (36 stack
 * accesses per double round where 8 are needed) and the kernel ran at
 * 0.86x OpenSSL's ChaCha20; with the register map fixed here it runs at
 * about 1.0x on a CPU without AVX-512, where OpenSSL runs AVX2 too
 * (measured in the same run; benchmarks/bench_core.py compares the whole
 * fill path; on an AVX-512 CPU, chacha20_avx512.c).  The instructions are plain: add, xor, shifts, or,
 * byte shuffles, unpacks, moves.  Every value's place is named below;
 * offsets into group_state are pinned by static_asserts.
 *
 * Measured on AMD Zen 3: a double round takes ~46.5 cycles for 128 vector
 * operations.  Shifts and shuffles (6 of each quarter round's 16) share
 * two pipes and the four chains of a half round reach them together;
 * reordering the chains, multiplying instead of shifting, interleaving two
 * groups through memory and computing a ninth block in the scalar unit
 * alongside were tried and were slower or unreliable.  The transpose and
 * stores take ~5% of a group.
 */
#include "chacha20_avx2.h"

#include <stddef.h>

#include "chacha20.h"
#include "entropy.h"

#if RNG_HAVE_AVX2_PATH
#include <immintrin.h>

#define AVX2 __attribute__((target("avx2")))

int rng_cpu_has_avx2(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") ? 1 : 0;
}

/* What one group reads and writes besides the output (addressed from the
   asm as offset(%[st])). */
typedef struct group_state {
    __m256i in[16]; /* input rows: constants, key, counters of lanes 0-7, stream */
    __m256i x[8];   /* rows 8-15: c rows waiting during the rounds, staging after */
    __m256i rot16;  /* vpshufb masks rotating each 32-bit lane left by 16, by 8 */
    __m256i rot8;
} group_state;

_Static_assert(offsetof(group_state, in) == 0, "asm offset of in");
_Static_assert(offsetof(group_state, x) == 512, "asm offset of x");
_Static_assert(offsetof(group_state, rot16) == 768, "asm offset of rot16");
_Static_assert(offsetof(group_state, rot8) == 800, "asm offset of rot8");

#define STR_(x) #x
#define STR(x) STR_(x)

/* Memory operands. */
#define IN(i) STR(i) "*32(%[st])"
#define XR(i) "512-256+" STR(i) "*32(%[st])" /* row i, 8 <= i < 16: x[i - 8] */
#define ROT16 "768(%[st])"
#define ROT8 "800(%[st])"
#define OUT(off) STR(off) "(%[out])"

/* Register map during the rounds: rows 0-7 in ymm0-7, the two c rows in
   use in ymm8-9, rows 12-15 in ymm10-13, the rotation temporary ymm14 (the
   register renamer gives each use its own copy), the rot16 mask ymm15. */
#define Y(n) "%%ymm" STR(n)
#define R0 Y(0)
#define R1 Y(1)
#define R2 Y(2)
#define R3 Y(3)
#define R4 Y(4)
#define R5 Y(5)
#define R6 Y(6)
#define R7 Y(7)
#define CA Y(8)
#define CB Y(9)
#define R12 Y(10)
#define R13 Y(11)
#define R14 Y(12)
#define R15 Y(13)
#define TMP Y(14)
#define MASK16 Y(15)

/* AT&T operand order: sources first, destination last. */
#define ADD(a, b) "vpaddd " b ", " a ", " a "\n\t"  /* a += b */
#define XOR(a, b) "vpxor " b ", " a ", " a "\n\t"   /* a ^= b */
#define SHUF(a, m) "vpshufb " m ", " a ", " a "\n\t" /* a = bytes of a permuted by m */
#define MOV(dst, src) "vmovdqa " src ", " dst "\n\t"
#define ROTL(b, n)                                   \
    "vpslld $" STR(n) ", " b ", " TMP "\n\t"         \
    "vpsrld $32-" STR(n) ", " b ", " b "\n\t"        \
    "vpor " TMP ", " b ", " b "\n\t"

/* Two quarter rounds, (a0, b0, c0, d0) and (a1, b1, c1, d1), step by step:
   a += b; d ^= a; d <<<= 16; c += d; b ^= c; b <<<= 12;
   a += b; d ^= a; d <<<= 8;  c += d; b ^= c; b <<<= 7. */
#define QUARTER_ROUNDS(a0, b0, c0, d0, a1, b1, c1, d1)                                   \
    ADD(a0, b0) ADD(a1, b1) XOR(d0, a0) XOR(d1, a1) SHUF(d0, MASK16) SHUF(d1, MASK16)    \
    ADD(c0, d0) ADD(c1, d1) XOR(b0, c0) XOR(b1, c1) ROTL(b0, 12) ROTL(b1, 12)            \
    ADD(a0, b0) ADD(a1, b1) XOR(d0, a0) XOR(d1, a1) SHUF(d0, ROT8) SHUF(d1, ROT8)        \
    ADD(c0, d0) ADD(c1, d1) XOR(b0, c0) XOR(b1, c1) ROTL(b0, 7) ROTL(b1, 7)

/* One double round.  The c pair {8, 9} serves the first column pair and the
   second diagonal pair, {10, 11} the other two, so one swap per half. */
#define DOUBLE_ROUND                                                   \
    QUARTER_ROUNDS(R0, R4, CA, R12, R1, R5, CB, R13)                   \
    MOV(XR(8), CA) MOV(XR(9), CB) MOV(CA, XR(10)) MOV(CB, XR(11))      \
    QUARTER_ROUNDS(R2, R6, CA, R14, R3, R7, CB, R15)                   \
    QUARTER_ROUNDS(R0, R5, CA, R15, R1, R6, CB, R12)                   \
    MOV(XR(10), CA) MOV(XR(11), CB) MOV(CA, XR(8)) MOV(CB, XR(9))      \
    QUARTER_ROUNDS(R2, R7, CA, R13, R3, R4, CB, R14)

/* ymm0-7 hold rows r..r+7 (r = 0 or 8) of the eight blocks: store lane i's
   eight words to out + off + 64 i, off = 4 r.  ymm8-15 are scratch. */
#define UNPACK(op, dst, a, b) op " " b ", " a ", " dst "\n\t"
#define STORE_HALVES(lo, hi, off)                                     \
    "vperm2i128 $0x20, " Y(hi) ", " Y(lo) ", " Y(8) "\n\t"             \
    "vperm2i128 $0x31, " Y(hi) ", " Y(lo) ", " Y(9) "\n\t"             \
    "vmovdqu " Y(8) ", " OUT(off) "\n\t"                               \
    "vmovdqu " Y(9) ", " OUT(off + 256) "\n\t"
#define TRANSPOSE_STORE(off)                                                            \
    /* ymm 8 + 2j, 9 + 2j: rows r+2j, r+2j+1 interleaved word by word */            \
    UNPACK("vpunpckldq", Y(8), Y(0), Y(1)) UNPACK("vpunpckhdq", Y(9), Y(0), Y(1))       \
    UNPACK("vpunpckldq", Y(10), Y(2), Y(3)) UNPACK("vpunpckhdq", Y(11), Y(2), Y(3))     \
    UNPACK("vpunpckldq", Y(12), Y(4), Y(5)) UNPACK("vpunpckhdq", Y(13), Y(4), Y(5))     \
    UNPACK("vpunpckldq", Y(14), Y(6), Y(7)) UNPACK("vpunpckhdq", Y(15), Y(6), Y(7))     \
    /* ymm k (0-3): words of lane k (low half) and lane k+4 (high half), rows    \
       r..r+3; ymm k+4: the same lanes, rows r+4..r+7 */                         \
    UNPACK("vpunpcklqdq", Y(0), Y(8), Y(10)) UNPACK("vpunpckhqdq", Y(1), Y(8), Y(10))   \
    UNPACK("vpunpcklqdq", Y(2), Y(9), Y(11)) UNPACK("vpunpckhqdq", Y(3), Y(9), Y(11))   \
    UNPACK("vpunpcklqdq", Y(4), Y(12), Y(14)) UNPACK("vpunpckhqdq", Y(5), Y(12), Y(14)) \
    UNPACK("vpunpcklqdq", Y(6), Y(13), Y(15)) UNPACK("vpunpckhqdq", Y(7), Y(13), Y(15)) \
    STORE_HALVES(0, 4, off) STORE_HALVES(1, 5, off + 64)                                \
    STORE_HALVES(2, 6, off + 128) STORE_HALVES(3, 7, off + 192)

/* One group: the eight blocks whose input rows are st->in, to out[0, 512). */
static inline __attribute__((always_inline)) void group(group_state *st, uint8_t *out)
{
    unsigned left;
    __asm__ volatile(
        MOV(R0, IN(0)) MOV(R1, IN(1)) MOV(R2, IN(2)) MOV(R3, IN(3))
        MOV(R4, IN(4)) MOV(R5, IN(5)) MOV(R6, IN(6)) MOV(R7, IN(7))
        MOV(CA, IN(10)) MOV(CB, IN(11)) MOV(XR(10), CA) MOV(XR(11), CB)
        MOV(CA, IN(8)) MOV(CB, IN(9))
        MOV(R12, IN(12)) MOV(R13, IN(13)) MOV(R14, IN(14)) MOV(R15, IN(15))
        MOV(MASK16, ROT16)
        "movl $10, %[left]\n\t"
        "1:\n\t"
        DOUBLE_ROUND
        "decl %[left]\n\t"
        "jnz 1b\n\t"
        /* Add the input.  Rows 10, 11 (in memory) get theirs when reloaded;
           rows 8, 9, 12-15 wait in x[] while rows 0-7 are transposed. */
        ADD(R0, IN(0)) ADD(R1, IN(1)) ADD(R2, IN(2)) ADD(R3, IN(3))
        ADD(R4, IN(4)) ADD(R5, IN(5)) ADD(R6, IN(6)) ADD(R7, IN(7))
        ADD(CA, IN(8)) ADD(CB, IN(9)) ADD(R12, IN(12)) ADD(R13, IN(13))
        ADD(R14, IN(14)) ADD(R15, IN(15))
        MOV(XR(8), CA) MOV(XR(9), CB) MOV(XR(12), R12) MOV(XR(13), R13)
        MOV(XR(14), R14) MOV(XR(15), R15)
        TRANSPOSE_STORE(0)
        MOV(Y(0), XR(8)) MOV(Y(1), XR(9)) MOV(Y(2), XR(10)) MOV(Y(3), XR(11))
        ADD(Y(2), IN(10)) ADD(Y(3), IN(11))
        MOV(Y(4), XR(12)) MOV(Y(5), XR(13)) MOV(Y(6), XR(14)) MOV(Y(7), XR(15))
        TRANSPOSE_STORE(32)
        : [left] "=&r"(left)
        : [st] "r"(st), [out] "r"(out)
        : "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
          "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}

/* Rows 12-13: lane i gets block counter + i as a 64-bit number, low word in
   row 12.  Lane i carries into the high word exactly when its low word
   wrapped, i.e. came out below i; the high word wraps modulo 2^32 with it
   (the counter wraps modulo 2^64). */
static inline AVX2 void set_counters(group_state *st, uint64_t counter)
{
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    __m256i lo = _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)counter), lane);
    __m256i no_carry = _mm256_cmpeq_epi32(_mm256_max_epu32(lo, lane), lo); /* -1 or 0 */
    uint32_t hi_plus_one = (uint32_t)(counter >> 32) + 1u;
    st->in[12] = lo;
    st->in[13] = _mm256_add_epi32(_mm256_set1_epi32((int)hi_plus_one), no_carry);
}

AVX2 void rng_chacha20_avx2_groups(const uint32_t key[8], uint64_t counter, uint64_t stream,
                                   uint8_t *out, size_t ngroups)
{
    group_state st;
    uint32_t words[16] = {
        0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,
        key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
        0, 0, (uint32_t)stream, (uint32_t)(stream >> 32),
    };
    for (int i = 0; i < 16; i++) {
        st.in[i] = _mm256_set1_epi32((int)words[i]);
    }
    rng_memzero(words, sizeof words); /* holds the key */
    st.rot16 = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
                                2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
    st.rot8 = _mm256_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
                               3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
    for (size_t g = 0; g < ngroups; g++, counter += 8, out += 512) {
        set_counters(&st, counter);
        group(&st, out);
    }
    /* The key, and rows 10-11 before their input was added (output minus
       key words), must not outlive the call. */
    rng_memzero(&st, sizeof st);
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
