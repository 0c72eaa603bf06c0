/*
 * shoe.c -- a shoe dealt down to its cut card (shoe.h).
 */
#include <string.h>
#include "shoe.h"
#include "core_link.h"

int kern_shoe_init(kern_shoe *s, const uint16_t *fresh, uint32_t n, const kern_bac_rules *rules)
{
    if (n > KERN_BAC_MAX_SHOE) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t rank = fresh[i] & 15;
        if (rank < 1 || rank > 13 || (fresh[i] & 0xC0)) {
            return RNG_E_ARGUMENT;
        }
    }
    memset(s, 0, sizeof *s);
    memcpy(s->fresh, fresh, n * sizeof *fresh);
    memcpy(s->cards, fresh, n * sizeof *fresh);
    s->n = n;
    s->rules = *rules;
    s->cut_at = n;
    s->need_shuffle = 1;
    return RNG_OK;
}

/* Initialise a shoe as rngcore.devices.shoe.Shoe.shuffle() does, drawing the
 * same words in the same order: Fisher-Yates of the fresh stack
 * (rng_shuffle16), the cut (rotation), the cut card's depth, then the burn. */
int kern_bac_shoe_init(rng_source *src, const kern_bac_rules *rules, const uint16_t *fresh, uint16_t *cards,
                       uint32_t n, unsigned bits, uint32_t *cut_at, uint32_t *pos)
{
    memcpy(cards, fresh, n * sizeof *cards);
    int status = kern_core->shuffle16(src, cards, n, bits);
    if (status != RNG_OK) {
        return status;
    }
    uint32_t m = rules->cut_min_from_end;
    if (m && n > 2 * m) { /* cards above the cutting card go to the bottom */
        int64_t v = kern_core->draw_bounded32(src, n - 2 * m);
        if (v < 0) {
            return (int)v;
        }
        uint32_t at = m + (uint32_t)v;
        uint16_t top[KERN_BAC_MAX_SHOE];
        memcpy(top, cards, at * sizeof *top);
        memmove(cards, cards + at, (n - at) * sizeof *cards);
        memcpy(cards + (n - at), top, at * sizeof *top);
    }
    uint32_t behind = rules->cut_behind_lo;
    if (rules->cut_behind_hi > rules->cut_behind_lo) {
        int64_t v = kern_core->draw_bounded32(src, rules->cut_behind_hi - rules->cut_behind_lo);
        if (v < 0) {
            return (int)v;
        }
        behind += (uint32_t)v;
    }
    *cut_at = n - behind;
    switch (rules->burn_mode) {
    case 1:
        *pos = rules->burn_count;
        break;
    case 2: {
        uint32_t rank = cards[0] & 15;
        uint32_t value = rank == 1 ? rules->burn_ace : rank >= 10 ? rules->burn_ten : rank;
        *pos = 1 + (rules->burn_indicator_counts ? (value ? value - 1 : 0) : value);
        break;
    }
    default:
        *pos = 0;
    }
    return RNG_OK;
}

int kern_shoe_shuffle(rng_source *src, kern_shoe *s, unsigned bits)
{
    int status = kern_bac_shoe_init(src, &s->rules, s->fresh, s->cards, s->n, bits, &s->cut_at, &s->pos);
    if (status != RNG_OK) {
        return status;
    }
    s->last_round = 0;
    s->need_shuffle = 0;
    s->shoes++;
    return RNG_OK;
}
