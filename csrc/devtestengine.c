/*
 * devtestengine.c -- the enumerable word source of devtestengine.h.
 */
#include "devtestengine.h"

static uint64_t devtest_next64(void *state)
{
    rng_devtest *eng = state;
    if (eng->used >= eng->count) {
        eng->src->status = RNG_E_EXHAUSTED;
        return UINT64_MAX; /* as the core's test engine: accepted at once, discarded by the caller */
    }
    return eng->words[eng->used++] << (64 - eng->bits);
}

static uint32_t devtest_next32(void *state)
{
    return (uint32_t)(devtest_next64(state) >> 32);
}

static int devtest_fill(void *state, void *out, size_t nbytes)
{
    rng_devtest *eng = state;
    eng->src->status = RNG_E_ARGUMENT; /* byte output is not part of the proofs */
    return RNG_E_ARGUMENT;
}

int rng_devtest_source(rng_devtest *eng, const uint64_t *words, size_t count, unsigned bits,
                       rng_source *src)
{
    if (bits < 1 || bits > 64) {
        return RNG_E_ARGUMENT;
    }
    for (size_t i = 0; i < count; i++) {
        if (bits < 64 && (words[i] >> bits) != 0) {
            return RNG_E_ARGUMENT;
        }
    }
    eng->words = words;
    eng->count = count;
    eng->used = 0;
    eng->bits = bits;
    eng->src = src;
    src->state = eng;
    src->next32 = devtest_next32;
    src->next64 = devtest_next64;
    src->fill = devtest_fill;
    src->status = RNG_OK;
    return RNG_OK;
}
