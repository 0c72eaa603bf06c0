/*
 * core_api.h -- the core's draws as a table, for the layers built on it.
 *
 * Each layer is its own extension, and one extension cannot link against
 * another's symbols.  The kernels (csrc/kernels/) therefore reach the
 * certified shuffle, device and bounded draws (and the core's SHA-256, for the
 * round journal's hash chain) through this table, handed to them once
 * at import, rather than compiling a second copy of the core: there is one
 * certified implementation in the process, and its build hash names it.
 * Header-only routines (bounded.h, the batch helpers of shuffle.h) are
 * compiled into the including layer, whose build records the core hash it
 * was compiled against.
 */
#ifndef RNG_CORE_API_H
#define RNG_CORE_API_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
typedef struct rng_core_api {
    size_t size; /* sizeof(rng_core_api): a user refuses a table of another shape */
    int (*shuffle16)(rng_source *src, uint16_t *a, size_t n, unsigned bits);
    int (*uniform8)(rng_source *src, uint32_t s, uint32_t void_index, uint8_t *out, size_t count,
                    unsigned bits);
    int64_t (*draw_bounded32)(rng_source *src, uint32_t max);
    uint64_t (*batch_limit)(unsigned bits);
    void (*sha256)(const uint8_t *data, size_t n, uint8_t out[32]);
} rng_core_api;

/* The table (static storage; never NULL). */
const rng_core_api *rng_core_api_table(void);
/* cffi:end */

#endif
