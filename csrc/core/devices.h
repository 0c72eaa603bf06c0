/*
 * devices.h -- bulk outcomes of dice and wheels: independent indices uniform
 * on [0, s), several per 64-bit word (the batched bounded indices of
 * shuffle.h with every bound equal to s; the batch product is s^k).
 *
 * A wheel section that voids the spin (the 00 pocket of a double-zero wheel
 * used as a single-zero wheel, PA 58 Pa. Code § 531.1(d)(2)(ii)) is handled
 * as the table does it: the spin is discarded and the wheel spun again, so
 * the kept outcomes are uniform on the other s - 1 sections.
 */
#ifndef RNG_DEVICES_H
#define RNG_DEVICES_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"
#include "shuffle.h"

/* cffi:begin */
/* out[0..count) = independent indices uniform on [0, s) \ {void_index}
 * (void_index >= s: nothing is voided); 1 <= s <= 256; `bits` as in
 * rng_shuffle16 (64 in production).  RNG_E_ARGUMENT on a bad s, bits or
 * void (voiding the only section); else the source's status. */
int rng_uniform8(rng_source *src, uint32_t s, uint32_t void_index, uint8_t *out, size_t count,
                 unsigned bits);
/* cffi:end */

#endif
