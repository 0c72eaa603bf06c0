/*
 * casino_war.h -- Casino War (000 別表第1 第4) rounds dealt from a virtual shoe.
 *
 * One customer plays heads-up.  Each round deals one card to the customer and
 * one to the dealer (5-1) and compares ranks, A high (5-2).  On a tie the
 * customer either surrenders (8-1-イ) or goes to war (8-1-ロ): `war_burns`
 * cards are burned (000 mentions none; operator option) and one more card is
 * dealt to each (8-2).  A round is counted in one class:
 *
 *   0 win, 1 lose, 2 war_higher, 3 war_tie, 4 war_lower, 5 surrender
 *
 * (harness.games.casino_war.CLASSES); every bet is a function of the class.
 * The shoe is the one every shoe table deals (shoe.h): shuffled by the
 * devices' procedure, ended by the same cut-card rule as baccarat.
 */
#ifndef KERN_CASINO_WAR_H
#define KERN_CASINO_WAR_H

#include <stdint.h>
#include "rng_source.h"
#include "shoe.h"

/* cffi:begin */
#define KERN_WAR_CLASSES 6

typedef struct kern_war_table {
    kern_shoe shoe;           /* the shoe in play (shoe.h) */
    uint32_t surrender;       /* 1: surrender every tie; 0: go to war */
    uint32_t war_burns;       /* cards burned before the war cards */
    uint64_t rounds;          /* rounds played so far */
} kern_war_table;

/* Set up a table for a stack of n cards.  RNG_E_ARGUMENT if n is outside
 * 4..KERN_BAC_MAX_SHOE, a code is not a card, the rules ask for a fresh stack
 * each round or a per-round burn, war_burns > 16, or the cut card leaves too
 * few cards in front of it (the burn) or behind it (this round and one more). */
int kern_war_table_init(kern_war_table *t, const uint16_t *fresh, uint32_t n, const kern_bac_rules *rules,
                       uint32_t surrender, uint32_t war_burns);

/* Play `rounds` rounds, adding one to out[class] per round (KERN_WAR_CLASSES
 * entries).  Returns RNG_OK or the source's failure status (the counts of a
 * failing call must be discarded). */
int kern_war_play(rng_source *src, kern_war_table *t, uint64_t rounds, uint64_t *out, unsigned bits);
/* cffi:end */

#endif
