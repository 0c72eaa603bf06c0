/* testengine.c -- the test source (byte stream: enumerate / replay; left-
 * aligned word replay), and the proof driver for the bounded-integer routines. */
#include "testengine.h"

#include <stdlib.h>
#include <string.h>

#include "bounded.h"
#include "byteorder.h"

int rngtest_engine_init(rngtest_engine *eng, const uint8_t *data, size_t nbytes)
{
    memset(eng, 0, sizeof *eng);
    if (data == NULL && nbytes > 0) {
        eng->status = RNG_E_ARGUMENT;
        return RNG_E_ARGUMENT;
    }
    eng->data = data;
    eng->length = nbytes;
    return RNG_OK;
}

int rngtest_engine_init_enumerate(rngtest_engine *eng, int width)
{
    memset(eng, 0, sizeof *eng);
    if (width != 8 && width != 16 && width != 24 && width != 32) {
        eng->status = RNG_E_ARGUMENT;
        return RNG_E_ARGUMENT;
    }
    eng->width = width;
    eng->length = ((uint64_t)1 << width) * (uint64_t)(width / 8);
    return RNG_OK;
}

int rngtest_engine_init_words(rngtest_engine *eng, const uint64_t *words, size_t count, int bits)
{
    memset(eng, 0, sizeof *eng);
    int ok = bits >= 1 && bits <= 64 && (words != NULL || count == 0);
    for (size_t i = 0; ok && i < count; i++) {
        ok = bits == 64 || words[i] >> bits == 0;
    }
    if (!ok) {
        eng->status = RNG_E_ARGUMENT;
        return RNG_E_ARGUMENT;
    }
    eng->words = words;
    eng->length = count;
    eng->width = bits;
    eng->aligned = 1;
    return RNG_OK;
}

/* Latch a failure in the engine and its source (the first one sticks). */
static void latch(rngtest_engine *eng, int status)
{
    if (eng->status == RNG_OK) {
        eng->status = status;
    }
    if (eng->source != NULL) {
        eng->source->status = eng->status;
    }
}

/* ---- byte stream ---------------------------------------------------------- */

/* Byte `i` of the enumeration: byte i % (W/8) of word i / (W/8), LE. */
static uint8_t enumerated_byte(const rngtest_engine *eng, uint64_t i)
{
    uint64_t bytes = (uint64_t)(eng->width / 8);
    return (uint8_t)((i / bytes) >> (8 * (i % bytes)));
}

static int stream_fill(void *state, void *out, size_t n)
{
    rngtest_engine *eng = state;
    uint8_t *dst = out;
    if (eng->status != RNG_OK) {
        memset(dst, 0xff, n);
        return eng->status;
    }
    uint64_t left = eng->length - eng->offset;
    size_t take = n < left ? n : (size_t)left;
    if (eng->data != NULL) {
        memcpy(dst, eng->data + eng->offset, take);
    } else if (eng->width == 32 && eng->offset % 4 == 0 && take % 4 == 0) {
        /* Fast path for the 16 GiB 32-bit enumeration. */
        uint32_t word = (uint32_t)(eng->offset / 4);
        for (size_t i = 0; i < take; i += 4, word++) {
            rng_store32_le(dst + i, word);
        }
    } else {
        for (size_t i = 0; i < take; i++) {
            dst[i] = enumerated_byte(eng, eng->offset + i);
        }
    }
    eng->offset += take;
    if (take < n) {
        memset(dst + take, 0xff, n - take);
        latch(eng, RNG_E_EXHAUSTED);
    }
    return eng->status;
}

static uint32_t stream_next32(void *state)
{
    uint8_t b[4];
    stream_fill(state, b, sizeof b);
    return rng_load32_le(b);
}

static uint64_t stream_next64(void *state)
{
    uint8_t b[8];
    stream_fill(state, b, sizeof b);
    return rng_load64_le(b);
}

/* ---- left-aligned words ------------------------------------------------- */

static uint64_t aligned_next64(void *state)
{
    rngtest_engine *eng = state;
    if (eng->status != RNG_OK || eng->offset >= eng->length) {
        latch(eng, RNG_E_EXHAUSTED);
        return UINT64_MAX; /* as a failed source: accepted at once, discarded by the caller */
    }
    return eng->words[eng->offset++] << (64 - eng->width);
}

static uint32_t aligned_next32(void *state)
{
    return (uint32_t)(aligned_next64(state) >> 32);
}

static int aligned_fill(void *state, void *out, size_t n)
{
    (void)out;
    (void)n;
    latch(state, RNG_E_ARGUMENT); /* byte output is not part of these proofs */
    return RNG_E_ARGUMENT;
}

/* words64 in both layouts: word by word through the layout's own next64,
 * so the proofs see exactly the words the one-at-a-time path would. */
static int aligned_words64(void *state, uint64_t *out, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        out[i] = aligned_next64(state);
    }
    return ((rngtest_engine *)state)->status;
}

static int stream_words64(void *state, uint64_t *out, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        out[i] = stream_next64(state);
    }
    return ((rngtest_engine *)state)->status;
}

void rngtest_engine_source(rngtest_engine *eng, rng_source *src)
{
    if (eng->aligned) {
        rng_source_bind(src, eng, aligned_next32, aligned_next64, aligned_fill, aligned_words64,
                        eng->status);
    } else {
        rng_source_bind(src, eng, stream_next32, stream_next64, stream_fill, stream_words64,
                        eng->status);
    }
    eng->source = src;
}

#define PIECE ((size_t)1 << 16)

/* Count the W-bit routine's outputs until the source fails. */
#define DEFINE_HISTOGRAM(W)                                                           \
    static int histogram##W(rng_source *src, uint##W##_t max, int batch,              \
                            size_t batch_size, uint64_t *counts, uint64_t *produced)  \
    {                                                                                 \
        if (!batch) {                                                                 \
            for (;;) {                                                                \
                uint##W##_t v = rng_bounded_max##W(src, max);                         \
                if (src->status != RNG_OK) {                                          \
                    return RNG_OK;                                                    \
                }                                                                     \
                counts[v]++;                                                          \
                (*produced)++;                                                        \
            }                                                                         \
        }                                                                             \
        /* Each request of batch_size values is made in pieces of at most             \
           PIECE values (what the routine outputs and consumes does not               \
           depend on how a request is split), so the buffer stays small. */           \
        size_t piece = batch_size < PIECE ? batch_size : PIECE;                       \
        uint##W##_t *values = malloc(piece * sizeof *values);                         \
        if (values == NULL) {                                                         \
            return RNG_E_MEMORY;                                                      \
        }                                                                             \
        size_t left = 0;                                                              \
        while (left == 0) {                                                           \
            for (left = batch_size; left > 0; left -= piece < left ? piece : left) {  \
                size_t k = left < piece ? left : piece;                               \
                size_t got = rng_bounded_max##W##_batch(src, max, values, k);         \
                for (size_t i = 0; i < got; i++) {                                    \
                    counts[values[i]]++;                                              \
                }                                                                     \
                *produced += got;                                                     \
                if (got < k || src->status != RNG_OK) {                               \
                    break; /* left > 0: the source ran out */                         \
                }                                                                     \
            }                                                                         \
        }                                                                             \
        free(values);                                                                 \
        return RNG_OK;                                                                \
    }

DEFINE_HISTOGRAM(8)
DEFINE_HISTOGRAM(16)
DEFINE_HISTOGRAM(32)
DEFINE_HISTOGRAM(64)

int rngtest_bounded_histogram(rng_source *src, int width, uint64_t max, int batch,
                              size_t batch_size, uint64_t *counts, uint64_t *produced)
{
    if (batch && batch_size == 0) {
        return RNG_E_ARGUMENT;
    }
    if (width < 64 && max >> width != 0) {
        return RNG_E_ARGUMENT;
    }
    if (max == 0 || max == UINT64_MAX) {
        return RNG_E_ARGUMENT; /* max 0 consumes nothing; 2^64 counts cannot be held */
    }
    memset(counts, 0, (size_t)(max + 1) * sizeof *counts);
    *produced = 0;
    switch (width) {
    case 8: return histogram8(src, (uint8_t)max, batch, batch_size, counts, produced);
    case 16: return histogram16(src, (uint16_t)max, batch, batch_size, counts, produced);
    case 32: return histogram32(src, (uint32_t)max, batch, batch_size, counts, produced);
    case 64: return histogram64(src, max, batch, batch_size, counts, produced);
    default: return RNG_E_ARGUMENT;
    }
}
