/* tablegames.c -- round tallies and automaton runs (see tablegames.h). */
#include "tablegames.h"
#include "core_link.h"

#define TG_CHUNK 4095 /* outcomes per rng_uniform8 call; a multiple of 1, 2 and 3 */

/* m = s^per_round, or 0 if the arguments are out of range. */
static uint32_t round_indices(uint32_t s, uint32_t per_round)
{
    if (s < 1 || s > 256 || per_round < 1) {
        return 0;
    }
    uint64_t m = 1;
    for (uint32_t k = 0; k < per_round; k++) {
        m *= s;
        if (m > KERN_TG_MAX_INDEX) {
            return 0;
        }
    }
    return (uint32_t)m;
}

/* Next `n` rounds' indices into idx[]: per_round outcomes each. */
static int draw_rounds(rng_source *src, uint32_t s, uint32_t per_round, uint32_t void_index,
                       uint8_t *buf, uint32_t *idx, size_t n, unsigned bits)
{
    int status = kern_core->uniform8(src, s, void_index, buf, n * per_round, bits);
    if (status != RNG_OK) {
        return status;
    }
    if (per_round == 1) {
        for (size_t i = 0; i < n; i++) {
            idx[i] = buf[i];
        }
        return RNG_OK;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t v = 0;
        for (uint32_t k = 0; k < per_round; k++) {
            v = v * s + buf[i * per_round + k];
        }
        idx[i] = v;
    }
    return RNG_OK;
}

int kern_tg_tally(rng_source *src, uint32_t s, uint32_t per_round, uint32_t void_index, uint64_t rounds,
                  uint64_t *counts, unsigned bits)
{
    if (round_indices(s, per_round) == 0) {
        return RNG_E_ARGUMENT;
    }
    uint8_t buf[TG_CHUNK];
    uint32_t idx[TG_CHUNK];
    size_t chunk = TG_CHUNK / per_round;
    while (rounds) {
        size_t n = rounds < chunk ? (size_t)rounds : chunk;
        int status = draw_rounds(src, s, per_round, void_index, buf, idx, n, bits);
        if (status != RNG_OK) {
            return status;
        }
        for (size_t i = 0; i < n; i++) {
            counts[idx[i]]++;
        }
        rounds -= n;
    }
    return src->status;
}

int kern_tg_chain(rng_source *src, uint32_t s, uint32_t per_round, uint32_t states, const uint16_t *next,
                  uint64_t rounds, uint64_t *visits, uint32_t *state, unsigned bits)
{
    uint32_t m = round_indices(s, per_round);
    if (m == 0 || states < 1 || states > KERN_TG_MAX_STATES || *state >= states) {
        return RNG_E_ARGUMENT;
    }
    for (size_t i = 0; i < (size_t)states * m; i++) {
        if (next[i] >= states) {
            return RNG_E_ARGUMENT;
        }
    }
    uint8_t buf[TG_CHUNK];
    uint32_t idx[TG_CHUNK];
    size_t chunk = TG_CHUNK / per_round;
    uint32_t q = *state;
    while (rounds) {
        size_t n = rounds < chunk ? (size_t)rounds : chunk;
        int status = draw_rounds(src, s, per_round, s, buf, idx, n, bits);
        if (status != RNG_OK) {
            *state = q;
            return status;
        }
        for (size_t i = 0; i < n; i++) {
            size_t v = (size_t)q * m + idx[i];
            visits[v]++;
            q = next[v];
        }
        rounds -= n;
    }
    *state = q;
    return src->status;
}

/* A source that counts the output bytes it hands on (every read of the
 * contract: next32 4 bytes, next64 8, fill n, words64 8 per word). */
typedef struct {
    rng_source outer; /* what the drawing code is handed */
    rng_source *inner;
    uint64_t bytes;
} counting_source;

static uint32_t counting_next32(void *state)
{
    counting_source *c = state;
    uint32_t x = c->inner->next32(c->inner->state);
    c->bytes += 4;
    c->outer.status = c->inner->status;
    return x;
}

static uint64_t counting_next64(void *state)
{
    counting_source *c = state;
    uint64_t x = c->inner->next64(c->inner->state);
    c->bytes += 8;
    c->outer.status = c->inner->status;
    return x;
}

static int counting_fill(void *state, void *out, size_t nbytes)
{
    counting_source *c = state;
    int status = c->inner->fill(c->inner->state, out, nbytes);
    c->bytes += nbytes;
    c->outer.status = c->inner->status;
    return status;
}

static int counting_words64(void *state, uint64_t *out, size_t count)
{
    counting_source *c = state;
    int status = c->inner->words64(c->inner->state, out, count);
    c->bytes += 8 * (uint64_t)count;
    c->outer.status = c->inner->status;
    return status;
}

int kern_tg_rounds(rng_source *src, uint32_t s, uint32_t per_round, uint32_t void_index, uint64_t rounds,
                   uint32_t *idx, uint64_t *ends, unsigned bits)
{
    if (round_indices(s, per_round) == 0 || per_round > TG_CHUNK) {
        return RNG_E_ARGUMENT;
    }
    counting_source c;
    c.inner = src;
    c.bytes = 0;
    rng_source_bind(&c.outer, &c, counting_next32, counting_next64, counting_fill, counting_words64, src->status);
    uint8_t buf[TG_CHUNK];
    for (uint64_t i = 0; i < rounds; i++) {
        int status = draw_rounds(&c.outer, s, per_round, void_index, buf, &idx[i], 1, bits);
        if (status != RNG_OK) {
            return status;
        }
        ends[i] = c.bytes;
    }
    return src->status;
}
