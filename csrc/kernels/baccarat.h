/*
 * baccarat.h -- punto banco: the exact outcome counts of one round from any
 * shoe composition, and rounds dealt from a virtual shoe.
 *
 * Both report a round as one of KERN_BAC_CLASSES outcome classes:
 *
 *   class = ((((pt * 10 + bt) * 2 + (np - 2)) * 2 + (nb - 2)) * 18) + ps
 *   ps    = (pp * 3 + bp) * 2 + twin
 *
 * pt, bt = final Player / Banker totals; np, nb = cards in each hand (2, 3);
 * pp, bp = the hand's first two cards: 0 no pair, 1 a pair of one rank in
 * two suits, 2 a pair of one rank and one suit; twin = both hands paired with
 * the same rank.  Every bet of the game is a function of the class, so the
 * Python pay tables never see cards.
 *
 * The tableau (000 別表第1 第1 5, 6; 003 Art. 9; 004 drawing rules):
 * a two-card 8 or 9 on either side stops the round; otherwise the Player
 * draws on 0-5, stands on 6-7; a standing Player leaves the Banker to draw on
 * 0-5; after a Player third card x the Banker draws on 0-2 always, on 3 unless
 * x = 8, on 4 if x in 2..7, on 5 if x in 4..7, on 6 if x in 6..7, never on 7.
 * Points: A = 1, 2..9 face value, 10/J/Q/K = 0; totals mod 10.
 *
 * Exact counts.  A round is weighted as an ordered sequence of SIX distinct
 * physical cards from the composition (positions P1 B1 P2 B2 X5 X6; cards a
 * round does not use are "any remaining card"), so every class count is an
 * integer out of N (N-1) ... (N-5).  With N <= KERN_BAC_MAX_CARDS that product
 * is below 2^63, so uint64 arithmetic is exact.
 *
 * Method: the four initial cards are enumerated by rank (13^4 tuples, with
 * falling multiplicities) and, only where a pair makes suits matter, by suit
 * too; their weights are pooled per point-value tuple and pair state.  The
 * draws depend only on the point values removed, so each point-value tuple's
 * third-card distribution is enumerated once by point value (10 x 10).
 */
#ifndef KERN_BACCARAT_H
#define KERN_BACCARAT_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"
#include "draws.h"
#include "shoe.h"

/* cffi:begin */
#define KERN_BAC_CLASSES 7200
#define KERN_BAC_PAIR_STATES 18
#define KERN_BAC_FACES 52        /* face index = suit * 13 + rank - 1 (rngcore.devices.cards labels) */
#define KERN_BAC_MAX_CARDS 1024  /* exact counts stay below 2^63 */

/* Exact counts of every outcome class of the next round from a shoe holding
 * faces[f] cards of face f.  out[c] receives the number of ordered six-card
 * sequences giving class c; *total receives N (N-1) ... (N-5).
 * RNG_E_ARGUMENT if N < 6 or N > KERN_BAC_MAX_CARDS. */
int kern_bac_exact(const uint32_t *faces, uint64_t *out, uint64_t *total);

typedef struct kern_bac_table {
    kern_shoe shoe;             /* the shoe in play (shoe.h) */
    uint64_t rounds;            /* rounds played so far */
    uint16_t tableau[10000];    /* filled by kern_bac_table_init (see baccarat.c) */
} kern_bac_table;

/* Set up a table for a stack of n cards (codes in fresh).  RNG_E_ARGUMENT if
 * n < 6 or n > KERN_BAC_MAX_SHOE, a code is not a card, a burn mode is
 * unknown, or the cut card's range leaves too few cards in front of it for
 * the burn and a round, or behind it for the shoe's last round(s). */
int kern_bac_table_init(kern_bac_table *t, const uint16_t *fresh, uint32_t n, const kern_bac_rules *rules);

/* Play `rounds` rounds, adding one to out[class] per round.  `bits` is the
 * source word width (64 in production; see shuffle.h).  Returns RNG_OK or the
 * source's failure status (the counts of the failing call must be discarded). */
int kern_bac_play(rng_source *src, kern_bac_table *t, uint64_t rounds, uint64_t *out, unsigned bits);

/* The round a table deals from cards[0..6) (P1 B1 P2 B2, then third cards;
 * all six are read): *cls its class, *used the cards it takes (4..6).  The
 * replay of a recorded shoe uses this, so it follows the very tableau the
 * simulation plays.  RNG_E_ARGUMENT if a code is not a card. */
int kern_bac_round(const kern_bac_table *t, const uint16_t *cards, uint32_t *cls, uint32_t *used);
/* cffi:end */

_Static_assert(KERN_BAC_CLASSES == 10 * 10 * 2 * 2 * KERN_BAC_PAIR_STATES, "class layout");

/* Point value of a rank 1..13 (A = 1, 10/J/Q/K = 0). */
static inline uint32_t kern_bac_point(uint32_t rank)
{
    return rank >= 10 ? 0 : rank;
}

/* 000 第1 6-2: does the Banker (two-card total b, 0..6) draw after the
 * Player's third card of point x? (b == 7 never reaches here.) */
static inline int kern_bac_banker_draws(uint32_t b, uint32_t x)
{
    switch (b) {
    case 0: case 1: case 2: return 1;
    case 3: return x != 8;
    case 4: return x >= 2 && x <= 7;
    case 5: return x >= 4 && x <= 7;
    case 6: return x == 6 || x == 7;
    default: return 0;
    }
}

static inline uint32_t kern_bac_class(uint32_t pt, uint32_t bt, uint32_t np, uint32_t nb, uint32_t ps)
{
    return (((pt * 10 + bt) * 2 + (np - 2)) * 2 + (nb - 2)) * KERN_BAC_PAIR_STATES + ps;
}

#endif
