/* hmac_drbg.c -- SHA-256 (FIPS 180-4), HMAC (FIPS 198-1) and HMAC_DRBG
 * (SP 800-90A Rev. 1, 10.1.2); see hmac_drbg.h. */
#include "hmac_drbg.h"

#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "entropy.h"

_Static_assert(RNG_SHA_IMPL_PORTABLE == 0, "the forced portable path is path 0 (dispatch.h)");

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RNG_HAVE_SHANI_PATH 1
#include <cpuid.h>
#include <immintrin.h>
#define SHANI __attribute__((target("sha,sse4.1")))
#else
#define RNG_HAVE_SHANI_PATH 0
#endif

/* ---- SHA-256 ------------------------------------------------------------- */

typedef struct sha256_ctx {
    uint32_t h[8];
    uint8_t block[64];
    uint64_t total;  /* bytes hashed so far */
    size_t used;     /* bytes waiting in block */
} sha256_ctx;

static const uint32_t K256[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static uint32_t load32_be(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* One block of message words m[0..15] (already big-endian-loaded). */
static void compress_portable_words(uint32_t h[8], const uint32_t m[16])
{
    uint32_t w[64];
    memcpy(w, m, 16 * sizeof w[0]);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = k + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K256[t] + w[t];
        uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g; g = f; f = e; e = d + t1;
        d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
    rng_memzero(w, sizeof w); /* the schedule of a keyed block is key material */
}

static void compress_portable(uint32_t h[8], const uint8_t block[64])
{
    uint32_t m[16];
    for (int t = 0; t < 16; t++) {
        m[t] = load32_be(block + 4 * t);
    }
    compress_portable_words(h, m);
    rng_memzero(m, sizeof m);
}

#if RNG_HAVE_SHANI_PATH
int rng_cpu_has_shani(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
        return 0;
    }
    __builtin_cpu_init();
    return (b >> 29 & 1) && __builtin_cpu_supports("sse4.1") ? 1 : 0; /* CPUID.7.0:EBX.SHA */
}

/* The SHA extensions keep the state as ABEF and CDGH (lane 3 first). */
SHANI static inline void shani_load(const uint32_t h[8], __m128i *abef, __m128i *cdgh)
{
    __m128i t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)h), 0xB1);        /* CDAB */
    __m128i s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(h + 4)), 0x1B); /* EFGH */
    *abef = _mm_alignr_epi8(t, s1, 8);
    *cdgh = _mm_blend_epi16(s1, t, 0xF0);
}

/* The state as words h[0..3] and h[4..7] (lane i = word i): a digest's
   words are the message words of a block that starts with it. */
SHANI static inline void shani_words(__m128i abef, __m128i cdgh, __m128i *lo, __m128i *hi)
{
    __m128i t = _mm_shuffle_epi32(abef, 0x1B);  /* FEBA */
    __m128i s1 = _mm_shuffle_epi32(cdgh, 0xB1); /* DCHG */
    *lo = _mm_blend_epi16(t, s1, 0xF0);         /* DCBA */
    *hi = _mm_alignr_epi8(s1, t, 8);            /* HGFE */
}

/* Four rounds (two per SHA256RNDS2) on message group g. */
SHANI static inline void shani_rounds(__m128i *s0, __m128i *s1, __m128i w, int g)
{
    __m128i msg = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)(K256 + 4 * g)));
    *s1 = _mm_sha256rnds2_epu32(*s1, *s0, msg);
    *s0 = _mm_sha256rnds2_epu32(*s0, *s1, _mm_shuffle_epi32(msg, 0x0E));
}

/* The next message group from the window m[0..3] of the last four, which
   slides on by one. */
SHANI static inline __m128i shani_schedule(__m128i m[4])
{
    __m128i w = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32(m[0], m[1]), _mm_alignr_epi8(m[3], m[2], 4)), m[3]);
    m[0] = m[1];
    m[1] = m[2];
    m[2] = m[3];
    m[3] = w;
    return w;
}

/* One block of message words (m0: words 0-3, ..., m3: words 12-15) into the
   state, the schedule in a window of the last four groups (registers). */
SHANI static inline void shani_block(__m128i *abef, __m128i *cdgh, __m128i m0, __m128i m1, __m128i m2, __m128i m3)
{
    __m128i s0 = *abef, s1 = *cdgh, m[4] = {m0, m1, m2, m3};
#pragma GCC unroll 16
    for (int g = 0; g < 16; g++) {
        shani_rounds(&s0, &s1, g < 4 ? m[g] : shani_schedule(m), g);
    }
    *abef = _mm_add_epi32(s0, *abef);
    *cdgh = _mm_add_epi32(s1, *cdgh);
}

/* SHA-256 of four independent 32-byte messages (one padded block each,
   from the IV), their round chains interleaved: a round's latency is
   several times its issue cost, so the four cost little more than one. */
SHANI static void sha256_32x4_shani(const uint32_t iv[8], const uint8_t *const in[4], uint8_t out[4][32])
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    const __m128i pad = _mm_set_epi32(0, 0, 0, (int)0x80000000u), bits = _mm_set_epi32(256, 0, 0, 0);
    __m128i abef, cdgh, lo, hi, s0[4], s1[4], m[4][4];
    shani_load(iv, &abef, &cdgh);
    for (int j = 0; j < 4; j++) {
        s0[j] = abef;
        s1[j] = cdgh;
        m[j][0] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in[j]), swap);
        m[j][1] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in[j] + 16)), swap);
        m[j][2] = pad;
        m[j][3] = bits;
    }
#pragma GCC unroll 16
    for (int g = 0; g < 16; g++) {
        for (int j = 0; j < 4; j++) {
            shani_rounds(&s0[j], &s1[j], g < 4 ? m[j][g] : shani_schedule(m[j]), g);
        }
    }
    for (int j = 0; j < 4; j++) {
        shani_words(_mm_add_epi32(s0[j], abef), _mm_add_epi32(s1[j], cdgh), &lo, &hi);
        _mm_storeu_si128((__m128i *)out[j], _mm_shuffle_epi8(lo, swap));
        _mm_storeu_si128((__m128i *)(out[j] + 16), _mm_shuffle_epi8(hi, swap));
    }
    /* Whatever of the messages the compiler kept on the stack goes too. */
    rng_memzero(m, sizeof m);
}

SHANI static void compress_shani(uint32_t h[8], const uint8_t *block, size_t nblocks)
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll); /* big-endian words */
    __m128i abef, cdgh, lo, hi;
    shani_load(h, &abef, &cdgh);
    for (; nblocks > 0; nblocks--, block += 64) {
        shani_block(&abef, &cdgh, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)block), swap),
                    _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16)), swap),
                    _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 32)), swap),
                    _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 48)), swap));
    }
    shani_words(abef, cdgh, &lo, &hi);
    _mm_storeu_si128((__m128i *)h, lo);
    _mm_storeu_si128((__m128i *)(h + 4), hi);
}
#else
int rng_cpu_has_shani(void) { return 0; }
#endif

static int sha_impl = -1; /* -1 until first use */

static int best_sha_impl(void)
{
    return rng_cpu_has_shani() ? RNG_SHA_IMPL_SHANI : RNG_SHA_IMPL_PORTABLE;
}

int rng_sha256_get_impl(void)
{
    return rng_dispatch_get(&sha_impl, best_sha_impl);
}

int rng_sha256_set_impl(int impl)
{
    if (impl != RNG_SHA_IMPL_PORTABLE && !(impl == RNG_SHA_IMPL_SHANI && rng_cpu_has_shani())) {
        return RNG_E_ARGUMENT;
    }
    __atomic_store_n(&sha_impl, impl, __ATOMIC_RELAXED);
    return RNG_OK;
}

const char *rng_sha256_impl_name(void)
{
    return rng_sha256_get_impl() == RNG_SHA_IMPL_SHANI ? "shani" : "portable";
}

/* nblocks 64-byte blocks on the selected path. */
static void sha256_blocks(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
#if RNG_HAVE_SHANI_PATH
    if (rng_sha256_get_impl() == RNG_SHA_IMPL_SHANI) {
        compress_shani(h, p, nblocks);
        return;
    }
#endif
    for (; nblocks > 0; nblocks--, p += 64) {
        compress_portable(h, p);
    }
}

static void sha256_init(sha256_ctx *c)
{
    static const uint32_t IV[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    memcpy(c->h, IV, sizeof IV);
    c->total = 0;
    c->used = 0;
}

static void sha256_update(sha256_ctx *c, const uint8_t *p, size_t n)
{
    if (n == 0) {
        return; /* p may be NULL for an empty input */
    }
    c->total += n;
    if (c->used) {
        size_t take = 64 - c->used < n ? 64 - c->used : n;
        memcpy(c->block + c->used, p, take);
        c->used += take;
        p += take;
        n -= take;
        if (c->used < 64) {
            return;
        }
        sha256_blocks(c->h, c->block, 1);
        c->used = 0;
    }
    sha256_blocks(c->h, p, n / 64);
    p += n - n % 64;
    n %= 64;
    memcpy(c->block, p, n);
    c->used = n;
}

static void sha256_final(sha256_ctx *c, uint8_t out[32])
{
    uint64_t bits = c->total * 8;
    uint8_t pad[72] = {0x80};
    size_t padlen = (c->used < 56 ? 56 : 120) - c->used;
    for (int i = 0; i < 8; i++) {
        pad[padlen + i] = (uint8_t)(bits >> (56 - 8 * i));
    }
    sha256_update(c, pad, padlen + 8);
    for (int i = 0; i < 8; i++) {
        store32_be(out + 4 * i, c->h[i]);
    }
}

void rng_sha256_32x4(const uint8_t *const in[4], uint8_t out[4][32])
{
    /* Each message and its padding fill one block: data || 0x80 || zeros || 256 (bits), big-endian. */
    static const uint32_t IV[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
#if RNG_HAVE_SHANI_PATH
    if (rng_sha256_get_impl() == RNG_SHA_IMPL_SHANI) {
        sha256_32x4_shani(IV, in, out);
        return;
    }
#endif
    /* Portable C: one after the other (interleaving the scalar rounds gains nothing). */
    for (int j = 0; j < 4; j++) {
        uint32_t m[16] = {0}, h[8];
        for (int i = 0; i < 8; i++) {
            m[i] = load32_be(in[j] + 4 * i);
        }
        m[8] = 0x80000000u;
        m[15] = 256u;
        memcpy(h, IV, sizeof IV);
        compress_portable_words(h, m);
        for (int i = 0; i < 8; i++) {
            store32_be(out[j] + 4 * i, h[i]);
        }
        rng_memzero(m, sizeof m);
        rng_memzero(h, sizeof h);
    }
}

void rng_sha256(const uint8_t *data, size_t n, uint8_t out[32])
{
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, data, n);
    sha256_final(&c, out);
    rng_memzero(&c, sizeof c);
}

/* ---- HMAC-SHA-256 ---------------------------------------------------------- */

/* The inner and outer hashes after the padded key: one HMAC of a short
   message is then two compressions (the generate loop's whole cost). */
typedef struct hmac_key {
    sha256_ctx inner, outer;
} hmac_key;

static void hmac_set_key(hmac_key *hk, const uint8_t *key, size_t key_len)
{
    uint8_t pad[64] = {0};
    if (key_len > 64) {
        rng_sha256(key, key_len, pad);
    } else {
        memcpy(pad, key, key_len);
    }
    for (int i = 0; i < 64; i++) {
        pad[i] ^= 0x36;
    }
    sha256_init(&hk->inner);
    sha256_update(&hk->inner, pad, 64);
    for (int i = 0; i < 64; i++) {
        pad[i] ^= 0x36 ^ 0x5c;
    }
    sha256_init(&hk->outer);
    sha256_update(&hk->outer, pad, 64);
    rng_memzero(pad, sizeof pad);
}

/* HMAC(key, a || b || c); any part may be empty. */
static void hmac3(const hmac_key *hk, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                  const uint8_t *c, size_t cn, uint8_t out[32])
{
    sha256_ctx ctx = hk->inner;
    uint8_t inner[32];
    sha256_update(&ctx, a, an);
    sha256_update(&ctx, b, bn);
    sha256_update(&ctx, c, cn);
    sha256_final(&ctx, inner);
    ctx = hk->outer;
    sha256_update(&ctx, inner, sizeof inner);
    sha256_final(&ctx, out);
    rng_memzero(&ctx, sizeof ctx);
    rng_memzero(inner, sizeof inner);
}

/* V = HMAC(K, V), ceil(n / 32) times, each new V's bytes appended to out
   (when out is not NULL): HMAC_DRBG's generate loop, and its Update's
   V = HMAC(K, V) with n = 32.  A 32-byte message makes each HMAC exactly
   two compressions of one padded block each (the inner hash continues from
   the padded key: 64 + 32 bytes = 768 bits), and a digest's words are the
   next block's message words, so V stays in words (SHA-NI: in registers)
   from the first HMAC to the last, and only the output is byte-swapped. */
#define HMAC32_PAD 0x80000000u  /* message word 8: the 0x80 after 32 bytes */
#define HMAC32_BITS 768u        /* message word 15: 96 bytes hashed */

#if RNG_HAVE_SHANI_PATH
SHANI static void hmac_chain_shani(const hmac_key *hk, uint8_t v[32], uint8_t *out, size_t n)
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bll, 0x0405060700010203ll);
    const __m128i pad = _mm_set_epi32(0, 0, 0, (int)HMAC32_PAD), bits = _mm_set_epi32((int)HMAC32_BITS, 0, 0, 0);
    __m128i in_abef, in_cdgh, out_abef, out_cdgh, a, c;
    shani_load(hk->inner.h, &in_abef, &in_cdgh);
    shani_load(hk->outer.h, &out_abef, &out_cdgh);
    __m128i lo = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)v), swap);
    __m128i hi = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(v + 16)), swap);
    for (size_t done = 0; done < n; done += 32) {
        a = in_abef, c = in_cdgh;
        shani_block(&a, &c, lo, hi, pad, bits);
        shani_words(a, c, &lo, &hi);
        a = out_abef, c = out_cdgh;
        shani_block(&a, &c, lo, hi, pad, bits);
        shani_words(a, c, &lo, &hi);
        if (out != NULL) {
            uint8_t block[32];
            uint8_t *to = n - done >= 32 ? out + done : block;
            _mm_storeu_si128((__m128i *)to, _mm_shuffle_epi8(lo, swap));
            _mm_storeu_si128((__m128i *)(to + 16), _mm_shuffle_epi8(hi, swap));
            if (to == block) {
                memcpy(out + done, block, n - done);
                rng_memzero(block, sizeof block);
            }
        }
    }
    _mm_storeu_si128((__m128i *)v, _mm_shuffle_epi8(lo, swap));
    _mm_storeu_si128((__m128i *)(v + 16), _mm_shuffle_epi8(hi, swap));
}
#endif

static void hmac_chain_portable(const hmac_key *hk, uint8_t v[32], uint8_t *out, size_t n)
{
    uint32_t m[16] = {0}, h[8];
    for (int i = 0; i < 8; i++) {
        m[i] = load32_be(v + 4 * i);
    }
    m[8] = HMAC32_PAD;
    m[15] = HMAC32_BITS;
    for (size_t done = 0; done < n; done += 32) {
        memcpy(h, hk->inner.h, sizeof h);
        compress_portable_words(h, m);
        memcpy(m, h, sizeof h); /* the inner digest is the outer message */
        memcpy(h, hk->outer.h, sizeof h);
        compress_portable_words(h, m);
        memcpy(m, h, sizeof h); /* the new V is the next message */
        for (size_t i = 0; out != NULL && i < 8 && 4 * i < n - done; i++) {
            uint8_t word[4];
            store32_be(word, h[i]);
            size_t take = n - done - 4 * i < 4 ? n - done - 4 * i : 4;
            memcpy(out + done + 4 * i, word, take);
        }
    }
    for (int i = 0; i < 8; i++) {
        store32_be(v + 4 * i, m[i]);
    }
    rng_memzero(m, sizeof m);
    rng_memzero(h, sizeof h);
}

static void hmac_chain(const hmac_key *hk, uint8_t v[32], uint8_t *out, size_t n)
{
#if RNG_HAVE_SHANI_PATH
    if (rng_sha256_get_impl() == RNG_SHA_IMPL_SHANI) {
        hmac_chain_shani(hk, v, out, n);
        return;
    }
#endif
    hmac_chain_portable(hk, v, out, n);
}

void rng_hmac_sha256(const uint8_t *key, size_t key_len, const uint8_t *data, size_t n, uint8_t out[32])
{
    hmac_key hk;
    hmac_set_key(&hk, key, key_len);
    hmac3(&hk, data, n, NULL, 0, NULL, 0, out);
    rng_memzero(&hk, sizeof hk);
}

/* ---- HMAC_DRBG (SP 800-90A 10.1.2) -------------------------------------------- */

/* HMAC_DRBG_Update (10.1.2.2) with provided_data = p1 || p2 || p3. */
static void drbg_update(rng_hmac_drbg *d, const uint8_t *p1, size_t n1, const uint8_t *p2, size_t n2,
                        const uint8_t *p3, size_t n3)
{
    hmac_key hk;
    int provided = n1 + n2 + n3 > 0;
    for (uint8_t round = 0; round <= (provided ? 1 : 0); round++) {
        uint8_t v_round[33];
        memcpy(v_round, d->v, 32);
        v_round[32] = round;
        hmac_set_key(&hk, d->key, 32);
        /* K = HMAC(K, V || round || provided_data) */
        sha256_ctx ctx = hk.inner;
        uint8_t inner[32];
        sha256_update(&ctx, v_round, 33);
        sha256_update(&ctx, p1, n1);
        sha256_update(&ctx, p2, n2);
        sha256_update(&ctx, p3, n3);
        sha256_final(&ctx, inner);
        ctx = hk.outer;
        sha256_update(&ctx, inner, 32);
        sha256_final(&ctx, d->key);
        /* V = HMAC(K, V) */
        hmac_set_key(&hk, d->key, 32);
        hmac_chain(&hk, d->v, NULL, 32);
        rng_memzero(&ctx, sizeof ctx);
        rng_memzero(inner, sizeof inner);
        rng_memzero(v_round, sizeof v_round);
    }
    rng_memzero(&hk, sizeof hk);
}

static int input_ok(size_t n) { return (uint64_t)n <= (uint64_t)RNG_DRBG_MAX_INPUT_BYTES; }

int rng_hmac_drbg_instantiate(rng_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len,
                              const uint8_t *nonce, size_t nonce_len,
                              const uint8_t *personalization, size_t personalization_len)
{
    if (entropy_len < RNG_DRBG_SECURITY_BYTES || nonce_len < RNG_DRBG_SECURITY_BYTES / 2
        || !input_ok(entropy_len) || !input_ok(nonce_len) || !input_ok(personalization_len)) {
        return RNG_E_ARGUMENT;
    }
    memset(d->key, 0x00, sizeof d->key);
    memset(d->v, 0x01, sizeof d->v);
    drbg_update(d, entropy, entropy_len, nonce, nonce_len, personalization, personalization_len);
    d->reseed_counter = 1;
    d->reseed_interval = RNG_DRBG_MAX_RESEED_INTERVAL;
    return RNG_OK;
}

int rng_hmac_drbg_reseed(rng_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len,
                         const uint8_t *additional, size_t additional_len)
{
    if (entropy_len < RNG_DRBG_SECURITY_BYTES || !input_ok(entropy_len) || !input_ok(additional_len)) {
        return RNG_E_ARGUMENT;
    }
    drbg_update(d, entropy, entropy_len, additional, additional_len, NULL, 0);
    d->reseed_counter = 1;
    return RNG_OK;
}

int rng_hmac_drbg_generate(rng_hmac_drbg *d, uint8_t *out, size_t n,
                           const uint8_t *additional, size_t additional_len)
{
    if (n > RNG_DRBG_MAX_REQUEST_BYTES || !input_ok(additional_len)) {
        return RNG_E_ARGUMENT;
    }
    if (d->reseed_counter > d->reseed_interval) {
        return RNG_E_EXHAUSTED; /* reseed required (10.1.2.5 step 1) */
    }
    if (additional_len) {
        drbg_update(d, additional, additional_len, NULL, 0, NULL, 0);
    }
    hmac_key hk;
    hmac_set_key(&hk, d->key, 32);
    hmac_chain(&hk, d->v, out, n);
    rng_memzero(&hk, sizeof hk);
    drbg_update(d, additional, additional_len, NULL, 0, NULL, 0);
    d->reseed_counter++;
    return RNG_OK;
}
