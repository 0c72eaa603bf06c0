/* numpy_bitgen.c -- bitgen_t callbacks over an rng_source (see the header). */
#include "numpy_bitgen.h"

#include <stddef.h>
#include <stdlib.h>

/* A failed source returns words that must be discarded, but numpy cannot be
   told: it would hand them out, or spin forever in a rejection loop (its
   Ziggurat normal never accepts all-one words).  Like glibc's arc4random
   when the kernel refuses randomness, terminate instead. */
static inline void refuse_if_failed(const rng_source *src)
{
    if (src->status != RNG_OK) {
        abort();
    }
}

static uint64_t bitgen_next64(void *state)
{
    rng_source *src = state;
    uint64_t value = src->next64(src->state);
    refuse_if_failed(src);
    return value;
}

static uint32_t bitgen_next32(void *state)
{
    rng_source *src = state;
    uint32_t value = src->next32(src->state);
    refuse_if_failed(src);
    return value;
}

static double bitgen_next_double(void *state)
{
    /* The top 53 bits scaled by 2^-53: every multiple of 2^-53 in [0, 1)
       equally likely, the same map as rngcore's random() and numpy's own
       bit generators. */
    return (double)(bitgen_next64(state) >> 11) * (1.0 / 9007199254740992.0);
}

int rng_numpy_bitgen_init(rng_numpy_bitgen *bg, rng_source *src)
{
    if (bg == NULL || src == NULL) {
        return RNG_E_ARGUMENT;
    }
    bg->state = src;
    bg->next_uint64 = bitgen_next64;
    bg->next_uint32 = bitgen_next32;
    bg->next_double = bitgen_next_double;
    bg->next_raw = bitgen_next64;
    uint8_t none[1];
    int status = src->fill(src->state, none, 0);
    return status != RNG_OK ? status : src->status;
}

const char *rng_numpy_capsule_name(void)
{
    return "BitGenerator";
}
