/*
 * caribbean_stud.h -- Caribbean Stud Poker (000 別表第1 第3 4): the exact
 * return of the ante and bet over every deal, the customer's fold-or-bet
 * decision made for each of his hands and the dealer's up card.
 *
 * A deal is the customer's 5 cards P, the dealer's up card u and the dealer's
 * 4 other cards, from a deck of n cards (n = 52, or a reduced deck for the
 * tests): C(n,5) (n-5) C(n-6,4) deals.  For each (P, u) the dealer hands are
 * counted by inclusion-exclusion over the subsets S of P,
 *
 *     #{D : u in D, D and P disjoint, class(D) < x}
 *         = sum over S of (-1)^|S| #{D : D contains S + u, class(D) < x},
 *
 * each term read from tables of the hands containing every set of 1..4 cards
 * (cumulative counts for 1 and 2 cards, sorted class lists for 3 and 4).
 * Hands are ranked by class, the index of their value among the deck's
 * distinct values (poker_eval.h), so x takes the dealer's qualification and
 * the customer's own class.  Customer hands equal up to a permutation of
 * suits that maps the deck onto itself are counted once, with their weight.
 *
 * Classes of a deal (net per unit of ante; the bet is 2 antes, 4-4):
 *   0 fold (-1)  1 dealer not qualified (+1)  2 customer stronger (+1 + 2 pay)
 *   3 equal (0)  4 customer weaker (-3)
 */
#ifndef KERN_CARIBBEAN_STUD_H
#define KERN_CARIBBEAN_STUD_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_CSP_CLASSES 5
#define KERN_CSP_OPTIMAL 0     /* bet when its exact expectation is at least the fold's */
#define KERN_CSP_THRESHOLD 1   /* bet when the customer's value >= threshold */

/* out[category * 5 + class] += deals, category = the customer's hand
 * (value >> 26, 16 entries); decisions[0] / [1] += (P, u) pairs bet / folded.
 * deck: n distinct card indices (0..51), 12 <= n <= 52; values: the deck's
 * distinct five-card values, ascending (classes = positions in it);
 * qualify: the class of the weakest qualifying dealer hand; pays[category]:
 * the bet's odds "pays to 1" for a customer win against a qualified dealer.
 * RNG_E_ARGUMENT on bad sizes, cards or values; RNG_E_MEMORY if the tables
 * (about 120 MB for 52 cards) cannot be allocated. */
int kern_csp_counts(const uint8_t *deck, uint32_t n, const uint32_t *values, uint32_t classes, uint32_t qualify,
                    const uint32_t *pays, uint32_t strategy, uint32_t threshold, uint64_t *out,
                    uint64_t *decisions);

/* The dealer tables of a deck kept for deciding rounds (arguments as above). */
typedef struct kern_csp_tables kern_csp_tables;
int kern_csp_tables_new(const uint8_t *deck, uint32_t n, const uint32_t *values, uint32_t classes,
                        kern_csp_tables **out);
void kern_csp_tables_free(kern_csp_tables *t);

/* bet[r] = 1 if the optimal decision bets round r: cards[r * 6 ..] are the
 * customer's five cards then the dealer's up card.  RNG_E_ARGUMENT on a card
 * outside the deck or repeated. */
int kern_csp_decide(const kern_csp_tables *t, uint32_t qualify, const uint32_t *pays, const uint8_t *cards,
                    uint64_t rounds, uint8_t *bet);
/* cffi:end */

#endif
