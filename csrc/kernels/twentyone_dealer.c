/*
 * twentyone_dealer.c -- the dealer's exact outcome law on a finite shoe (twentyone_dealer.h).
 *
 * A forward walk of the dealer's draws, one layer per card drawn.  A state is the multiset drawn
 * so far (5 bits per value: a dealer standing on 17 draws at most 16 cards of one value), which
 * fixes the hard total, the ace and the cards held; its weight is the sum over every path into
 * it of the product of the counts each draw found (c1...cj), so each state draws once, however
 * many paths reach it, and carries one number instead of a law.  A draw that makes the dealer
 * stand adds its path weight to tally[outcome][j]; the law is sum_j tally[o][j] * scale[j].
 * Python's twentyone.Dealer reads the same numerators (its reference, with the Fraction
 * recursion of every path, in tests/test_games_twentyone_composition.py).
 *
 * Sizes.  A state that draws on holds a multiset of values 1..10 of hard total at most 16 with
 * the upcard, so at most 15 besides it: there are 658 such multisets (partitions of 0..15 into
 * parts of at most 10), so no layer holds more than LAYER states.  All the work space is one
 * allocation of about 110 KB (no per-state initialisation: the hash index is cleared by the
 * states that filled it).
 */
#include <stdlib.h>
#include <string.h>
#include "twentyone_dealer.h"

#define LAYER 1024           /* states of one layer: more than the 658 multisets that draw on */
#define SLOTS 2048           /* hash index of one layer (a power of two, twice LAYER) */
#define DEPTH (KERN_TWD_MAX_DEPTH + 1)

typedef struct { uint64_t limb[KERN_TWD_LIMBS]; } u256;
typedef struct { uint64_t key; uint32_t hard, ace; u256 weight; } state;

typedef struct {
    state states[2][LAYER];
    uint16_t index[2][SLOTS];          /* 1 + position in states, 0 empty */
    u256 tally[KERN_TWD_OUTCOMES][DEPTH];
} workspace;

_Static_assert(sizeof(u256) == 8 * KERN_TWD_LIMBS, "u256 layout");
_Static_assert(LAYER < UINT16_MAX && (SLOTS & (SLOTS - 1)) == 0 && SLOTS >= 2 * LAYER, "layer sizes");

/* acc += x * m, exactly (overflow flagged). */
static inline void muladd(u256 *acc, const u256 *x, uint64_t m, int *overflow) {
    unsigned __int128 carry = 0;
    for (int i = 0; i < KERN_TWD_LIMBS; i++) {
        unsigned __int128 t = (unsigned __int128)x->limb[i] * m + acc->limb[i] + carry;
        acc->limb[i] = (uint64_t)t;
        carry = t >> 64;
    }
    if (carry) *overflow = 1;
}

/* acc += x * y, exactly (overflow flagged: a product limb or carry past the last limb). */
static void mul_add_wide(u256 *acc, const u256 *x, const u256 *y, int *overflow) {
    for (int i = 0; i < KERN_TWD_LIMBS; i++) {
        if (!x->limb[i]) continue;
        unsigned __int128 carry = 0;
        for (int k = 0; k < KERN_TWD_LIMBS; k++) {
            if (i + k >= KERN_TWD_LIMBS) {
                if (y->limb[k]) *overflow = 1;
                continue;
            }
            unsigned __int128 t = (unsigned __int128)x->limb[i] * y->limb[k] + acc->limb[i + k] + carry;
            acc->limb[i + k] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry) *overflow = 1;
    }
}

/* The state of `key` in layer `side`, added (weight 0) if new; NULL past LAYER states. */
static state *find(workspace *w, int side, uint32_t *count, uint64_t key, uint32_t hard, uint32_t ace) {
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 53);   /* 11 bits: SLOTS */
    for (;;) {
        uint16_t at = w->index[side][h];
        if (!at) break;
        if (w->states[side][at - 1].key == key) return &w->states[side][at - 1];
        h = (h + 1) & (SLOTS - 1);
    }
    if (*count >= LAYER) return NULL;
    state *s = &w->states[side][*count];
    w->index[side][h] = (uint16_t)++*count;
    s->key = key, s->hard = hard, s->ace = ace;
    memset(&s->weight, 0, sizeof s->weight);
    return s;
}

/* Empty layer `side`'s hash index by re-probing each of its `count` states' keys. */
static void clear(workspace *w, int side, uint32_t count) {
    for (uint32_t n = 0; n < count; n++) {
        uint32_t h = (uint32_t)((w->states[side][n].key * 0x9E3779B97F4A7C15ull) >> 53);
        while (w->index[side][h]) { w->index[side][h] = 0; h = (h + 1) & (SLOTS - 1); }
    }
}

int kern_tw_dealer_law(const uint32_t *left, uint32_t up, uint32_t hit_soft_17, uint32_t dealer_22_push,
                       const uint64_t *scale, uint64_t *out) {
    if (up < 1 || up > 10) return RNG_E_ARGUMENT;
    workspace *w = malloc(sizeof *w);
    if (w == NULL) return RNG_E_MEMORY;
    memset(w->index, 0, sizeof w->index);
    memset(w->tally, 0, sizeof w->tally);
    int overflow = 0, status = RNG_OK;
    uint32_t count = 0, side = 0;
    state *start = find(w, 0, &count, 0, up, up == 1);
    start->weight.limb[0] = 1;
    /* layer `drawn`: the states holding the upcard and `drawn` more cards, each about to draw */
    for (uint32_t drawn = 0; count && status == RNG_OK; drawn++) {
        uint32_t next = 0;
        for (uint32_t n = 0; n < count && status == RNG_OK; n++) {
            const state *s = &w->states[side][n];
            for (uint32_t i = 0; i < 10; i++) {
                uint32_t held = (uint32_t)(s->key >> (5 * i)) & 31;
                if (left[i] <= held) continue;
                uint64_t c = left[i] - held;
                uint32_t h = s->hard + i + 1, a = s->ace || i == 0;
                uint32_t soft = a && h <= 11, t = soft ? h + 10 : h;
                if (t > 17 || (t == 17 && !(soft && hit_soft_17))) {
                    uint32_t o = (drawn == 0 && t == 21) ? 6 : t <= 21 ? t - 17 : (t == 22 && dealer_22_push) ? 7 : 5;
                    muladd(&w->tally[o][drawn + 1], &s->weight, c, &overflow);
                } else {
                    state *to = find(w, side ^ 1, &next, s->key + ((uint64_t)1 << (5 * i)), h, a);
                    if (to == NULL) { status = RNG_E_ARGUMENT; break; }   /* cannot happen (file doc) */
                    muladd(&to->weight, &s->weight, c, &overflow);
                }
            }
        }
        clear(w, side, count);
        side ^= 1, count = next;
    }
    u256 *law = (u256 *)out;
    memset(law, 0, KERN_TWD_OUTCOMES * sizeof(u256));
    for (int o = 0; o < KERN_TWD_OUTCOMES; o++)
        for (int j = 1; j < DEPTH; j++)
            mul_add_wide(&law[o], &w->tally[o][j], (const u256 *)scale + j, &overflow);
    free(w);
    if (status != RNG_OK) return status;
    return overflow ? KERN_TWD_OVERFLOW : RNG_OK;
}
