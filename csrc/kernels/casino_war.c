/*
 * casino_war.c -- Casino War rounds from a dealt-down shoe (casino_war.h).
 */
#include <string.h>
#include "casino_war.h"

/* 000 第4 5-2: A > K > ... > 2, by rank code (1 = A .. 13 = K). */
static const uint8_t STRENGTH[16] = {0, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0, 0};

int kern_war_table_init(kern_war_table *t, const uint16_t *fresh, uint32_t n, const kern_bac_rules *rules,
                       uint32_t surrender, uint32_t war_burns)
{
    if (n < 4 || n > KERN_BAC_MAX_SHOE || war_burns > 16 || rules->fresh_each_round || rules->burn_each_round ||
        rules->burn_mode > 1 || !rules->one_more_round) {
        return RNG_E_ARGUMENT;
    }
    uint32_t longest = surrender ? 2 : 4 + war_burns;
    uint32_t burn = rules->burn_mode ? rules->burn_count : 0;
    if (rules->cut_behind_lo > rules->cut_behind_hi || rules->cut_behind_lo < 2 * longest - 1 ||
        rules->cut_behind_hi > n || n - rules->cut_behind_hi <= burn || 2 * rules->cut_min_from_end > n) {
        return RNG_E_ARGUMENT;
    }
    memset(t, 0, sizeof *t);
    int status = kern_shoe_init(&t->shoe, fresh, n, rules);
    if (status != RNG_OK) {
        return status;
    }
    t->surrender = surrender != 0;
    t->war_burns = war_burns;
    return RNG_OK;
}

int kern_war_play(rng_source *src, kern_war_table *t, uint64_t rounds, uint64_t *out, unsigned bits)
{
    kern_shoe *s = &t->shoe;
    if (s->n < 4 || s->n > KERN_BAC_MAX_SHOE) {
        return RNG_E_ARGUMENT;
    }
    const uint16_t *c = s->cards;
    uint64_t tally[KERN_WAR_CLASSES] = {0};
    for (uint64_t r = 0; r < rounds; r++) {
        int status = kern_shoe_ready(src, s, bits);
        if (status != RNG_OK) {
            return status;
        }
        uint32_t start = s->pos, pos = start;
        uint32_t a = STRENGTH[c[pos] & 15], b = STRENGTH[c[pos + 1] & 15];
        pos += 2;
        if (a != b) {
            tally[a < b]++; /* 0 win, 1 lose */
        } else if (t->surrender) {
            tally[5]++;
        } else {
            pos += t->war_burns;
            uint32_t x = STRENGTH[c[pos] & 15], y = STRENGTH[c[pos + 1] & 15];
            pos += 2;
            tally[x > y ? 2 : x == y ? 3 : 4]++;
        }
        s->pos = pos;
        kern_shoe_round_end(s, start, start); /* 000 第4 9 applying 第1 10 */
    }
    for (unsigned i = 0; i < KERN_WAR_CLASSES; i++) {
        out[i] += tally[i];
    }
    t->rounds += rounds;
    return src->status;
}
