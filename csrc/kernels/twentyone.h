/*
 * twentyone.h -- twenty-one rounds for one seat, dealt from a virtual shoe.
 *
 * The round is harness.games.twentyone's (the rules there, each cited to
 * its seed): the seat's first card, the upcard, the seat's second card,
 * then the hole card (hole-card rule) or, under the no-hole-card rule, the
 * dealer's second card after the seat has played, unless every hand of the
 * seat busted (000 第2 1-10-ハ: the round is settled at once, notwithstanding
 * 10-イ, so that card is never dealt).  With the hole card and
 * an ace or ten-value card up the dealer peeks: a dealer blackjack ends the
 * round at once.  A player blackjack is paid `blackjack_pays` (a push
 * against a dealer blackjack).  A split gives both new hands their second
 * card at once, and hands are completed last-split first.  Busted hands
 * lose at once; if every hand busted the dealer does not draw.  Under the
 * no-hole-card rule a dealer blackjack takes the original stake once from
 * an area with a hand still standing (original_bet_only; else every
 * standing stake), its busted hands lost already, or with
 * split_busts_returned only the original stake, the busted stakes returned.
 *
 * The strategy is a table the caller fills (harness.games.twentyone_table):
 * an action per (context, upcard, may the seat hold another hand, hand).
 * A hand of two cards is looked up by its two values (so a chart's pair
 * rows and a split hand's own cards count), a hand of more cards by
 * (soft, total).  So the kernel plays exactly the strategy a Python
 * callable would, for every strategy that depends on no more than that
 * (the computed basic strategy and a player's chart).
 *
 * A round's result is its net per initial unit staked, in units of
 * 1 / KERN_TW_DEN, counted in nets[net + KERN_TW_NET_OFFSET]; and the
 * first cards' side-bet class (the seat's two cards and the upcard by rank
 * and suit), counted in sides[]:
 *
 *   side = kind | up_twin << 2,  kind 0 no pair, 1 same rank other colour,
 *          2 same colour other suit, 3 same suit; up_twin: the upcard has
 *          the first card's rank and suit.
 *
 * Money is integers: every pay the rules state is a whole number of
 * 1 / KERN_TW_DEN units (harness checks it before filling the rules).
 *
 * Bet-behind (001 ベットビハインドプレイヤーのアクション): a bet of one unit
 * that follows the (first) area's play: its net is the seat's, except that
 * a doubled hand counts one stake unless follow_double, and after a split it
 * follows only the first split hand (the one completed first, which keeps
 * that place through re-splits) unless follow_split.  Its net is counted in
 * behind[] (kern_tw_play) in the nets' classes.  It is settled under the
 * hole-card rule only (001's): there a dealer blackjack always ends the
 * round at the peek, before any hand is played, so every hand it follows is
 * settled by its bust or against the dealer's drawn total.  Without the hole
 * card its net is the seat's (follow_double and follow_split do not change it).
 *
 * Two areas (Blackjack Switch, 000 第2 2, rules.switch_hands): the seat holds
 * a pair of main areas with equal stakes (2-4-ハ).  The deal is each area's
 * first card, the upcard, each area's second card, then the hole card
 * (2-5-イ).  After the peek the seat may exchange the two second cards (2-8-ニ):
 * the table's swap cells (kern_tw_swap_index, filled by harness from the
 * exact values of the two candidate pairs of hands) say whether it does.
 * Each area is then played to its end (first area first, its own split cap),
 * a two-card 21 formed by the switch counts as a blackjack (reading of 2-3,
 * not in sources), and the dealer plays once for both.  The counted net is
 * the FIRST area's (both areas have one law; kern_tw_round_areas gives
 * both), and the side class is the Super Match class of the four first
 * cards by rank with the switch bit:
 *
 *   side = match | swapped << 3,  match 0 none, 1 one pair, 2 two pair,
 *          3 three of a rank, 4 four of a rank (2-12).
 *
 * Pontoon (000 第2 3, rules.pontoon; no hole card): a pontoon (the first two
 * cards 21) is paid blackjack_units at once; a hand's 21 always wins, paid
 * bonus_units by its cards (5, 6, 7+ cards; 6-7-8 and 7-7-7 mixed, of one
 * suit, of spades: harness.games.twentyone_pontoon.BONUS_HANDS), a doubled
 * one 1 to 1 on its stake; an ace in a doubled hand counts 1; a doubled hand
 * of 20 or less asks the rescue cell (context 3 initial, 4 split; key its
 * total) whether to withdraw the double stake (KERN_TW_RESCUE: the original
 * stake is lost at once); a surrender loses all to a dealer pontoon; a longer
 * hand is keyed by its card count too (key + 64 * (min(cards, 7) - 3)); with
 * double_any_cards a hand of 3+ cards may double.
 */
#ifndef KERN_TWENTYONE_H
#define KERN_TWENTYONE_H

#include <stdint.h>
#include "rng_source.h"
#include "shoe.h"

/* cffi:begin */
#define KERN_TW_DEN 10            /* net units per initial stake */
#define KERN_TW_MAX_STAKES 16     /* |net| <= 16 stakes */
#define KERN_TW_NET_OFFSET 160    /* KERN_TW_MAX_STAKES * KERN_TW_DEN */
#define KERN_TW_NETS 321          /* 2 * KERN_TW_NET_OFFSET + 1 */
#define KERN_TW_SIDES 16          /* side classes counted: one area the first 8 (pair classes), two areas match | swapped << 3 */
#define KERN_TW_PAIR_SIDES 8      /* one area's side classes */
#define KERN_TW_FIRSTS 322        /* the first round of each shoe: KERN_TW_NETS nets of rounds without a
                                     split, then one class for a first round that split */
#define KERN_TW_SPLIT_CLASS 321   /* KERN_TW_NETS */
#define KERN_TW_MAX_HANDS 8
#define KERN_TW_CONTEXTS 5        /* 0 the initial hand, 1 a split hand, 2 a split ace's two cards; Pontoon's
                                     rescue after a double: 3 the initial hand, 4 a split hand */
#define KERN_TW_PAIRS 55          /* two-card hands by their values a <= b */
#define KERN_TW_HAND_KEYS 375     /* 55 two-card hands, then 64 (soft * 32 + total) per card count 3..7+
                                     (Pontoon; the other games use the 3-card keys for every longer hand) */
#define KERN_TW_CELLS 37500       /* 5 contexts x 10 upcards x 2 x 375 */
#define KERN_TW_BONUSES 9         /* Pontoon's bonus hands (bonus_units) */
#define KERN_TW_SWAPS 100000      /* two areas: upcard x first area's two values x second's (kern_tw_swap_index) */
#define KERN_TW_SWAPPED 8         /* the side-class bit of a round whose second cards were exchanged */

/* Actions of the strategy table (0xFF: no cell; reaching one fails the round). */
#define KERN_TW_STAND 0
#define KERN_TW_HIT 1
#define KERN_TW_DOUBLE 2
#define KERN_TW_SPLIT 3
#define KERN_TW_SURRENDER 4
#define KERN_TW_RESCUE 5          /* Pontoon: withdraw the double stake (rescue cells only) */
#define KERN_TW_NO_CELL 255

/* What stops a round that is no failure of the source (positive: a source's
 * failures are negative RNG_E_* statuses). */
#define KERN_TW_OUT_OF_CARDS 1    /* the round needs more cards than are left (a shoe never wraps around) */
#define KERN_TW_NO_PLAY 2         /* the strategy has no action for a hand the round reached */

/* The rules the kernel reads (harness.games.twentyone.Rules; the strategy
 * table holds the rest: which totals double, surrender, DAS). */
typedef struct kern_tw_rules {
    uint32_t hit_soft_17;        /* the dealer draws to a soft 17 */
    uint32_t hole_card;          /* 1 hole-card rule (peek with A/10 up); 0 no hole card */
    uint32_t original_bet_only;  /* a dealer blackjack takes only the original stake */
    uint32_t split_busts_returned; /* with original_bet_only, no hole card: a dealer blackjack takes the original
                                    stake of an area with a standing hand and returns its busted hands' stakes */
    uint32_t dealer_22_push;     /* a dealer 22 pushes every live hand */
    uint32_t max_hands;          /* hands the seat may hold after splitting (1..KERN_TW_MAX_HANDS) */
    uint32_t resplit_aces;       /* split aces may be split again */
    uint32_t even_money;         /* the seat takes even money on a blackjack against an ace */
    int32_t blackjack_units;     /* a player blackjack's net, 1 / KERN_TW_DEN units */
    int32_t surrender_units;     /* a surrender's net (-KERN_TW_DEN / 2) */
    uint32_t switch_hands;       /* 1: two areas per seat with the switch of the second cards (000 第2 2) */
    uint32_t follow_double;      /* bet-behind (001): its stake doubles with the seat's; else the third card is a hit for it */
    uint32_t follow_split;       /* bet-behind (001): it follows every split hand; else only the seat's first split hand */
    uint32_t pontoon;            /* 1: Pontoon's settlement (000 第2 3; above) */
    uint32_t double_any_cards;   /* Pontoon: a hand of 3+ cards may double (the strategy cells say when) */
    int32_t bonus_units[9];      /* Pontoon: nets of the bonus hands (KERN_TW_BONUSES), 1 / KERN_TW_DEN units */
} kern_tw_rules;

typedef struct kern_tw_table {
    kern_shoe shoe;              /* the shoe in play (shoe.h) */
    kern_tw_rules rules;
    uint8_t cells[37500];        /* the strategy: kern_tw_cell() */
    uint8_t swaps[100000];       /* two areas: 1 exchange the second cards (kern_tw_set_swaps) */
    uint64_t rounds;             /* rounds played so far */
} kern_tw_table;

/* Index of a strategy cell: context 0..4, upcard value 1..10, may the seat
 * hold another hand (0/1), hand key 0..374 (kern_tw_pair_key for two cards
 * a <= b, else 55 + soft * 32 + total, + 64 * (min(cards, 7) - 3) in Pontoon). */
uint32_t kern_tw_cell(uint32_t context, uint32_t up, uint32_t can_split, uint32_t key);

/* Set up a table for a stack of n cards (codes in fresh) dealt by `shoe`
 * rules, playing `rules` by `cells` (KERN_TW_CELLS actions).  RNG_E_ARGUMENT
 * if the stack or shoe rules do not fit (n < 20, a per-round burn, a fresh
 * stack every round, a cut card leaving fewer than 10 cards behind it),
 * max_hands is outside 1..KERN_TW_MAX_HANDS, a pay is not a whole number of
 * units within the nets' range, split_busts_returned comes with Pontoon or
 * without original_bet_only, or a cell is not an action (or splits a hand
 * that is not a pair, or where no other hand is allowed). */
int kern_tw_table_init(kern_tw_table *t, const uint16_t *fresh, uint32_t n, const kern_bac_rules *shoe,
                       const kern_tw_rules *rules, const uint8_t *cells);

/* Two areas: set the switch decisions (KERN_TW_SWAPS cells, each 0 keep or
 * 1 exchange, indexed by kern_tw_swap_index).  RNG_E_ARGUMENT for another
 * value or a table whose rules hold one area.  Without it a two-area table
 * never switches. */
int kern_tw_set_swaps(kern_tw_table *t, const uint8_t *swaps);

/* The cell of a switch decision: upcard u, first area's cards a1, a2, the
 * second area's b1, b2 (values 1..10, in the order dealt). */
uint32_t kern_tw_swap_cell(uint32_t u, uint32_t a1, uint32_t a2, uint32_t b1, uint32_t b2);

/* Play `rounds` rounds, adding one to nets[] (KERN_TW_NETS) and sides[]
 * (KERN_TW_SIDES) per round, and to firsts[] (KERN_TW_FIRSTS; NULL for none)
 * for the first round dealt from each shoe: its net class if the seat did not
 * split, else KERN_TW_SPLIT_CLASS; with two areas its side class instead; and
 * the bet-behind's net to behind[] (KERN_TW_NETS; NULL for none).  (The first round of a shoe is dealt from a
 * uniformly shuffled full shoe whatever the burn, so its law is the full
 * shoe's first round; later rounds depend on the cut card.)  net_log /
 * side_log / behind_log (NULL for none) receive each round's net in units, side class and bet-behind net.  Returns RNG_OK, the source's failure
 * status, KERN_TW_OUT_OF_CARDS or KERN_TW_NO_PLAY (the round in progress is
 * not counted).  On a failure the counts of the call must be discarded. */
int kern_tw_play(rng_source *src, kern_tw_table *t, uint64_t rounds, uint64_t *nets, uint64_t *sides,
                 uint64_t *firsts, uint64_t *behind, int32_t *net_log, uint8_t *side_log, int32_t *behind_log,
                 unsigned bits);

/* The round the table deals from cards[0..n) (codes): *net its net in
 * units, *side its side class, *used the cards it took, *hands the hands
 * the seat held (1 unless it split).  KERN_TW_OUT_OF_CARDS
 * if it needs more than n cards, KERN_TW_NO_PLAY for a cell without an
 * action, RNG_E_ARGUMENT for a code that is not a card. */
int kern_tw_round(const kern_tw_table *t, const uint16_t *cards, uint32_t n, int32_t *net, uint32_t *side,
                  uint32_t *used, uint32_t *hands);

/* kern_tw_round with each area's net: nets[0] the first area's, nets[1] the
 * second's (0 with one area), nets[2] the bet-behind's. */
int kern_tw_round_areas(const kern_tw_table *t, const uint16_t *cards, uint32_t n, int32_t *nets, uint32_t *side,
                        uint32_t *used, uint32_t *hands);
/* cffi:end */

_Static_assert(KERN_TW_NET_OFFSET == KERN_TW_MAX_STAKES * KERN_TW_DEN, "net offset");
_Static_assert(KERN_TW_NETS == 2 * KERN_TW_NET_OFFSET + 1, "net classes");
_Static_assert(KERN_TW_FIRSTS == KERN_TW_NETS + 1 && KERN_TW_SPLIT_CLASS == KERN_TW_NETS, "first-round classes");
_Static_assert(KERN_TW_HAND_KEYS == KERN_TW_PAIRS + 5 * 64, "hand keys");
_Static_assert(KERN_TW_CELLS == KERN_TW_CONTEXTS * 10 * 2 * KERN_TW_HAND_KEYS, "cells");

_Static_assert(KERN_TW_SWAPS == 100000, "swap cells");

static inline uint32_t kern_tw_swap_index(uint32_t u, uint32_t a1, uint32_t a2, uint32_t b1, uint32_t b2)
{
    return ((((u - 1) * 10 + (a1 - 1)) * 10 + (a2 - 1)) * 10 + (b1 - 1)) * 10 + (b2 - 1);
}

/* kern_tw_cell, inline for the round's hot loop. */
static inline uint32_t kern_tw_cell_index(uint32_t context, uint32_t up, uint32_t can_split, uint32_t key)
{
    return ((context * 10 + (up - 1)) * 2 + can_split) * KERN_TW_HAND_KEYS + key;
}

/* Key of a two-card hand of values a <= b (1..10): 0..54. */
static inline uint32_t kern_tw_pair_key(uint32_t a, uint32_t b)
{
    /* rows a = 1..10 hold 11 - a hands each */
    return (a - 1) * (22 - a) / 2 + (b - a);
}

#endif
