/*
 * numpy_bitgen.h -- numpy's bitgen_t over an rng_source, so every
 * numpy.random.Generator distribution can run on certified ChaCha20 bits.
 *
 * numpy's Generator reads a PyCapsule named "BitGenerator" that points at a
 * bitgen_t (numpy/random/bitgen.h):
 *     { void *state; uint64_t (*next_uint64)(void *);
 *       uint32_t (*next_uint32)(void *); double (*next_double)(void *);
 *       uint64_t (*next_raw)(void *); }
 * rng_numpy_bitgen repeats that layout; Python wraps its address in the
 * capsule.  The state is an rng_source *, so numpy draws through the same
 * seam as the rest of the library (production reseeding included):
 *     next_uint64 = next_raw = src->next64  (8 keystream bytes, little-endian)
 *     next_uint32 = src->next32             (4 keystream bytes, little-endian)
 *     next_double = (next64 >> 11) * 2^-53  (53 random bits, in [0, 1))
 * Failure: numpy's C interface has no error channel.  A source whose status
 * has latched negative (the OS refused entropy at a production reseed or
 * after fork) only yields words that must be discarded; numpy would hand
 * them out as random, or spin forever in a rejection loop.  So the
 * callbacks abort() the process on a failed source, as glibc's arc4random
 * does when the kernel refuses randomness: fail closed, never silently.
 */
#ifndef RNG_NUMPY_BITGEN_H
#define RNG_NUMPY_BITGEN_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
typedef struct rng_numpy_bitgen {
    void *state;
    uint64_t (*next_uint64)(void *state);
    uint32_t (*next_uint32)(void *state);
    double (*next_double)(void *state);
    uint64_t (*next_raw)(void *state);
} rng_numpy_bitgen;

/* Point bg at src (bg->state = src).  Returns src's status after a
   zero-byte fill, which runs the source's checks due before output (so an
   engine stopped by a failed self-test is refused here, not at numpy's first
   draw), or RNG_E_ARGUMENT if either pointer is NULL.  Hold the source's
   lock. */
int rng_numpy_bitgen_init(rng_numpy_bitgen *bg, rng_source *src);

/* The capsule name numpy checks, as a string with static storage. */
const char *rng_numpy_capsule_name(void);
/* cffi:end */

_Static_assert(sizeof(rng_numpy_bitgen) == 5 * sizeof(void *), "bitgen_t layout: five pointers");

#endif
