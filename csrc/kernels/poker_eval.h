/*
 * poker_eval.h -- poker hand values (000 別表第1 第3 3, 5-4, 9-8, 9-11).
 *
 * A card is its label index in rngcore.devices.cards: suit * 13 + rank - 1
 * (suit 0 S, 1 H, 2 D, 3 C; rank 1 A, 2..10, 11 J, 12 Q, 13 K), so a row of
 * the `deck` device is a hand as it is dealt.
 *
 * A hand's value is one uint32, larger = stronger, equal = tie:
 *
 *     category << 26 | major << 13 | minor
 *
 * category is the hand's row of the seed's table (KERN_PK_* below); major and
 * minor are 13-bit rank masks (bit 0 = 2 .. bit 12 = A, card order of 3-2
 * proviso) of the cards that decide within the category, major first.  Two
 * masks with as many bits compare as integers exactly as "the higher card
 * first, then the next" (3-2-ヘ), so the integer order IS the seed's order.
 *
 * Internally a hand is a 64-bit word, one bit per card (suit s at bits
 * 16 s .. 16 s + 12), plus four 4-bit suit counters; the evaluator is
 * branch-light bit arithmetic: a bit-sliced count of each rank across the four
 * suit masks gives the quads, trips, pairs and singles masks at once.  Valid
 * for 1..7 distinct cards of one deck (with at most 7 cards a flush excludes
 * a full house and four of a kind, so the flush test may come first).
 */
#ifndef KERN_POKER_EVAL_H
#define KERN_POKER_EVAL_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
/* Five-card categories, 000 第3 3-1 イ..ヌ (value >> 26). */
#define KERN_PK_HIGH_CARD 1        /* ヌ five odds */
#define KERN_PK_PAIR 2             /* リ */
#define KERN_PK_TWO_PAIR 3         /* チ */
#define KERN_PK_TRIPS 4            /* ト */
#define KERN_PK_STRAIGHT 5         /* ヘ */
#define KERN_PK_FLUSH 6            /* ホ */
#define KERN_PK_FULL_HOUSE 7       /* ニ */
#define KERN_PK_QUADS 8            /* ハ */
#define KERN_PK_STRAIGHT_FLUSH 9   /* ロ */
#define KERN_PK_ROYAL_FLUSH 10     /* イ */

/* Three-card categories, 000 第3 5-4-イ (6)..(1): three of a kind above a straight. */
#define KERN_PK3_HIGH_CARD 1       /* (6) no pair */
#define KERN_PK3_PAIR 2            /* (5) */
#define KERN_PK3_FLUSH 3           /* (4) */
#define KERN_PK3_STRAIGHT 4        /* (3) */
#define KERN_PK3_TRIPS 5           /* (2) */
#define KERN_PK3_STRAIGHT_FLUSH 6  /* (1) */

/* What kern_pk_rank ranks (per_hand cards each). */
#define KERN_PK_BEST5 0     /* best five of 5..7 cards (3-1, 3-2; 第3 10 for Hold'em) */
#define KERN_PK_THREE 1     /* three cards (5-4) */
#define KERN_PK_OMAHA_HI 2  /* 9 cards: 4 hole then 5 board; exactly 2 + 3 (9-8-イ-(1)) */
#define KERN_PK_OMAHA_LO 3  /* 9 cards as above; eight-or-better low (9-11), 0 = no low */
#define KERN_PK_LOW8 4      /* best eight-or-better low of any five of 5..7 cards, 0 = no low */

/* out[i] = value of hand i (cards[i * per_hand ..]).  A low value is
 * 256 - m, m the 8-bit mask of its five ranks (bit 0 = A .. bit 7 = 8;
 * 9-11: the lower top card wins), so larger is better there too.
 * RNG_E_ARGUMENT on an unknown kind, a per_hand the kind does not take, a
 * card >= 52 or a card twice in one hand (out is then partly written). */
int kern_pk_rank(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t kind, uint32_t *out);

/* The value of every hand of `size` cards (3 with kind THREE; 5 with kind
 * BEST5) of a 52-card deck, in lexicographic order of the sorted card
 * indices: C(52, size) values.  RNG_E_ARGUMENT otherwise. */
int kern_pk_all_values(uint32_t size, uint32_t kind, uint32_t *out);

/* counts[category] += hands of `size` cards (5..7, best five) of a 52-card
 * deck in each category (16 entries), every hand visited once by an
 * incremental enumeration.  RNG_E_ARGUMENT on another size. */
int kern_pk_category_counts(uint32_t size, uint64_t *counts);
/* cffi:end */

#define KERN_PK_SUIT_BITS 16
#define KERN_PK_RANKS 0x1FFFu

/* The word bit of card i: rank 1 (A) is bit 12, ranks 2..13 bits 0..11. */
#define KERN_PK_CARD(i) (1ull << (((i) / 13) * KERN_PK_SUIT_BITS + (((i) % 13) + 12) % 13))
#define KERN_PK_SUIT(i) (1u << (((i) / 13) * 4))

extern const uint64_t kern_pk_card_bit[52];
extern const uint32_t kern_pk_suit_one[52];

static inline uint32_t kern_pk_top(uint32_t mask)
{
    return 1u << (31 - __builtin_clz(mask));
}

/* `mask` without its `k` lowest ranks. */
static inline uint32_t kern_pk_drop(uint32_t mask, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        mask &= mask - 1;
    }
    return mask;
}

/* Rank-mask bits j such that the ranks j .. j + run - 1 are all present, in
 * the sequence A, 2, ..., K, A of 3-1-ロ: the ace is also below the 2, and
 * nothing wraps past the ace (K-A-2 is no run).  Bit j of the result is the
 * run whose TOP card is rank bit j + run - 2 (j = 0: the run starting at the low ace). */
static inline uint32_t kern_pk_runs(uint32_t mask, unsigned run)
{
    uint32_t e = ((mask << 1) | (mask >> 12)) & 0x3FFFu; /* bit 0 = the ace as low card */
    uint32_t s = e;
    for (unsigned i = 1; i < run; i++) {
        s &= e >> i;
    }
    return s;
}

/* The top card (a rank-mask bit) of the highest run of `run` cards, or 0. */
static inline uint32_t kern_pk_run_top(uint32_t mask, unsigned run)
{
    uint32_t s = kern_pk_runs(mask, run);
    return s ? kern_pk_top(s) << (run - 2) : 0;
}

#define KERN_PK_VALUE(cat, major, minor) (((uint32_t)(cat) << 26) | ((uint32_t)(major) << 13) | (uint32_t)(minor))

/* Best five-card value of the cards in `word` (5..7 distinct cards); `suits`
 * holds the four 4-bit suit counts (callers guarantee 5..7 cards). */
static inline uint32_t kern_pk_value(uint64_t word, uint32_t suits)
{
    uint32_t flush = (suits + 0x3333u) & 0x8888u; /* a counter >= 5 */
    /* Every "best five" below keeps the top five of n cards' ranks less the
     * grouped ones: drop the (n - 5) lowest, n = the sum of the counters. */
    unsigned extra = (((suits * 0x1111u) >> 12) & 0xFu) - 5;
    if (flush) {
        unsigned s = (unsigned)__builtin_ctz(flush) / 4;
        uint32_t m = (uint32_t)(word >> (s * KERN_PK_SUIT_BITS)) & KERN_PK_RANKS;
        unsigned suited = (suits >> (4 * s)) & 0xFu;
        uint32_t top = kern_pk_run_top(m, 5);
        if (top) { /* 3-1-イ/ロ; 3-2-ト: the higher top card, 5-4-3-2-A lowest */
            return KERN_PK_VALUE(top == (1u << 12) ? KERN_PK_ROYAL_FLUSH : KERN_PK_STRAIGHT_FLUSH, 0, top);
        }
        return KERN_PK_VALUE(KERN_PK_FLUSH, 0, kern_pk_drop(m, suited - 5)); /* 3-1-ホ; 3-2-ト read card by card */
    }
    uint32_t a = (uint32_t)word & KERN_PK_RANKS, b = (uint32_t)(word >> 16) & KERN_PK_RANKS;
    uint32_t c = (uint32_t)(word >> 32) & KERN_PK_RANKS, d = (uint32_t)(word >> 48) & KERN_PK_RANKS;
    /* bit-sliced a + b + c + d per rank: count = b0 + 2 b1 + 4 b2 */
    uint32_t ab = a ^ b, cab = a & b, cd = c ^ d, ccd = c & d;
    uint32_t b0 = ab ^ cd, k = ab & cd;
    uint32_t b1 = cab ^ ccd ^ k, b2 = (cab & ccd) | ((cab ^ ccd) & k);
    uint32_t all = a | b | c | d;
    uint32_t trips = b1 & b0, pairs = b1 & ~b0;
    if (b2) { /* 3-1-ハ; 3-2-イ, the fifth card after (interpretation: only shared cards can tie the four) */
        return KERN_PK_VALUE(KERN_PK_QUADS, b2, kern_pk_top(all & ~b2));
    }
    if (trips && ((trips & (trips - 1)) || pairs)) { /* 3-1-ニ; 3-2-ロ, then the pair */
        uint32_t t = kern_pk_top(trips);
        return KERN_PK_VALUE(KERN_PK_FULL_HOUSE, t, kern_pk_top((trips ^ t) | pairs));
    }
    uint32_t top = kern_pk_run_top(all, 5);
    if (top) { /* 3-1-ヘ; 3-2-ト */
        return KERN_PK_VALUE(KERN_PK_STRAIGHT, 0, top);
    }
    if (trips) { /* 3-1-ト; 3-2-ハ, then the other cards */
        return KERN_PK_VALUE(KERN_PK_TRIPS, trips, kern_pk_drop(all & ~trips, extra));
    }
    if (pairs & (pairs - 1)) { /* 3-1-チ; 3-2-ニ: top pair, other pair, fifth card */
        uint32_t two = kern_pk_drop(pairs, pairs & (pairs - 1) & ((pairs & (pairs - 1)) - 1) ? 1 : 0);
        return KERN_PK_VALUE(KERN_PK_TWO_PAIR, two, kern_pk_top(all & ~two));
    }
    if (pairs) { /* 3-1-リ; 3-2-ホ */
        return KERN_PK_VALUE(KERN_PK_PAIR, pairs, kern_pk_drop(all & ~pairs, extra));
    }
    return KERN_PK_VALUE(KERN_PK_HIGH_CARD, 0, kern_pk_drop(all, extra)); /* 3-1-ヌ; 3-2-ヘ */
}

/* Three-card value (5-4): exactly three distinct cards in `word`. */
static inline uint32_t kern_pk_value3(uint64_t word, uint32_t suits)
{
    uint32_t a = (uint32_t)word & KERN_PK_RANKS, b = (uint32_t)(word >> 16) & KERN_PK_RANKS;
    uint32_t c = (uint32_t)(word >> 32) & KERN_PK_RANKS, d = (uint32_t)(word >> 48) & KERN_PK_RANKS;
    uint32_t all = a | b | c | d;
    int flush = ((suits + 0x5555u) & 0x8888u) != 0; /* a counter == 3 */
    if (all & (all - 1) & ((all & (all - 1)) - 1)) { /* three ranks */
        uint32_t top = kern_pk_run_top(all, 3);     /* 5-4-ロ-(3): 3-2-A lowest */
        if (top) {
            return KERN_PK_VALUE(flush ? KERN_PK3_STRAIGHT_FLUSH : KERN_PK3_STRAIGHT, 0, top);
        }
        return KERN_PK_VALUE(flush ? KERN_PK3_FLUSH : KERN_PK3_HIGH_CARD, 0, all); /* (4), (6); ロ-(2) */
    }
    if (all & (all - 1)) { /* 5-4-イ-(5); ロ-(1): the pair, then the odd card */
        uint32_t pair = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
        return KERN_PK_VALUE(KERN_PK3_PAIR, pair, all ^ pair);
    }
    return KERN_PK_VALUE(KERN_PK3_TRIPS, all, 0); /* 5-4-イ-(2) */
}

#endif
