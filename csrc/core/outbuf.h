/*
 * outbuf.h -- reading an engine's output buffer (chacha20.c, drbg.c).
 *
 * An engine buffers output it generated ahead of its callers.  Reading
 * copies bytes out and zeroes them in the buffer, so the buffer holds zeros
 * before `pos` and unread output after it: no returned output stays in the
 * engine's state.
 */
#ifndef RNG_OUTBUF_H
#define RNG_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Copy up to n unread bytes of buf[*pos .. size) to dst, zeroing them and
   advancing *pos; the count copied. */
static inline size_t rng_outbuf_take(uint8_t *buf, size_t size, uint32_t *pos, uint8_t *dst, size_t n)
{
    size_t have = size - *pos, take = have < n ? have : n;
    memcpy(dst, buf + *pos, take);
    memset(buf + *pos, 0, take);
    *pos += (uint32_t)take;
    return take;
}

/* rng_outbuf_take into *dst, moving *dst and *n past what was copied. */
static inline void rng_outbuf_drain(uint8_t *buf, size_t size, uint32_t *pos, uint8_t **dst, size_t *n)
{
    size_t take = rng_outbuf_take(buf, size, pos, *dst, *n);
    *dst += take;
    *n -= take;
}

#endif
