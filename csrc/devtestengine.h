/*
 * devtestengine.h -- a finite, enumerable word source for the devices'
 * exhaustive no-bias proofs (tests/test_devices_exhaustive.py).
 *
 * It replays a caller-supplied list of w-bit words, each returned by next64
 * left-aligned (y << (64 - w)), which is how the batched index code in
 * shuffle.h runs on w-bit words without a separate w-bit build (see the
 * "Reduced word width" note there).  Reading past the list latches
 * RNG_E_EXHAUSTED in the rng_source and returns all-one words (like the
 * core's testengine.h: accepted at once, so no rejection loop spins), so a
 * proof can tell "finished within these words" from "needed more".
 */
#ifndef RNG_DEVTESTENGINE_H
#define RNG_DEVTESTENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
typedef struct rng_devtest {
    const uint64_t *words; /* the w-bit words to replay, each < 2^bits */
    size_t count;          /* how many */
    size_t used;           /* how many have been read */
    unsigned bits;         /* word width w, 1..64 */
    rng_source *src;       /* the source to latch RNG_E_EXHAUSTED into */
} rng_devtest;

/* Point src at eng (replaying words[0..count) of width bits from the start).
 * RNG_E_ARGUMENT if bits is outside [1, 64] or a word does not fit. */
int rng_devtest_source(rng_devtest *eng, const uint64_t *words, size_t count, unsigned bits,
                       rng_source *src);
/* cffi:end */

#endif
