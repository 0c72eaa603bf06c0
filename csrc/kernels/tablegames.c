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
