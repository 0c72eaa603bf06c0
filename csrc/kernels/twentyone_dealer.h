/*
 * twentyone_dealer.h -- the exact law of the twenty-one dealer's final outcome on a finite shoe.
 *
 * The exact analyses of harness.games.twentyone need the dealer's outcome law for every
 * composition a player's hand leaves (about 130,000 for a full 8-deck shoe's first round).
 * With `left` the cards of each value 1..10 still in the shoe (n of them) and the upcard
 * showing, a dealer path drawing j cards with c1..cj of their values left has probability
 * c1...cj / n(n-1)...(n-j+1) = c1...cj * scale[j] / (n)_depth, scale[j] = (n-j)...(n-depth+1),
 * depth the most cards a dealer can draw (harness: min(17, n)).  So the law is integers over
 * one denominator: out[o] = sum over the paths ending in outcome o of c1...cj * scale[j].
 * They are summed exactly in 256-bit unsigned integers (KERN_TWD_LIMBS little-endian 64-bit
 * limbs); every partial sum is at most (n)_depth, which the caller checks fits.
 *
 * Outcomes (harness.games.twentyone): 0..4 a final 17..21, 5 bust, 6 a natural (21 on the
 * second card), 7 a 22 when it pushes (dealer_22_push), else a 22 is a bust.  The dealer
 * draws below 17 and on a soft 17 when hit_soft_17 (000 1-10-ロ).
 */
#ifndef KERN_TWENTYONE_DEALER_H
#define KERN_TWENTYONE_DEALER_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_TWD_LIMBS 4         /* 64-bit limbs per numerator: 256 bits */
#define KERN_TWD_OUTCOMES 8
#define KERN_TWD_MAX_DEPTH 17    /* the most cards a dealer draws (hard 16 or less before each) */
#define KERN_TWD_OVERFLOW 1      /* a sum passed 256 bits (the caller's bound was wrong) */

/* The dealer's outcome numerators with `up` (1..10) showing and left[v-1] cards of value v in
 * the shoe (the upcard gone).  scale holds KERN_TWD_MAX_DEPTH + 1 numbers of KERN_TWD_LIMBS
 * limbs: scale[j] = (n-j)...(n-depth+1) for j <= depth (0 past it: no path draws past the cards
 * left, nor holds more than 16 cards before a draw).  out receives KERN_TWD_OUTCOMES numbers of
 * KERN_TWD_LIMBS limbs.  Returns RNG_OK, RNG_E_ARGUMENT (up outside 1..10, or a layer of the walk
 * past its proven size: cannot happen), RNG_E_MEMORY (no memory for the work space) or
 * KERN_TWD_OVERFLOW. */
int kern_tw_dealer_law(const uint32_t *left, uint32_t up, uint32_t hit_soft_17, uint32_t dealer_22_push,
                       const uint64_t *scale, uint64_t *out);
/* cffi:end */

#endif
