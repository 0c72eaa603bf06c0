/*
 * shoe.h -- a shoe of cards dealt down to its cut card, for every table that
 * deals one (baccarat.h, casino_war.h).
 *
 * kern_bac_rules states how a shoe is run (the devices' shoe procedures,
 * rngcore.devices.rulesets); kern_shoe is a shoe in play: the shuffled cards,
 * the next card, the cut card and whether the next round is the last.  A
 * table embeds one, deals from cards[pos], and after each round calls
 * kern_shoe_round_end, which applies the cut-card rule the same way for every
 * game: the cut card comes out just before the card at cut_at; out before the
 * round's own cards, that round is the shoe's last; out during it, the next
 * round is (one_more_round, 000 別表第1 第1 10) or this one is.
 */
#ifndef KERN_SHOE_H
#define KERN_SHOE_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_BAC_MAX_SHOE 624    /* 12 decks */

/* How a shoe is run: the fields of rngcore.devices.rulesets.RuleSet (the
 * devices' shoe procedures), so a table deals exactly the shoes that
 * rngcore.devices.shoe.Shoe deals from the same generator. */
typedef struct kern_bac_rules {
    uint32_t fresh_each_round;   /* 1: every round from a freshly shuffled stack
                                    (partial Fisher-Yates of the 6 cards a round
                                    may use); the fields below are then unused */
    uint32_t cut_min_from_end;   /* 0: no cut; else the stack is rotated at a
                                    position m + U[0, n - 2m] (rng_draw_bounded32) */
    uint32_t cut_behind_lo;      /* cards behind the cut card: lo + U[0, hi - lo] */
    uint32_t cut_behind_hi;      /*   (no draw when lo == hi) */
    uint32_t one_more_round;     /* 1: after the cut card comes out during a round,
                                    play one more round; 0: finish this round */
    uint32_t burn_mode;          /* 0 none; 1 burn_count cards; 2 by value: turn one
                                    card and burn as many more as its value */
    uint32_t burn_count;
    uint32_t burn_ace;           /* by value: cards for an ace ... */
    uint32_t burn_ten;           /* ... and for 10/J/Q/K (2-9 at face value) */
    uint32_t burn_indicator_counts; /* by value: the turned card is one of them */
    uint32_t burn_each_round;    /* cards burned at the start of every round */
} kern_bac_rules;

/* A shoe in play (set up by kern_shoe_init). */
typedef struct kern_shoe {
    uint16_t cards[624];        /* the shoe (rngcore.devices.cards codes) */
    uint16_t fresh[624];        /* the unshuffled stack */
    uint32_t n;                 /* cards in the shoe */
    uint32_t pos;               /* next card to deal */
    uint32_t cut_at;            /* index of the first card behind the cut card */
    uint32_t last_round;        /* the next round is the shoe's last */
    uint32_t need_shuffle;      /* reshuffle before the next round */
    uint64_t shoes;             /* shoes shuffled so far */
    kern_bac_rules rules;
} kern_shoe;
/* cffi:end */

/* Set up a shoe of the n cards in fresh, to be shuffled before its first
 * round.  RNG_E_ARGUMENT if n > KERN_BAC_MAX_SHOE or a code is not a card
 * (rank 1..13, no bits 6-7); the caller checks n's lower bound and the rules
 * against its own rounds. */
int kern_shoe_init(kern_shoe *s, const uint16_t *fresh, uint32_t n, const kern_bac_rules *rules);

/* Shuffle, cut, place the cut card and burn (rngcore.devices.shoe.Shoe.shuffle,
 * the same draws in the same order): cards receives the shoe, *cut_at the
 * index of the first card behind the cut card, *pos the first card to deal.
 * Arguments as checked by kern_bac_table_init; returns the source's status. */
int kern_bac_shoe_init(rng_source *src, const kern_bac_rules *rules, const uint16_t *fresh, uint16_t *cards,
                       uint32_t n, unsigned bits, uint32_t *cut_at, uint32_t *pos);

/* Shuffle a new shoe (kern_bac_shoe_init) and count it; returns the source's status. */
int kern_shoe_shuffle(rng_source *src, kern_shoe *s, unsigned bits);

/* Shuffle first if the last shoe is done: call before dealing each round. */
static inline int kern_shoe_ready(rng_source *src, kern_shoe *s, unsigned bits)
{
    return s->need_shuffle ? kern_shoe_shuffle(src, s, bits) : RNG_OK;
}

/* After a round that started at `start`, whose own cards (after any per-round
 * burn) begin at `first`, and ended with s->pos at the next card: the
 * cut-card rule (top of this file). */
static inline void kern_shoe_round_end(kern_shoe *s, uint32_t start, uint32_t first)
{
    int at_start = start <= s->cut_at && s->cut_at <= first;
    int during = first < s->cut_at && s->cut_at < s->pos;
    if (s->last_round || at_start || (during && !s->rules.one_more_round)) {
        s->need_shuffle = 1;
    } else if (during) {
        s->last_round = 1; /* 000 第1 10: the next round is the last */
    }
}

_Static_assert(KERN_BAC_MAX_SHOE == 12 * 52, "shoe size");

#endif
