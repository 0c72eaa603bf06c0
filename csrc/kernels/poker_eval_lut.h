/*
 * poker_eval_lut.h -- table lookups for the best five of 5..7 cards, giving
 * exactly the values of kern_pk_value (poker_eval.h), which fills the tables.
 *
 * Why: kern_pk_value branches on the category, and on random hands those
 * branches mispredict; a lookup does not branch.  Without a flush (a suit
 * counter below 5) the value depends only on how many cards of each rank
 * the hand holds: the rank-count word Q (3 bits per rank, the sum of one
 * kern_pk_rank_q[] term per card) is mapped by a perfect hash, built once
 * over every rank pattern of 5..7 cards, to its value.  With a flush (at
 * most 7 cards: no four of a kind or full house beside it) the value is
 * that of the flush suit's 13-bit rank mask, read from a table of all 8,192.
 *
 * The hash: bucket = the top bits of Q * M1, slot = (the top bits of Q * M2)
 * XOR disp[bucket], a displacement found for each bucket when the tables are
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
    uint64_t m1, m2;
    uint32_t disp[1u << KERN_PK_LUT_BUCKET_BITS];
    uint32_t value[1u << KERN_PK_LUT_SLOT_BITS];   /* by slot: the value of a rank pattern */
    uint32_t flush[1u << 13];                       /* by suited rank mask (5..7 bits set) */
};

extern const uint64_t kern_pk_rank_q[52];
extern struct kern_pk_lut kern_pk_lut;

/* Builds the tables once (thread-safe); RNG_OK, or RNG_E_SELFTEST if the tables fail their check (RNG_E_MEMORY: no memory to build them). */
int kern_pk_lut_ready(void);

/* The value of the best five of 5..7 distinct cards: `q` the sum of their
 * kern_pk_rank_q terms, `word` and `suits` as kern_pk_value takes them.
 * The tables must be ready. */
static inline uint32_t kern_pk_lut_value(uint64_t q, uint64_t word, uint32_t suits)
{
    uint32_t flush = (suits + 0x3333u) & 0x8888u; /* a counter >= 5 */
    if (flush) {
        unsigned s = (unsigned)__builtin_ctz(flush) / 4;
        return kern_pk_lut.flush[(word >> (s * KERN_PK_SUIT_BITS)) & KERN_PK_RANKS];
    }
    uint32_t bucket = (uint32_t)((q * kern_pk_lut.m1) >> (64 - KERN_PK_LUT_BUCKET_BITS));
    uint32_t slot = (uint32_t)((q * kern_pk_lut.m2) >> (64 - KERN_PK_LUT_SLOT_BITS)) ^ kern_pk_lut.disp[bucket];
    return kern_pk_lut.value[slot];
}

#endif
