/* chacha20.c -- portable ChaCha20 block function and the buffered engine. */
#include "chacha20.h"

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d)                         \
    do {                                       \
        a += b; d ^= a; d = ROTL32(d, 16);     \
        c += d; b ^= c; b = ROTL32(b, 12);     \
        a += b; d ^= a; d = ROTL32(d, 8);      \
        c += d; b ^= c; b = ROTL32(b, 7);      \
    } while (0)

static void store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void chacha20_block_portable(const uint32_t key[8], uint64_t counter, uint64_t stream,
                                    uint8_t out[64])
{
    uint32_t in[16] = {
        0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,
        key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
        (uint32_t)counter, (uint32_t)(counter >> 32),
        (uint32_t)stream, (uint32_t)(stream >> 32),
    };
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int i = 0; i < 10; i++) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) {
        store32_le(out + 4 * i, x[i] + in[i]);
    }
}

void rng_chacha20_blocks(const uint32_t key[8], uint64_t counter, uint64_t stream,
                         uint8_t *out, size_t nblocks)
{
    for (size_t i = 0; i < nblocks; i++) {
        chacha20_block_portable(key, counter + i, stream, out + 64 * i);
    }
}

void rng_chacha_init_replay(rng_chacha *eng, const uint8_t seed[32], uint64_t stream)
{
    memset(eng, 0, sizeof *eng);
    for (int i = 0; i < 8; i++) {
        eng->key[i] = rng_load32_le(seed + 4 * i);
    }
    eng->stream = stream;
    eng->counter = 0;
    eng->pos = RNG_CHACHA_BUF_BYTES; /* empty: first draw refills */
    eng->status = RNG_OK;
}

void rng_chacha_refill(rng_chacha *eng)
{
    rng_chacha20_blocks(eng->key, eng->counter, eng->stream, eng->buf, RNG_CHACHA_BUF_BLOCKS);
    eng->counter += RNG_CHACHA_BUF_BLOCKS;
    eng->pos = 0;
}

int rng_chacha_fill(rng_chacha *eng, void *out, size_t nbytes)
{
    uint8_t *dst = out;
    if (eng->status != RNG_OK) {
        return eng->status;
    }
    /* Drain what is buffered, then write whole buffers straight to dst. */
    size_t have = RNG_CHACHA_BUF_BYTES - eng->pos;
    size_t take = have < nbytes ? have : nbytes;
    memcpy(dst, eng->buf + eng->pos, take);
    eng->pos += (uint32_t)take;
    dst += take;
    nbytes -= take;
    size_t whole = nbytes / 64;
    if (whole) {
        rng_chacha20_blocks(eng->key, eng->counter, eng->stream, dst, whole);
        eng->counter += whole;
        dst += 64 * whole;
        nbytes -= 64 * whole;
    }
    if (nbytes) {
        rng_chacha_refill(eng);
        memcpy(dst, eng->buf, nbytes);
        eng->pos = (uint32_t)nbytes;
    }
    return eng->status;
}

static uint32_t source_next32(void *state) { return rng_chacha_next32(state); }
static uint64_t source_next64(void *state) { return rng_chacha_next64(state); }
static int source_fill(void *state, void *out, size_t n) { return rng_chacha_fill(state, out, n); }

void rng_chacha_source(rng_chacha *eng, rng_source *src)
{
    src->state = eng;
    src->next32 = source_next32;
    src->next64 = source_next64;
    src->fill = source_fill;
    src->status = RNG_OK;
}

uint64_t rng_chacha_position(const rng_chacha *eng)
{
    return eng->counter * 64 - (RNG_CHACHA_BUF_BYTES - eng->pos);
}
