/* draws.c -- batched bounded integers and floats over an rng_source. */
#include "draws.h"

#include <string.h>

/* One definition per (word width W, element type T): draw a chunk of
   offsets with the W-bit batch routine, then add low in the element type. */
#define DEFINE_INTEGERS(W, T)                                                          \
    static int integers_w##W##_##T(rng_source *src, T *out, size_t count,              \
                                   uint64_t low, uint##W##_t max)                      \
    {                                                                                  \
        uint##W##_t chunk[RNG_BOUNDED_CHUNK];                                          \
        while (count > 0) {                                                            \
            size_t k = count < RNG_BOUNDED_CHUNK ? count : RNG_BOUNDED_CHUNK;          \
            if (rng_bounded_max##W##_batch(src, max, chunk, k) != k) {                 \
                return src->status;                                                    \
            }                                                                          \
            for (size_t i = 0; i < k; i++) {                                           \
                out[i] = (T)(low + chunk[i]);                                          \
            }                                                                          \
            out += k;                                                                  \
            count -= k;                                                                \
        }                                                                              \
        return src->status;                                                            \
    }

DEFINE_INTEGERS(32, uint8_t)
DEFINE_INTEGERS(32, uint16_t)
DEFINE_INTEGERS(32, uint32_t)
DEFINE_INTEGERS(32, uint64_t)
DEFINE_INTEGERS(64, uint64_t)

int rng_draw_integers(rng_source *src, void *out, size_t count, int itemsize,
                      uint64_t low, uint64_t max)
{
    if (src->status != RNG_OK) {
        return src->status;
    }
    if (max > UINT32_MAX) {
        /* Only 64-bit element types can hold a span this wide. */
        return itemsize == 8 ? integers_w64_uint64_t(src, out, count, low, max) : RNG_E_ARGUMENT;
    }
    switch (itemsize) {
    case 1: return integers_w32_uint8_t(src, out, count, low, (uint32_t)max);
    case 2: return integers_w32_uint16_t(src, out, count, low, (uint32_t)max);
    case 4: return integers_w32_uint32_t(src, out, count, low, (uint32_t)max);
    case 8: return integers_w32_uint64_t(src, out, count, low, (uint32_t)max);
    default: return RNG_E_ARGUMENT;
    }
}

int64_t rng_draw_bounded32(rng_source *src, uint32_t max)
{
    uint32_t value = rng_bounded_max32(src, max);
    return src->status != RNG_OK ? src->status : (int64_t)value;
}

/* 53 random bits: every multiple of 2^-53 in [0, 1) equally likely. */
static inline double to_double(uint64_t x)
{
    /* x >> 11 < 2^53 fits int64_t, whose conversion is one instruction
       (uint64_t -> double is a branchy sequence without AVX-512). */
    return (double)(int64_t)(x >> 11) * (1.0 / 9007199254740992.0);
}

int rng_draw_doubles(rng_source *src, double *out, size_t count)
{
    uint8_t words[8 * RNG_BOUNDED_CHUNK];
    while (count > 0) {
        size_t k = count < RNG_BOUNDED_CHUNK ? count : RNG_BOUNDED_CHUNK;
        int status = src->fill(src->state, words, 8 * k);
        if (status != RNG_OK) {
            return status;
        }
        for (size_t i = 0; i < k; i++) {
            out[i] = to_double(rng_load64_le(words + 8 * i));
        }
        out += k;
        count -= k;
    }
    return src->status;
}

double rng_draw_double(rng_source *src)
{
    double value = to_double(src->next64(src->state));
    return src->status != RNG_OK ? -1.0 : value;
}
