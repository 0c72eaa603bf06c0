/*
 * poker_eval_lut.h -- table lookups for the best five of 5..7 cards, giving
 * exactly the values of kern_pk_value (poker_eval.h), which fills the tables.
 *
 * Why: kern_pk_value branches on the category, and on random hands those
 * branches mispredict; a lookup does not branch.  Without a flush (a suit
 * counter below 5) the value depends only on how many cards of each rank
 * the hand holds: the rank key K = the sum over the cards of 5^rank (the
 * low half of one kern_pk_card_key[] term per card; at most four cards share a rank, so K
 * is the rank counts written in base 5: distinct patterns, distinct keys,
 * and K < 5^13 < 2^31 fits a 32-bit lane) is mapped by a perfect hash,
 * built once over every rank pattern of 5..7 cards, to its value.  With a flush (at
 * most 7 cards: no four of a kind or full house beside it) the value is
 * that of the flush suit's 13-bit rank mask, read from a table of all 8,192.
 *
 * The hash (32-bit arithmetic, so that a SIMD lane computes it as the scalar
 * code does): bucket = the top bits of K * M1, slot = (the top bits of
 * K * M2) XOR disp[bucket], a displacement found for each bucket when the tables are
 * built (largest buckets first); multipliers come from a fixed sequence and
 * the next pair is tried if a bucket finds no displacement, so the tables
 * are the same on every run.  Every pattern's value is checked after the
 * build.
 */
#ifndef KERN_POKER_EVAL_LUT_H
#define KERN_POKER_EVAL_LUT_H

#include <stdint.h>
#include "poker_eval.h"

#define KERN_PK_LUT_SLOT_BITS 17
#define KERN_PK_LUT_BUCKET_BITS 15

struct kern_pk_lut {
    uint32_t m1, m2;
    uint32_t disp[1u << KERN_PK_LUT_BUCKET_BITS];
    uint32_t value[1u << KERN_PK_LUT_SLOT_BITS];   /* by slot: the value of a rank pattern */
    uint32_t flush[1u << 13];                       /* by suited rank mask (5..7 bits set) */
    /* by any byte: kern_pk_card_bit and kern_pk_card_key of a card 0..51; above 51, bit 63
     * (no card's) and 0, so that a byte that is no card is found in the sums (kern_pk_lut_sum) */
    uint64_t byte_bit[256], byte_key[256];
};

#define KERN_PK_LUT_NO_CARD (1ull << 63)

/* kern_pk_card_key[i]: 5^rank of card i (rank bit as in KERN_PK_CARD) in the
 * low 32 bits, the card's suit counter (kern_pk_suit_one) in the high 32:
 * one addition per card sums the rank key and the suit counters at once. */
extern const uint64_t kern_pk_card_key[52];
extern struct kern_pk_lut kern_pk_lut;

/* Builds the tables once (thread-safe); RNG_OK, or RNG_E_SELFTEST if the tables fail their check (RNG_E_MEMORY: no memory to build them). */
int kern_pk_lut_ready(void);

/* The slot of rank key `key` (a key of no 5..7-card pattern gives some slot). */
static inline uint32_t kern_pk_lut_slot(uint32_t key)
{
    uint32_t bucket = (key * kern_pk_lut.m1) >> (32 - KERN_PK_LUT_BUCKET_BITS);
    return ((key * kern_pk_lut.m2) >> (32 - KERN_PK_LUT_SLOT_BITS)) ^ kern_pk_lut.disp[bucket];
}

/* The value of the best five of 5..7 distinct cards: `key` the sum of their
 * rank keys (low half of kern_pk_card_key), `word` and `suits` as
 * kern_pk_value takes them.  The tables must be ready. */
static inline uint32_t kern_pk_lut_value(uint32_t key, uint64_t word, uint32_t suits)
{
    uint32_t flush = (suits + 0x3333u) & 0x8888u; /* a counter >= 5 */
    if (flush) {
        unsigned s = (unsigned)__builtin_ctz(flush) / 4;
        return kern_pk_lut.flush[(word >> (s * KERN_PK_SUIT_BITS)) & KERN_PK_RANKS];
    }
    return kern_pk_lut.value[kern_pk_lut_slot(key)];
}

/* The rank key and suit counters (as kern_pk_card_key sums them) and the card
 * word of the n (5..7) bytes c[]; returns nonzero if a byte is no card (>= 52)
 * or a card is given twice.  A card given twice makes the sum of the cards'
 * bits differ from their OR (a sum of non-negative integers equals their OR
 * exactly when no two share a bit; 7 card bits below 2^61 cannot overflow);
 * a byte above 51 sets bit 63 of the OR.  The tables must be ready. */
static inline uint64_t kern_pk_lut_sum(const uint8_t *c, unsigned n, uint64_t *key, uint64_t *word)
{
    uint64_t w = 0, sum = 0, k = 0;
    for (unsigned i = 0; i < n; i++) {
        w |= kern_pk_lut.byte_bit[c[i]];
        sum += kern_pk_lut.byte_bit[c[i]];
        k += kern_pk_lut.byte_key[c[i]];
    }
    *key = k;
    *word = w;
    return (sum ^ w) | (w & KERN_PK_LUT_NO_CARD);
}

/* The value of the best five of the n (5..7) cards c[] into *value; 0 if a
 * byte is no card or a card is given twice (*value is then meaningless).
 * The tables must be ready. */
static inline int kern_pk_lut_cards(const uint8_t *c, unsigned n, uint32_t *value)
{
    uint64_t key, word;
    uint64_t repeat = kern_pk_lut_sum(c, n, &key, &word);
    *value = kern_pk_lut_value((uint32_t)key, word, (uint32_t)(key >> 32));
    return repeat == 0;
}

#endif
