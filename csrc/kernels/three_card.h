/*
 * three_card.h -- Three Card Poker (000 別表第1 第3 5): every deal of the
 * customer's three cards against the dealer's three, counted in C.
 *
 * Hands are the C(52, 3) = 22,100 three-card hands in lexicographic order of
 * their sorted card indices (harness.games.poker_hands.all_values(3)), each
 * given by its value (poker_eval.h, kern_pk_value3) and its 52-bit card set.
 * For every customer hand, each of the C(49, 3) = 18,424 dealer hands of the
 * other cards is one of four classes:
 *
 *   0 the dealer does not qualify (value < qualify, 5-6-イ-(1))
 *   1 the dealer qualifies and the customer's hand is stronger (5-6-ロ-(1))
 *   2 the dealer qualifies and the hands are equal
 *   3 the dealer qualifies and the customer's hand is weaker
 *
 * Every bet, strategy and pay table is settled from these counts in Python.
 */
#ifndef KERN_THREE_CARD_H
#define KERN_THREE_CARD_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_TCP_HANDS 22100
#define KERN_TCP_CLASSES 4

/* out[i * 4 + class] = dealer hands of the cards not in hand i in each class;
 * values[i] and sets[i] (bit c = card c) describe hand i of `hands`.
 * RNG_E_ARGUMENT unless hands is 1..KERN_TCP_HANDS and every set holds 3 cards
 * of 0..51. */
int kern_tcp_versus(const uint32_t *values, const uint64_t *sets, uint32_t hands, uint32_t qualify, uint64_t *out);
/* cffi:end */

#endif
