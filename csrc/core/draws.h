/*
 * draws.h -- the batched draws rngcore's Generator calls (one C call per
 * request, never one per value): bounded integers into any integer dtype,
 * and floats in [0, 1).  All take an rng_source *, so the same code runs on
 * the ChaCha20 engine and on the test engine.
 *
 * Keystream consumed (part of the audit contract, docs/audit_contract.md):
 *   integers on [low, low + max]: per value, rng_bounded_max32 when
 *     max < 2^32 (4-byte words), rng_bounded_max64 otherwise (8-byte
 *     words); max == 0 consumes nothing.  Values in order.
 *   doubles: per value one 8-byte word x, value (x >> 11) * 2^-53.
 * All return RNG_OK or the source's negative status; on failure the output
 * is incomplete and must be discarded.
 */
#ifndef RNG_DRAWS_H
#define RNG_DRAWS_H

#include <stddef.h>
#include <stdint.h>
#include "bounded.h"
#include "rng_source.h"

/* cffi:begin */
/* count values low + U[0, max] into out, elements of itemsize bytes
   (1, 2, 4 or 8), computed modulo 2^(8 * itemsize) -- the caller ensures
   low and low + max fit the element type, signed or unsigned. */
int rng_draw_integers(rng_source *src, void *out, size_t count, int itemsize,
                      uint64_t low, uint64_t max);
/* One value U[0, max] (max < 2^32), or a negative RNG_E_* status. */
int64_t rng_draw_bounded32(rng_source *src, uint32_t max);
/* count doubles (x >> 11) * 2^-53 in [0, 1). */
int rng_draw_doubles(rng_source *src, double *out, size_t count);
/* One such double, or -1.0 if the source has failed. */
double rng_draw_double(rng_source *src);
/* cffi:end */

#endif
