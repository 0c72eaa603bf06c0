/* ctr_drbg.c -- AES (portable bitsliced and AES-NI), AES-CTR, and CTR_DRBG
 * with AES-256 (SP 800-90A Rev. 1, 10.2); see ctr_drbg.h. */
#include "ctr_drbg.h"

#include <stdlib.h>
#include <string.h>

#include "byteorder.h"
#include "dispatch.h"
#include "entropy.h"

_Static_assert(RNG_AES_IMPL_PORTABLE == 0, "the forced portable path is path 0 (dispatch.h)");

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RNG_HAVE_AESNI_PATH 1
#include <immintrin.h>
#define AESNI __attribute__((target("aes,sse4.1")))
#else
#define RNG_HAVE_AESNI_PATH 0
#endif

/* ---- portable AES: bit planes ------------------------------------------- */

/* Transpose the 8x8 bit matrix in x (byte i = row i, bit j = column j). */
static uint64_t transpose8(uint64_t x)
{
    uint64_t t;
    t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAull;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCull;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ull;
    x ^= t ^ (t << 28);
    return x;
}

/* p[b] bit k = bit b of byte k of s (64 bytes), and back: the transform is
   its own inverse, in two steps (bits within each 8-byte word, then bytes
   across the words). */
static void to_planes(const uint8_t s[64], uint64_t p[8])
{
    uint64_t t[8];
    for (int j = 0; j < 8; j++) {
        t[j] = transpose8(rng_load64_le(s + 8 * j));
    }
    for (int b = 0; b < 8; b++) {
        uint64_t v = 0;
        for (int j = 0; j < 8; j++) {
            v |= ((t[j] >> (8 * b)) & 0xff) << (8 * j);
        }
        p[b] = v;
    }
}

static void from_planes(const uint64_t p[8], uint8_t s[64])
{
    for (int j = 0; j < 8; j++) {
        uint64_t v = 0;
        for (int b = 0; b < 8; b++) {
            v |= ((p[b] >> (8 * j)) & 0xff) << (8 * b);
        }
        rng_store64_le(s + 8 * j, transpose8(v));
    }
}

/* Reduce a product of degree <= 14 modulo x^8 + x^4 + x^3 + x + 1. */
static void gf_reduce(uint64_t p[15], uint64_t r[8])
{
    for (int k = 14; k >= 8; k--) {
        p[k - 4] ^= p[k];
        p[k - 5] ^= p[k];
        p[k - 7] ^= p[k];
        p[k - 8] ^= p[k];
    }
    memcpy(r, p, 8 * sizeof p[0]);
}

static void gf_mul(uint64_t r[8], const uint64_t a[8], const uint64_t b[8])
{
    uint64_t p[15] = {0};
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            p[i + j] ^= a[i] & b[j];
        }
    }
    gf_reduce(p, r);
}

/* Squaring is linear in characteristic 2: bit i of a goes to x^(2i), and
   x^8, x^10, x^12, x^14 reduce to 0x1b, 0x6c, 0xab, 0x9a. */
static void gf_square(uint64_t r[8], const uint64_t a[8])
{
    uint64_t r0 = a[0] ^ a[4] ^ a[6], r1 = a[4] ^ a[6] ^ a[7], r2 = a[1] ^ a[5], r3 = a[4] ^ a[5] ^ a[6] ^ a[7];
    uint64_t r4 = a[2] ^ a[4] ^ a[7], r5 = a[5] ^ a[6], r6 = a[3] ^ a[5], r7 = a[6] ^ a[7];
    r[0] = r0; r[1] = r1; r[2] = r2; r[3] = r3; r[4] = r4; r[5] = r5; r[6] = r6; r[7] = r7;
}

/* The S-box on 64 bytes at once: inverse (x^254; 0 maps to 0), then the
   affine map b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i, c = 0x63. */
static void sub_bytes64(uint8_t s[64])
{
    uint64_t x[8], x3[8], t[8], u[8];
    to_planes(s, x);
    gf_square(t, x);        /* x^2 */
    gf_mul(x3, t, x);       /* x^3 */
    gf_square(t, x3);
    gf_square(u, t);        /* x^12 */
    gf_mul(t, u, x3);       /* x^15 */
    gf_square(u, t);
    gf_square(t, u);        /* x^60 */
    gf_mul(u, t, x3);       /* x^63 */
    gf_square(t, u);        /* x^126 */
    gf_mul(u, t, x);        /* x^127 */
    gf_square(t, u);        /* x^254 */
    for (int i = 0; i < 8; i++) {
        uint64_t c = (0x63 >> i) & 1 ? ~(uint64_t)0 : 0; /* a public constant */
        x[i] = t[i] ^ t[(i + 4) & 7] ^ t[(i + 5) & 7] ^ t[(i + 6) & 7] ^ t[(i + 7) & 7] ^ c;
    }
    from_planes(x, s);
    rng_memzero(x3, sizeof x3);
    rng_memzero(t, sizeof t);
    rng_memzero(u, sizeof u);
    rng_memzero(x, sizeof x);
}

/* xtime (multiplication by x) of the four bytes of w at once, without a
   branch on any byte. */
static uint32_t xtime4(uint32_t w)
{
    return ((w & 0x7f7f7f7fu) << 1) ^ (((w >> 7) & 0x01010101u) * 0x1bu);
}

static uint32_t ror32(uint32_t w, int n) { return w >> n | w << (32 - n); }

/* ShiftRows then (unless last) MixColumns on one 16-byte block (column-major).
   A column is one little-endian word, row r in byte r; byte r of ror32(w, 8)
   is row r + 1, so MixColumns' a_r ^ all ^ xtime(a_r ^ a_(r+1)) is word-wide. */
static void shift_mix(uint8_t b[16], int last)
{
    uint8_t t[16];
    for (int c = 0; c < 4; c++) {
        for (int r = 0; r < 4; r++) {
            t[r + 4 * c] = b[r + 4 * ((c + r) & 3)];
        }
    }
    if (last) {
        memcpy(b, t, 16);
    } else {
        for (int c = 0; c < 4; c++) {
            uint32_t w = rng_load32_le(t + 4 * c), next = ror32(w, 8);
            uint32_t all = w ^ next ^ ror32(w, 16) ^ ror32(w, 24);
            rng_store32_le(b + 4 * c, w ^ all ^ xtime4(w ^ next));
        }
    }
    rng_memzero(t, sizeof t);
}

/* Encrypt the four blocks of s in place. */
static void encrypt4_portable(const rng_aes_key *k, uint8_t s[64])
{
    for (int i = 0; i < 64; i++) {
        s[i] ^= k->round_keys[i & 15];
    }
    for (int round = 1; round <= k->rounds; round++) {
        sub_bytes64(s);
        for (int blk = 0; blk < 4; blk++) {
            shift_mix(s + 16 * blk, round == k->rounds);
            for (int i = 0; i < 16; i++) {
                s[16 * blk + i] ^= k->round_keys[16 * round + i];
            }
        }
    }
}

static void sub_word_portable(uint8_t w[4])
{
    uint8_t s[64] = {0};
    memcpy(s, w, 4);
    sub_bytes64(s);
    memcpy(w, s, 4);
    rng_memzero(s, sizeof s);
}

/* ---- AES-NI ---------------------------------------------------------------- */

#if RNG_HAVE_AESNI_PATH
int rng_cpu_has_aesni(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("aes") && __builtin_cpu_supports("sse4.1") ? 1 : 0;
}

AESNI static void sub_word_aesni(uint8_t w[4])
{
    /* AESKEYGENASSIST's first word is SubWord of the second input word. */
    __m128i x = _mm_set_epi32(0, 0, (int)rng_load32_le(w), 0);
    rng_store32_le(w, (uint32_t)_mm_cvtsi128_si32(_mm_aeskeygenassist_si128(x, 0)));
}

AESNI static void encrypt_blocks_aesni(const rng_aes_key *k, const uint8_t *in, uint8_t *out, size_t n)
{
    __m128i rk[15];
    rk[0] = _mm_loadu_si128((const __m128i *)k->round_keys);
    for (int i = 1; i <= k->rounds; i++) {
        rk[i] = _mm_loadu_si128((const __m128i *)(k->round_keys + 16 * i));
    }
    for (size_t i = 0; i < n; i++) {
        __m128i x = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(in + 16 * i)), rk[0]);
        for (int r = 1; r < k->rounds; r++) {
            x = _mm_aesenc_si128(x, rk[r]);
        }
        _mm_storeu_si128((__m128i *)(out + 16 * i), _mm_aesenclast_si128(x, rk[k->rounds]));
    }
    rng_memzero(rk, sizeof rk);
}

/* Counter blocks V+1 .. V+n (V = hi:lo, big-endian in memory), eight in flight. */
AESNI static void ctr_aesni(const rng_aes_key *k, uint64_t *hi, uint64_t *lo, uint8_t *out, size_t n)
{
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m128i rk[15];
    rk[0] = _mm_loadu_si128((const __m128i *)k->round_keys);
    for (int i = 1; i <= k->rounds; i++) {
        rk[i] = _mm_loadu_si128((const __m128i *)(k->round_keys + 16 * i));
    }
    uint64_t h = *hi, l = *lo;
    while (n > 0) {
        size_t m = n < 8 ? n : 8;
        __m128i b[8];
        for (size_t i = 0; i < m; i++) {
            h += (++l == 0);
            b[i] = _mm_xor_si128(_mm_shuffle_epi8(_mm_set_epi64x((long long)h, (long long)l), reverse), rk[0]);
        }
        for (int r = 1; r < k->rounds; r++) {
            for (size_t i = 0; i < m; i++) {
                b[i] = _mm_aesenc_si128(b[i], rk[r]);
            }
        }
        for (size_t i = 0; i < m; i++) {
            _mm_storeu_si128((__m128i *)(out + 16 * i), _mm_aesenclast_si128(b[i], rk[k->rounds]));
        }
        out += 16 * m;
        n -= m;
    }
    *hi = h;
    *lo = l;
    rng_memzero(rk, sizeof rk);
}

#define VAES __attribute__((target("vaes,avx2,aes,sse4.1")))

int rng_cpu_has_vaes(void)
{
    __builtin_cpu_init();
    return rng_cpu_has_aesni() && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("vaes") ? 1 : 0;
}

/* As ctr_aesni, sixteen blocks in flight, two per 256-bit register; the
   tail (under 16 blocks) on ctr_aesni. */
VAES static void ctr_vaes(const rng_aes_key *k, uint64_t *hi, uint64_t *lo, uint8_t *out, size_t n)
{
    const __m256i reverse = _mm256_broadcastsi128_si256(
        _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    __m256i rk[15];
    rk[0] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k->round_keys));
    for (int i = 1; i <= k->rounds; i++) {
        rk[i] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(k->round_keys + 16 * i)));
    }
    uint64_t h = *hi, l = *lo;
    for (; n >= 16; n -= 16, out += 256) {
        __m256i b[8];
        for (int i = 0; i < 8; i++) {
            uint64_t h1 = h += (++l == 0), l1 = l;
            uint64_t h2 = h += (++l == 0), l2 = l;
            __m256i c = _mm256_set_epi64x((long long)h2, (long long)l2, (long long)h1, (long long)l1);
            b[i] = _mm256_xor_si256(_mm256_shuffle_epi8(c, reverse), rk[0]);
        }
        for (int r = 1; r < k->rounds; r++) {
            for (int i = 0; i < 8; i++) {
                b[i] = _mm256_aesenc_epi128(b[i], rk[r]);
            }
        }
        for (int i = 0; i < 8; i++) {
            _mm256_storeu_si256((__m256i *)(out + 32 * i), _mm256_aesenclast_epi128(b[i], rk[k->rounds]));
        }
    }
    rng_memzero(rk, sizeof rk);
    if (n) {
        ctr_aesni(k, &h, &l, out, n);
    }
    *hi = h;
    *lo = l;
}
#else
int rng_cpu_has_aesni(void) { return 0; }
int rng_cpu_has_vaes(void) { return 0; }
#endif

/* ---- path selection ------------------------------------------------------- */

static int aes_impl = -1; /* -1 until first use */

static int best_aes_impl(void)
{
    return rng_cpu_has_vaes() ? RNG_AES_IMPL_VAES : rng_cpu_has_aesni() ? RNG_AES_IMPL_AESNI : RNG_AES_IMPL_PORTABLE;
}

int rng_aes_get_impl(void)
{
    return rng_dispatch_get(&aes_impl, best_aes_impl);
}

int rng_aes_set_impl(int impl)
{
    if (impl != RNG_AES_IMPL_PORTABLE && !(impl == RNG_AES_IMPL_AESNI && rng_cpu_has_aesni())
        && !(impl == RNG_AES_IMPL_VAES && rng_cpu_has_vaes())) {
        return RNG_E_ARGUMENT;
    }
    __atomic_store_n(&aes_impl, impl, __ATOMIC_RELAXED);
    return RNG_OK;
}

const char *rng_aes_impl_name(void)
{
    static const char *const NAMES[] = {"portable", "aesni", "vaes"};
    return NAMES[rng_aes_get_impl()];
}

/* ---- AES on the selected path ----------------------------------------------- */

/* FIPS 197 key expansion (5.2), SubWord on the selected path. */
static void aes_expand(rng_aes_key *k, const uint8_t *key, size_t key_len)
{
    static const uint8_t RCON[10] = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x1b, 0x36};
    int nk = (int)(key_len / 4), words = 4 * (nk + 7);
    int aesni = rng_aes_get_impl() != RNG_AES_IMPL_PORTABLE; /* VAES implies AES-NI */
    uint8_t *w = k->round_keys;
    k->rounds = nk + 6;
    memcpy(w, key, key_len);
    for (int i = nk; i < words; i++) {
        uint8_t t[4];
        memcpy(t, w + 4 * (i - 1), 4);
        if (i % nk == 0 || (nk > 6 && i % nk == 4)) {
            if (i % nk == 0) {
                uint8_t first = t[0];
                t[0] = t[1]; t[1] = t[2]; t[2] = t[3]; t[3] = first; /* RotWord */
            }
#if RNG_HAVE_AESNI_PATH
            if (aesni) {
                sub_word_aesni(t);
            } else
#endif
            {
                (void)aesni;
                sub_word_portable(t);
            }
            if (i % nk == 0) {
                t[0] ^= RCON[i / nk - 1];
            }
        }
        for (int j = 0; j < 4; j++) {
            w[4 * i + j] = w[4 * (i - nk) + j] ^ t[j];
        }
        rng_memzero(t, sizeof t);
    }
}

/* out = E(K, in) for n blocks (ECB; BCC and the df's output use it). */
static void aes_encrypt_blocks(const rng_aes_key *k, const uint8_t *in, uint8_t *out, size_t n)
{
#if RNG_HAVE_AESNI_PATH
    if (rng_aes_get_impl() != RNG_AES_IMPL_PORTABLE) {
        encrypt_blocks_aesni(k, in, out, n);
        return;
    }
#endif
    uint8_t s[64];
    while (n > 0) {
        size_t m = n < 4 ? n : 4;
        memset(s, 0, sizeof s);
        memcpy(s, in, 16 * m);
        encrypt4_portable(k, s);
        memcpy(out, s, 16 * m);
        in += 16 * m;
        out += 16 * m;
        n -= m;
    }
    rng_memzero(s, sizeof s);
}

static uint64_t load64_be(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v = v << 8 | p[i];
    }
    return v;
}

static void store64_be(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8) {
        p[i] = (uint8_t)v;
    }
}

/* n blocks E(K, V+1), ..., E(K, V+n); V (16 bytes, big-endian) becomes V+n. */
static void ctr_blocks(const rng_aes_key *k, uint8_t v[16], uint8_t *out, size_t n)
{
    uint64_t hi = load64_be(v), lo = load64_be(v + 8);
#if RNG_HAVE_AESNI_PATH
    int impl = rng_aes_get_impl();
    if (impl != RNG_AES_IMPL_PORTABLE) {
        (impl == RNG_AES_IMPL_VAES ? ctr_vaes : ctr_aesni)(k, &hi, &lo, out, n);
        store64_be(v, hi);
        store64_be(v + 8, lo);
        return;
    }
#endif
    uint8_t s[64];
    while (n > 0) {
        size_t m = n < 4 ? n : 4;
        for (size_t i = 0; i < m; i++) {
            hi += (++lo == 0);
            store64_be(s + 16 * i, hi);
            store64_be(s + 16 * i + 8, lo);
        }
        encrypt4_portable(k, s);
        memcpy(out, s, 16 * m);
        out += 16 * m;
        n -= m;
    }
    rng_memzero(s, sizeof s);
    store64_be(v, hi);
    store64_be(v + 8, lo);
}

int rng_aes_ctr(const uint8_t *key, size_t key_len, const uint8_t counter[16], uint8_t *out, size_t nblocks)
{
    if (key_len != 16 && key_len != 24 && key_len != 32) {
        return RNG_E_ARGUMENT;
    }
    rng_aes_key k;
    uint8_t v[16];
    memcpy(v, counter, 16);
    for (int i = 15; i >= 0 && v[i]-- == 0; i--) {
        /* v = counter - 1: ctr_blocks starts at v + 1 */
    }
    aes_expand(&k, key, key_len);
    ctr_blocks(&k, v, out, nblocks);
    rng_memzero(&k, sizeof k);
    return RNG_OK;
}

/* ---- CTR_DRBG (SP 800-90A 10.2) ------------------------------------------------ */

#define SEEDLEN RNG_CTR_DRBG_SEEDLEN

/* CTR_DRBG_Update (10.2.1.2). */
static void drbg_update(rng_ctr_drbg *d, const uint8_t provided[SEEDLEN])
{
    uint8_t temp[SEEDLEN];
    ctr_blocks(&d->key, d->v, temp, SEEDLEN / 16);
    for (int i = 0; i < SEEDLEN; i++) {
        temp[i] ^= provided[i];
    }
    aes_expand(&d->key, temp, 32);
    memcpy(d->v, temp + 32, 16);
    rng_memzero(temp, sizeof temp);
}

/* BCC (10.3.3) of the df's three chains at once, over a stream of input
   fed in pieces.  The chains differ only in their first block (the counter
   IV), so each later block is fed to all three and the three encryptions
   of a step are one call: one pass of the portable path, which encrypts
   four blocks per pass (BCC alone is sequential, one block per pass). */
#define DF_CHAINS (SEEDLEN / 16)

typedef struct bcc {
    const rng_aes_key *key;
    uint8_t chain[SEEDLEN]; /* chain i at 16 * i */
    size_t used;
} bcc;

/* Start chain i at E(K, i || 0^96): BCC of the IV block from a zero chain. */
static void bcc_start(bcc *b, const rng_aes_key *key)
{
    memset(b, 0, sizeof *b);
    b->key = key;
    for (uint32_t i = 0; i < DF_CHAINS; i++) {
        for (int j = 0; j < 4; j++) {
            b->chain[16 * i + j] = (uint8_t)(i >> (24 - 8 * j));
        }
    }
    aes_encrypt_blocks(key, b->chain, b->chain, DF_CHAINS);
}

static void bcc_feed(bcc *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        for (int c = 0; c < DF_CHAINS; c++) {
            b->chain[16 * c + b->used] ^= p[i];
        }
        if (++b->used == 16) {
            aes_encrypt_blocks(b->key, b->chain, b->chain, DF_CHAINS);
            b->used = 0;
        }
    }
}

/* Block_Cipher_df (10.3.2) of a || b || c, 48 bytes returned. */
static void block_cipher_df(const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                            const uint8_t *c, size_t cn, uint8_t out[SEEDLEN])
{
    uint8_t k0[32], temp[SEEDLEN], header[8], zeros[16] = {0};
    uint32_t length = (uint32_t)(an + bn + cn);
    rng_aes_key key;
    for (int i = 0; i < 32; i++) {
        k0[i] = (uint8_t)i;
    }
    aes_expand(&key, k0, 32);
    for (int i = 0; i < 4; i++) {
        header[i] = (uint8_t)(length >> (24 - 8 * i));
        header[4 + i] = (uint8_t)(SEEDLEN >> (24 - 8 * i));
    }
    /* S = L || N || input || 0x80 || zeros to a whole block; temp = the
       BCC of IV_i || S for i = 0, 1, 2 */
    size_t s_len = 8 + length + 1, pad = (16 - s_len % 16) % 16;
    const uint8_t marker = 0x80;
    bcc state;
    bcc_start(&state, &key);
    bcc_feed(&state, header, 8);
    bcc_feed(&state, a, an);
    bcc_feed(&state, b, bn);
    bcc_feed(&state, c, cn);
    bcc_feed(&state, &marker, 1);
    bcc_feed(&state, zeros, pad);
    memcpy(temp, state.chain, SEEDLEN);
    rng_memzero(&state, sizeof state);
    aes_expand(&key, temp, 32);
    aes_encrypt_blocks(&key, temp + 32, out, 1);
    aes_encrypt_blocks(&key, out, out + 16, 1);
    aes_encrypt_blocks(&key, out + 16, out + 32, 1);
    rng_memzero(&key, sizeof key);
    rng_memzero(temp, sizeof temp);
}

/* seed = df(a || b || c), or without the df a XOR b (b, c zero-padded; the
   callers have checked the lengths). */
static void seed_material(const rng_ctr_drbg *d, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                          const uint8_t *c, size_t cn, uint8_t out[SEEDLEN])
{
    if (d->df) {
        block_cipher_df(a, an, b, bn, c, cn, out);
        return;
    }
    memset(out, 0, SEEDLEN);
    if (an) {
        memcpy(out, a, an);
    }
    for (size_t i = 0; i < bn; i++) {
        out[i] ^= b[i];
    }
}

static int input_ok(size_t n) { return (uint64_t)n <= (uint64_t)RNG_DRBG_MAX_INPUT_BYTES; }

int rng_ctr_drbg_instantiate(rng_ctr_drbg *d, int df, const uint8_t *entropy, size_t entropy_len,
                             const uint8_t *nonce, size_t nonce_len,
                             const uint8_t *personalization, size_t personalization_len)
{
    if (df ? entropy_len < RNG_DRBG_SECURITY_BYTES || nonce_len < RNG_DRBG_SECURITY_BYTES / 2
                 || !input_ok(entropy_len + nonce_len + personalization_len)
           : entropy_len != SEEDLEN || nonce_len != 0 || personalization_len > SEEDLEN) {
        return RNG_E_ARGUMENT;
    }
    uint8_t seed[SEEDLEN], zero_key[32] = {0};
    d->df = df ? 1 : 0;
    if (df) {
        block_cipher_df(entropy, entropy_len, nonce, nonce_len, personalization, personalization_len, seed);
    } else {
        seed_material(d, entropy, entropy_len, personalization, personalization_len, NULL, 0, seed);
    }
    aes_expand(&d->key, zero_key, 32);
    memset(d->v, 0, sizeof d->v);
    drbg_update(d, seed);
    rng_memzero(seed, sizeof seed);
    d->reseed_counter = 1;
    d->reseed_interval = RNG_DRBG_MAX_RESEED_INTERVAL;
    return RNG_OK;
}

int rng_ctr_drbg_reseed(rng_ctr_drbg *d, const uint8_t *entropy, size_t entropy_len,
                        const uint8_t *additional, size_t additional_len)
{
    if (d->df ? entropy_len < RNG_DRBG_SECURITY_BYTES || !input_ok(entropy_len + additional_len)
              : entropy_len != SEEDLEN || additional_len > SEEDLEN) {
        return RNG_E_ARGUMENT;
    }
    uint8_t seed[SEEDLEN];
    seed_material(d, entropy, entropy_len, additional, additional_len, NULL, 0, seed);
    drbg_update(d, seed);
    rng_memzero(seed, sizeof seed);
    d->reseed_counter = 1;
    return RNG_OK;
}

int rng_ctr_drbg_generate(rng_ctr_drbg *d, uint8_t *out, size_t n,
                          const uint8_t *additional, size_t additional_len)
{
    if (n > RNG_DRBG_MAX_REQUEST_BYTES || (d->df ? !input_ok(additional_len) : additional_len > SEEDLEN)) {
        return RNG_E_ARGUMENT;
    }
    if (d->reseed_counter > d->reseed_interval) {
        return RNG_E_EXHAUSTED; /* reseed required (10.2.1.5 step 1) */
    }
    uint8_t add[SEEDLEN] = {0}, last[16];
    if (additional_len) {
        seed_material(d, additional, additional_len, NULL, 0, NULL, 0, add);
        drbg_update(d, add);
    }
    ctr_blocks(&d->key, d->v, out, n / 16);
    if (n % 16) {
        ctr_blocks(&d->key, d->v, last, 1);
        memcpy(out + n - n % 16, last, n % 16);
        rng_memzero(last, sizeof last);
    }
    drbg_update(d, add);
    rng_memzero(add, sizeof add);
    d->reseed_counter++;
    return RNG_OK;
}
