/*
 * twentyone_dealer.c -- the dealer's exact outcome law on a finite shoe (twentyone_dealer.h).
 *
 * A depth-first walk of the dealer's draws, memoised by the multiset drawn so far (5 bits per
 * value: a dealer standing on 17 draws at most 16 cards of one value), which fixes the hard
 * total, the ace and the cards held, so every path into a state shares its sub-law.  Python's
 * twentyone.Dealer computes the same numerators in Python integers (its reference, with the
 * Fraction recursion of every path, in tests/test_games_twentyone_composition.py).
 */
#include <stdlib.h>
#include <string.h>
#include "twentyone_dealer.h"

#define SLOTS 4096            /* memo slots: far more than the dealer's states (under 1,000) */
#define EMPTY_KEY UINT64_MAX

typedef struct { uint64_t limb[KERN_TWD_LIMBS]; } u256;
typedef struct { uint64_t key; u256 out[KERN_TWD_OUTCOMES]; } state;

typedef struct {
    uint32_t left[10];
    uint32_t h17, push22;
    const u256 *scale;
    state *memo;
    int overflow;
} walk;

_Static_assert(sizeof(u256) == 8 * KERN_TWD_LIMBS, "u256 layout");

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

static state *slot(walk *w, uint64_t key) {
    uint64_t h = (key * 0x9E3779B97F4A7C15ull) >> 52;   /* 12 bits: SLOTS */
    while (w->memo[h].key != EMPTY_KEY && w->memo[h].key != key) h = (h + 1) & (SLOTS - 1);
    return &w->memo[h];
}

/* The numerators of the outcomes from a dealer holding `cards` cards of hard total `hard`. */
static const u256 *play(walk *w, uint32_t hard, int ace, uint32_t cards, uint64_t drawn) {
    state *s = slot(w, drawn);
    if (s->key == drawn) return s->out;
    u256 out[KERN_TWD_OUTCOMES];
    memset(out, 0, sizeof out);
    for (uint32_t i = 0; i < 10; i++) {
        uint32_t c = w->left[i];
        if (!c) continue;
        uint32_t h = hard + i + 1;
        int a = ace || i == 0;
        int soft = a && h <= 11;
        uint32_t t = soft ? h + 10 : h;
        if (t > 17 || (t == 17 && !(soft && w->h17))) {
            uint32_t o = (cards == 1 && t == 21) ? 6 : t <= 21 ? t - 17 : (t == 22 && w->push22) ? 7 : 5;
            muladd(&out[o], &w->scale[cards], c, &w->overflow);
        } else {
            w->left[i]--;
            const u256 *sub = play(w, h, a, cards + 1, drawn + ((uint64_t)1 << (5 * i)));
            w->left[i]++;
            for (int o = 0; o < KERN_TWD_OUTCOMES; o++) muladd(&out[o], &sub[o], c, &w->overflow);
        }
    }
    s = slot(w, drawn);      /* the walk below may have filled slots, never this key's */
    s->key = drawn;
    memcpy(s->out, out, sizeof out);
    return s->out;
}

int kern_tw_dealer_law(const uint32_t *left, uint32_t up, uint32_t hit_soft_17, uint32_t dealer_22_push,
                       const uint64_t *scale, uint64_t *out) {
    if (up < 1 || up > 10) return RNG_E_ARGUMENT;
    walk w;
    memcpy(w.left, left, sizeof w.left);
    w.h17 = hit_soft_17 != 0;
    w.push22 = dealer_22_push != 0;
    w.overflow = 0;
    w.scale = (const u256 *)scale;
    w.memo = malloc(SLOTS * sizeof(state));
    if (w.memo == NULL) return RNG_E_MEMORY;
    for (uint32_t i = 0; i < SLOTS; i++) w.memo[i].key = EMPTY_KEY;
    const u256 *law = play(&w, up, up == 1, 1, 0);
    memcpy(out, law, KERN_TWD_OUTCOMES * sizeof(u256));
    free(w.memo);
    return w.overflow ? KERN_TWD_OVERFLOW : RNG_OK;
}
