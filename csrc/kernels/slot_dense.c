/* slot_dense.c -- the dense ways reader's tables, its two code paths and the choice of path (slot_dense.h). */
#include <stdlib.h>
#include <string.h>
#include "slot_dense.h"
#include "dispatch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SLOT_X86 1
#include <immintrin.h>
#endif

/* ---- tables --------------------------------------------------------------------------------- */

void slot_dense_free(slot_dense *d)
{
    for (uint32_t i = 0; i < d->n_blocks; i++) {
        free(d->blocks[i]);
    }
    memset(d, 0, sizeof *d);
}

/* A zeroed table of `bytes`, 64-byte aligned (a vector load never splits a cache line), or NULL. */
static void *block(slot_dense *d, size_t bytes, size_t *total)
{
    bytes = (bytes + 63) & ~(size_t)63;
    *total += bytes;
    if (*total > SLOT_DENSE_MAX_BYTES || d->n_blocks == sizeof d->blocks / sizeof d->blocks[0]) {
        return NULL;
    }
    void *p = aligned_alloc(64, bytes ? bytes : 64);
    if (p) {
        memset(p, 0, bytes ? bytes : 64);
        d->blocks[d->n_blocks++] = p;
    }
    return p;
}

/* A path reader's entry pay * 2 + progressive as a dense value. */
static inline int64_t pack(const slot_dense *d, int64_t v)
{
    return ((v >> 1) << d->shift) | (v & 1);
}

/* The dense front of a path reader's next slots (state << 8 | paths, 0: unused). */
static void front(const uint32_t *slots, uint32_t n, uint8_t *out)
{
    for (uint32_t k = 0; k < n; k++) {
        out[slots[k] >> 8] += (uint8_t)(slots[k] & 0xFFu); /* <= rows^2 <= 225 paths: rows <= 15 */
    }
}

#define WIDE_END 2 /* build: an end pair entry would need more than 32 bits */

static int build(slot_dense *d, const slot_ways *w, const kern_slot_reelset *rs, const kern_slot_lines *ln,
                 int end_pair)
{
    memset(d, 0, sizeof *d);
    uint32_t reels = w->reels, rows = w->rows;
    if (reels == 0 || rows > 15) {
        return SLOT_DENSE_NOT_DENSE;
    }
    d->reels = reels;
    /* shift: 2 n_lines < 2^shift (the progressive counts of a spin), and a spin's pays, at most
       n_lines x the top line pay, must fit above them */
    d->shift = 1;
    while (((uint64_t)1 << d->shift) <= 2 * (uint64_t)ln->n_lines) {
        d->shift++;
    }
    int64_t top = 0, most;
    for (uint32_t s = 0; s < ln->n_states; s++) {
        top = ln->done[s] && ln->pay[s] > top ? ln->pay[s] : top;
    }
    if (__builtin_mul_overflow(top, (int64_t)ln->n_lines, &most) || most > (INT64_MAX >> (d->shift + 1))) {
        return SLOT_DENSE_NOT_DENSE;
    }
    for (uint32_t r = 0; r < reels; r++) {
        d->width[r] = w->width[r];
        d->stride[r] = (w->width[r] + SLOT_DENSE_LANES - 1) / SLOT_DENSE_LANES * SLOT_DENSE_LANES;
        d->len[r] = rs->strip_len[r];
        if (d->stride[r] > SLOT_DENSE_MAX_STRIDE) {
            return SLOT_DENSE_NOT_DENSE;
        }
    }
    size_t total = 0;
    d->first = w->pair_value ? 2 : 0;
    size_t end_bytes = reels >= 2 ? (size_t)d->len[reels - 2] * d->len[reels - 1] * d->stride[reels - 2] * 4 : 0;
    d->end = end_pair && reels >= 2 && reels - 2 >= d->first && end_bytes <= SLOT_DENSE_MAX_END_BYTES ? reels - 2
                                                                                                 : reels - 1;
    if (d->first) {
        size_t pairs = (size_t)d->len[0] * d->len[1];
        int64_t *value = block(d, pairs * sizeof *value, &total);
        uint8_t *fr = block(d, pairs * d->stride[2], &total);
        if (!value || !fr) {
            goto fail;
        }
        for (size_t at = 0; at < pairs; at++) {
            value[at] = pack(d, w->pair_value[at]);
            front(w->pair_next + at * rows * rows, rows * rows, fr + at * d->stride[2]);
        }
        d->start_value = value;
        d->start_front = fr;
    }
    for (uint32_t r = d->first; r < reels; r++) {
        if (r >= d->end && !(r == reels - 1 && d->end == reels - 1)) {
            continue; /* read by the end pair */
        }
        int64_t *value = block(d, (size_t)d->len[r] * d->stride[r] * sizeof *value, &total);
        if (!value) {
            goto fail;
        }
        for (uint32_t s = 0; s < d->len[r]; s++) {
            for (uint32_t q = 0; q < d->width[r]; q++) {
                value[(size_t)s * d->stride[r] + q] = pack(d, w->value[r][(size_t)s * d->width[r] + q]);
            }
        }
        d->value[r] = value;
        if (r < d->end) {
            size_t cells = (size_t)d->len[r] * d->width[r] * d->stride[r + 1];
            uint8_t *step = block(d, cells, &total);
            if (!step) {
                goto fail;
            }
            for (size_t e = 0; e < (size_t)d->len[r] * d->width[r]; e++) {
                front(w->next[r] + e * rows, rows, step + e * d->stride[r + 1]);
            }
            d->step[r] = step;
        }
    }
    if (d->end == reels - 2) { /* one path from each state of depth reels - 2 over the last two reels */
        uint32_t a = reels - 2, b = reels - 1, sa = d->stride[a];
        uint32_t *value = block(d, end_bytes, &total);
        if (!value) {
            goto fail;
        }
        for (uint32_t s = 0; s < d->len[a]; s++) {
            for (uint32_t q = 0; q < d->width[a]; q++) {
                size_t at = (size_t)s * d->width[a] + q;
                int64_t here = w->value[a][at];
                const uint32_t *slots = w->next[a] + at * rows;
                for (uint32_t s2 = 0; s2 < d->len[b]; s2++) {
                    const int64_t *last = w->value[b] + (size_t)s2 * d->width[b];
                    int64_t pay = here >> 1, flag = here & 1;
                    for (uint32_t k = 0; k < rows; k++) {
                        uint32_t paths = slots[k] & 0xFFu;
                        int64_t v = paths ? last[slots[k] >> 8] : 0; /* an unused slot: no state to read */
                        pay += (int64_t)paths * (v >> 1); /* within the spin bound checked above */
                        flag |= paths ? v & 1 : 0;
                    }
                    int64_t packed = (pay << d->shift) | flag;
                    if (packed > (int64_t)UINT32_MAX) {
                        goto no_end_pair;
                    }
                    value[((size_t)s * d->len[b] + s2) * sa + q] = (uint32_t)packed;
                }
            }
        }
        d->end_value = value;
    }
    return RNG_OK;
no_end_pair:
    slot_dense_free(d);
    return WIDE_END;
fail:
    {
        int rc = total > SLOT_DENSE_MAX_BYTES || d->n_blocks == sizeof d->blocks / sizeof d->blocks[0]
                     ? SLOT_DENSE_NOT_DENSE
                     : RNG_E_MEMORY;
        slot_dense_free(d);
        return rc;
    }
}

int slot_dense_init(slot_dense *d, const slot_ways *w, const kern_slot_reelset *rs, const kern_slot_lines *ln)
{
    int rc = build(d, w, rs, ln, 1);
    /* an end pair entry needs more than 32 bits: step reel reels - 2 and read the last alone */
    return rc == WIDE_END ? build(d, w, rs, ln, 0) : rc;
}

/* ---- the walk ------------------------------------------------------------------------------- */

/* The end pair entry of the last two reels' stops. */
static inline size_t end_pair_at(const slot_dense *d, const uint32_t *stops)
{
    return (size_t)stops[d->reels - 2] * d->len[d->reels - 1] + stops[d->reels - 1];
}

/* sum of f[q] * v[q] over n lanes. */
static inline __attribute__((always_inline)) int64_t dot(const uint32_t *f, const int64_t *v, uint32_t n)
{
    int64_t acc = 0;
    for (uint32_t q = 0; q < n; q++) {
        acc += (int64_t)f[q] * v[q];
    }
    return acc;
}

/* The walk of slot_dense.h in plain loops over padded vectors (every trip count is a table
   width, never a symbol), written so a compiler vectorises it. */
static inline __attribute__((always_inline)) int64_t walk(const slot_dense *d, const uint32_t *stops, int *prog)
{
    uint32_t fa[SLOT_DENSE_MAX_STRIDE], fb[SLOT_DENSE_MAX_STRIDE];
    uint32_t *f = fa, *g = fb;
    int64_t total = 0;
    uint32_t r = d->first;
    if (r) {
        size_t at = (size_t)stops[0] * d->len[1] + stops[1];
        const uint8_t *x = d->start_front + at * d->stride[2];
        total = d->start_value[at];
        for (uint32_t j = 0; j < d->stride[2]; j++) {
            f[j] = x[j];
        }
    } else {
        for (uint32_t j = 0; j < d->stride[0]; j++) {
            f[j] = j == 0;
        }
    }
    for (; r < d->end; r++) {
        const uint32_t sr = d->stride[r], sn = d->stride[r + 1], wr = d->width[r];
        const int64_t *v = d->value[r] + (size_t)stops[r] * sr;
        const uint8_t *m = d->step[r] + (size_t)stops[r] * wr * sn;
        total += dot(f, v, sr);
        for (uint32_t j = 0; j < sn; j++) {
            g[j] = 0;
        }
        for (uint32_t q = 0; q < wr; q++) {
            const uint32_t fq = f[q];
            const uint8_t *row = m + (size_t)q * sn;
            for (uint32_t j = 0; j < sn; j++) {
                g[j] += fq * row[j];
            }
        }
        uint32_t *t = f;
        f = g;
        g = t;
    }
    if (d->end_value) {
        const uint32_t se = d->stride[d->reels - 2];
        const uint32_t *e = d->end_value + end_pair_at(d, stops) * se;
        for (uint32_t q = 0; q < se; q++) {
            total += (int64_t)((uint64_t)f[q] * e[q]);
        }
    } else {
        const uint32_t se = d->stride[d->reels - 1];
        total += dot(f, d->value[d->reels - 1] + (size_t)stops[d->reels - 1] * se, se);
    }
    *prog |= (total & (((int64_t)1 << d->shift) - 1)) != 0;
    return total >> d->shift;
}

static int64_t pay_portable(const slot_dense *d, const uint32_t *stops, int *prog)
{
    return walk(d, stops, prog);
}

#ifdef SLOT_X86

#define SLOT_AVX512 __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* sum of f[q] * v[q] over 16 lanes (f 32-bit, v 64-bit). */
SLOT_AVX512 static inline __m512i dot16(__m512i acc, __m512i f, const int64_t *v)
{
    __m512i lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(f));
    __m512i hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(f, 1));
    acc = _mm512_add_epi64(acc, _mm512_mullo_epi64(lo, _mm512_load_si512((const void *)v)));
    return _mm512_add_epi64(acc, _mm512_mullo_epi64(hi, _mm512_load_si512((const void *)(v + 8))));
}

/* The walk with each padded vector in zmm registers (stride / 16 of them). */
SLOT_AVX512 static int64_t pay_avx512(const slot_dense *d, const uint32_t *stops, int *prog)
{
    __m512i f[SLOT_DENSE_MAX_STRIDE / 16], g[SLOT_DENSE_MAX_STRIDE / 16];
    uint32_t fs[SLOT_DENSE_MAX_STRIDE] __attribute__((aligned(64)));
    __m512i acc = _mm512_setzero_si512();
    uint32_t r = d->first;
    int64_t total = 0;
    if (r) {
        size_t at = (size_t)stops[0] * d->len[1] + stops[1];
        const uint8_t *x = d->start_front + at * d->stride[2];
        total = d->start_value[at];
        for (uint32_t k = 0; k < d->stride[2] / 16; k++) {
            f[k] = _mm512_cvtepu8_epi32(_mm_load_si128((const __m128i *)(x + 16 * k)));
        }
    } else {
        f[0] = _mm512_set_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1);
        for (uint32_t k = 1; k < d->stride[0] / 16; k++) {
            f[k] = _mm512_setzero_si512();
        }
    }
    for (; r < d->end; r++) {
        const uint32_t kr = d->stride[r] / 16, kn = d->stride[r + 1] / 16, wr = d->width[r], sn = d->stride[r + 1];
        const int64_t *v = d->value[r] + (size_t)stops[r] * d->stride[r];
        const uint8_t *m = d->step[r] + (size_t)stops[r] * wr * sn;
        for (uint32_t k = 0; k < kr; k++) {
            acc = dot16(acc, f[k], v + 16 * k);
            _mm512_store_si512((void *)(fs + 16 * k), f[k]);
        }
        for (uint32_t k = 0; k < kn; k++) {
            g[k] = _mm512_setzero_si512();
        }
        for (uint32_t q = 0; q < wr; q++) {
            const __m512i fq = _mm512_set1_epi32((int)fs[q]);
            const uint8_t *row = m + (size_t)q * sn;
            for (uint32_t k = 0; k < kn; k++) {
                __m512i rows = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(row + 16 * k)));
                g[k] = _mm512_add_epi32(g[k], _mm512_mullo_epi32(fq, rows));
            }
        }
        for (uint32_t k = 0; k < kn; k++) {
            f[k] = g[k];
        }
    }
    if (d->end_value) {
        const uint32_t se = d->stride[d->reels - 2];
        const uint32_t *e = d->end_value + end_pair_at(d, stops) * se;
        for (uint32_t k = 0; k < se / 16; k++) { /* 32 x 32 -> 64-bit products, even lanes then odd */
            __m512i x = _mm512_load_si512((const void *)(e + 16 * k));
            acc = _mm512_add_epi64(acc, _mm512_mul_epu32(f[k], x));
            acc = _mm512_add_epi64(acc, _mm512_mul_epu32(_mm512_srli_epi64(f[k], 32), _mm512_srli_epi64(x, 32)));
        }
    } else {
        const uint32_t se = d->stride[d->reels - 1];
        const int64_t *e = d->value[d->reels - 1] + (size_t)stops[d->reels - 1] * se;
        for (uint32_t k = 0; k < se / 16; k++) {
            acc = dot16(acc, f[k], e + 16 * k);
        }
    }
    total += _mm512_reduce_add_epi64(acc);
    *prog |= (total & (((int64_t)1 << d->shift) - 1)) != 0;
    return total >> d->shift;
}

int kern_slot_cpu_has(int impl)
{
    __builtin_cpu_init();
    switch (impl) {
    case KERN_SLOT_IMPL_PORTABLE:
        return 1;
    case KERN_SLOT_IMPL_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
    default:
        return 0;
    }
}

slot_dense_pay_fn slot_dense_pay_for(int impl)
{
    return impl == KERN_SLOT_IMPL_AVX512 ? pay_avx512 : pay_portable;
}

#else

int kern_slot_cpu_has(int impl)
{
    return impl == KERN_SLOT_IMPL_PORTABLE;
}

slot_dense_pay_fn slot_dense_pay_for(int impl)
{
    (void)impl;
    return pay_portable;
}

#endif

/* ---- path selection ------------------------------------------------------------------------- */

static int slot_impl = -1; /* -1 until first use, then KERN_SLOT_IMPL_* */

static int best_impl(void)
{
    return kern_slot_cpu_has(KERN_SLOT_IMPL_AVX512) ? KERN_SLOT_IMPL_AVX512 : KERN_SLOT_IMPL_PORTABLE;
}

int kern_slot_get_impl(void)
{
    return rng_dispatch_get(&slot_impl, best_impl);
}

int kern_slot_set_impl(int impl)
{
    if (!kern_slot_cpu_has(impl)) {
        return RNG_E_ARGUMENT;
    }
    __atomic_store_n(&slot_impl, impl, __ATOMIC_RELAXED);
    return RNG_OK;
}
