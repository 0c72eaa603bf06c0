/*
 * holdem_bonus.h -- Texas Hold'em Bonus (000 別表第1 第3 6): every deal of
 * the customer's 2 cards, the flop, the turn, the river and the dealer's 2
 * cards, counted in C with the customer's turn and river decisions made
 * optimally.
 *
 * The turn bet (6-5-イ-(2)) and the river bet (6-6) are each one ante, won
 * when the customer's hand is stronger and lost when it is weaker (8-イ, ロ),
 * whatever the ante is paid; so each is worth making exactly when, with the
 * cards in view, the customer beats at least as many of the hidden (cards to
 * come, dealer's 2 cards) as beat him (a tie of expectations bets).  For every flop, every turn-river pair
 * and every customer hand, the dealer's hands are counted as weaker / equal /
 * stronger from one sorted list of the values of every 2 cards added to the
 * 5 board cards: a dealer hand is disjoint from the customer's (a, b) unless
 * it holds a or b, and the hands below a value that hold a card are counted
 * as the list is walked.  Flops equal up to a permutation of suits that
 * maps the deck onto itself are counted once, their counts added to every
 * image of each customer hand.
 *
 * A deck position is a card's index in `deck` (ascending card indices); a
 * customer hand is a pair of positions, numbered in lexicographic order.
 * Cells of a customer hand: outcome * 3 + extra, where extra = turn and river
 * bets made (0..2) and outcome
 *   0 stronger, with a flush or better      1 stronger, with a straight
 *   2 stronger, below a straight             3 equal          4 weaker
 * (the ante's pay set, 8-ロ-(1) or (2), is chosen in Python from these).
 */
#ifndef KERN_HOLDEM_BONUS_H
#define KERN_HOLDEM_BONUS_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_THB_OUTCOMES 5
#define KERN_THB_EXTRA 3
#define KERN_THB_CELLS 15

/* *flops = the flops counted once (one per orbit of the deck's suit
 * symmetries).  deck: n distinct card indices, ascending, 9 <= n <= 52;
 * RNG_E_ARGUMENT otherwise. */
int kern_thb_flops(const uint8_t *deck, uint32_t n, uint32_t *flops);

/* counts[h * 15 + cell] += deals (flop, turn, river in order, dealer's two
 * cards) of customer hand h in each cell, the flop bet made; for the k-th
 * flop counted (k < flops, from kern_thb_flops): canon[3 k ..] its deck
 * positions, and for its customer hands (pairs of the n - 3 other positions
 * in lexicographic order, P of them) turn[k * P + i] = 1 if the turn bet is
 * made, river[k * P + i] bit j set if the river bet is made when the turn
 * card is the j-th of those n - 3 positions.  RNG_E_ARGUMENT on a bad deck
 * or flops count, RNG_E_MEMORY if the work tables cannot be allocated. */
int kern_thb_counts(const uint8_t *deck, uint32_t n, uint32_t flops, int64_t *counts, uint8_t *canon,
                    uint8_t *turn, uint64_t *river);
/* cffi:end */

#endif
