/*
 * byteorder.h -- explicit little-endian loads and stores.
 *
 * The audit contract reads keystream bytes as little-endian words whatever
 * the host's byte order; these helpers say so at every use.  Compilers turn
 * them into single moves on little-endian hosts.
 */
#ifndef RNG_BYTEORDER_H
#define RNG_BYTEORDER_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define RNG_LITTLE_ENDIAN_HOST 1
#else
#define RNG_LITTLE_ENDIAN_HOST 0
#endif

static inline uint16_t rng_load16_le(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t rng_load32_le(const uint8_t *p)
{
#if RNG_LITTLE_ENDIAN_HOST
    uint32_t v; /* a plain load (vectorisable); the bytes are already in order */
    memcpy(&v, p, sizeof v);
    return v;
#else
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
#endif
}

static inline uint64_t rng_load64_le(const uint8_t *p)
{
#if RNG_LITTLE_ENDIAN_HOST
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
#else
    return (uint64_t)rng_load32_le(p) | ((uint64_t)rng_load32_le(p + 4) << 32);
#endif
}

static inline void rng_store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void rng_store64_le(uint8_t *p, uint64_t v)
{
#if RNG_LITTLE_ENDIAN_HOST
    memcpy(p, &v, sizeof v); /* one store */
#else
    rng_store32_le(p, (uint32_t)v);
    rng_store32_le(p + 4, (uint32_t)(v >> 32));
#endif
}

#endif
