/*
 * chacha20.h -- the ChaCha20 keystream engine (20 rounds).
 *
 * Layout (DJB's original): state words 0-3 constants, 4-11 key, 12-13 a
 * 64-bit block counter (low word first), 14-15 a 64-bit stream id.  This
 * equals RFC 8439 with nonce = 4 zero bytes || stream id (little-endian)
 * while the counter is below 2^32.
 *
 * rng_chacha20_blocks is the pure keystream function; rng_chacha is the
 * buffered engine that the rest of the library draws from through
 * rng_source (see rng_source.h).
 */
#ifndef RNG_CHACHA20_H
#define RNG_CHACHA20_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rng_source.h"

#define RNG_CHACHA_BUF_BLOCKS 16
#define RNG_CHACHA_BUF_BYTES (64 * RNG_CHACHA_BUF_BLOCKS)

/* cffi:begin */
typedef struct rng_chacha {
    uint32_t key[8];
    uint64_t counter;        /* block counter of the next block generated */
    uint64_t stream;         /* stream id, state words 14-15 */
    uint8_t buf[1024];       /* RNG_CHACHA_BUF_BYTES of keystream not yet consumed */
    uint32_t pos;            /* bytes of buf already consumed */
    int status;              /* RNG_OK or a latched negative RNG_E* */
} rng_chacha;

/* Keystream for nblocks consecutive blocks starting at `counter`. */
void rng_chacha20_blocks(const uint32_t key[8], uint64_t counter, uint64_t stream,
                         uint8_t *out, size_t nblocks);

/* Replay mode: key = seed (32 bytes, little-endian words), counter 0. */
void rng_chacha_init_replay(rng_chacha *eng, const uint8_t seed[32], uint64_t stream);

/* Refill the buffer with the next RNG_CHACHA_BUF_BLOCKS blocks. */
void rng_chacha_refill(rng_chacha *eng);

/* Copy the next nbytes of keystream into out. */
int rng_chacha_fill(rng_chacha *eng, void *out, size_t nbytes);

/* Point a rng_source at this engine. */
void rng_chacha_source(rng_chacha *eng, rng_source *src);

/* Bytes of keystream consumed so far in replay mode (the audit position). */
uint64_t rng_chacha_position(const rng_chacha *eng);
/* cffi:end */

_Static_assert(RNG_CHACHA_BUF_BYTES == sizeof(((rng_chacha *)0)->buf), "buffer size");

static inline uint64_t rng_load64_le(const uint8_t *p)
{
    return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) |
           ((uint64_t)p[3] << 24) | ((uint64_t)p[4] << 32) | ((uint64_t)p[5] << 40) |
           ((uint64_t)p[6] << 48) | ((uint64_t)p[7] << 56);
}

static inline uint32_t rng_load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

/* Next 64 bits of keystream, read little-endian. */
static inline uint64_t rng_chacha_next64(rng_chacha *eng)
{
    if (eng->pos + 8 > RNG_CHACHA_BUF_BYTES) {
        rng_chacha_refill(eng);
    }
    uint64_t v = rng_load64_le(eng->buf + eng->pos);
    eng->pos += 8;
    return v;
}

/* Next 32 bits of keystream, read little-endian. */
static inline uint32_t rng_chacha_next32(rng_chacha *eng)
{
    if (eng->pos + 4 > RNG_CHACHA_BUF_BYTES) {
        rng_chacha_refill(eng);
    }
    uint32_t v = rng_load32_le(eng->buf + eng->pos);
    eng->pos += 4;
    return v;
}

#endif
