/*
 * holdem_progressive.h -- Texas Hold'em Bonus's progressive (000 別表第1 第3
 * 6-9): for customer hands, how many boards of 5 of the other cards give
 * each award.
 *
 * 6-9-ロ: the customer's hand wins with a royal flush, straight flush, four
 * of a kind or full house, hands "formed without the customer's cards"
 * excluded; read: the best hand of his 7 cards wins only when it is stronger
 * than the board's own 5 cards (his cards are needed for it).  6-9-ハ-(1)
 * pays a royal flush by when it is completed, so a royal is counted by how
 * many of its cards lie on the board (3 or 4; the caller weighs the orders
 * of dealing), and a royal flush of the board alone (the 9-ニ option) apart.
 */
#ifndef KERN_HOLDEM_PROGRESSIVE_H
#define KERN_HOLDEM_PROGRESSIVE_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_THBP_CLASSES 6 /* straight flush, four of a kind, full house, royal with 3 / 4 board cards, board royal */

/* out[h * 6 + class] = boards (5 cards of `deck` not in hand h, each set once)
 * of each class, for the hands holes[2 h], holes[2 h + 1] (card indices).
 * RNG_E_ARGUMENT on a bad deck (n distinct cards 0..51, 7 <= n <= 52) or a
 * hand card outside it. */
int kern_thbp_counts(const uint8_t *deck, uint32_t n, const uint8_t *holes, uint32_t hands, uint64_t *out);
/* cffi:end */

#endif
