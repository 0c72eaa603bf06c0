/*
 * poker_eval.c -- bulk ranking and exhaustive enumerations (poker_eval.h).
 */
#include "poker_eval.h"
#include "poker_eval_lut.h"
#include "poker_eval_simd.h"

#define ROW4(i) KERN_PK_CARD(i), KERN_PK_CARD((i) + 1), KERN_PK_CARD((i) + 2), KERN_PK_CARD((i) + 3)
#define SUIT4(i) KERN_PK_SUIT(i), KERN_PK_SUIT((i) + 1), KERN_PK_SUIT((i) + 2), KERN_PK_SUIT((i) + 3)

const uint64_t kern_pk_card_bit[52] = {ROW4(0), ROW4(4), ROW4(8), ROW4(12), ROW4(16), ROW4(20), ROW4(24),
                                       ROW4(28), ROW4(32), ROW4(36), ROW4(40), ROW4(44), ROW4(48)};
const uint32_t kern_pk_suit_one[52] = {SUIT4(0), SUIT4(4), SUIT4(8), SUIT4(12), SUIT4(16), SUIT4(20), SUIT4(24),
                                       SUIT4(28), SUIT4(32), SUIT4(36), SUIT4(40), SUIT4(44), SUIT4(48)};

/* The 8-or-better rank bit of a card (9-11: A, 2..8; bit 0 = A .. bit 7 = 8), 0 above 8. */
static inline uint32_t low_bit(uint8_t card)
{
    unsigned rank = card % 13u + 1u;
    return rank <= 8 ? 1u << (rank - 1) : 0;
}

/* 9-11: five cards of different ranks, all A..8; the one whose highest card
 * is lowest (then the next) wins: with five bits each, the smaller mask. */
static inline uint32_t low_value(uint32_t mask)
{
    return 256u - mask;
}

/* Word and suit counters of n cards; 0 if a card repeats (the caller has checked < 52). */
static inline int build(const uint8_t *cards, unsigned n, uint64_t *word, uint32_t *suits)
{
    uint64_t w = 0;
    uint32_t s = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t bit = kern_pk_card_bit[cards[i]];
        if (w & bit) {
            return 0;
        }
        w |= bit;
        s += kern_pk_suit_one[cards[i]];
    }
    *word = w;
    *suits = s;
    return 1;
}

static const uint8_t PAIRS4[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
static const uint8_t TRIPLES5[10][3] = {{0, 1, 2}, {0, 1, 3}, {0, 1, 4}, {0, 2, 3}, {0, 2, 4},
                                        {0, 3, 4}, {1, 2, 3}, {1, 2, 4}, {1, 3, 4}, {2, 3, 4}};

/* 9-8-イ-(1): the best hand of exactly two of the four hole cards and three of the five board cards. */
static uint32_t omaha_high(const uint8_t *hole, const uint8_t *board)
{
    uint32_t best = 0;
    for (unsigned p = 0; p < 6; p++) {
        uint64_t hw = kern_pk_card_bit[hole[PAIRS4[p][0]]] | kern_pk_card_bit[hole[PAIRS4[p][1]]];
        uint32_t hs = kern_pk_suit_one[hole[PAIRS4[p][0]]] + kern_pk_suit_one[hole[PAIRS4[p][1]]];
        for (unsigned t = 0; t < 10; t++) {
            const uint8_t *x = TRIPLES5[t];
            uint64_t w = hw | kern_pk_card_bit[board[x[0]]] | kern_pk_card_bit[board[x[1]]] |
                         kern_pk_card_bit[board[x[2]]];
            uint32_t s = hs + kern_pk_suit_one[board[x[0]]] + kern_pk_suit_one[board[x[1]]] +
                         kern_pk_suit_one[board[x[2]]];
            uint32_t v = kern_pk_value(w, s);
            best = v > best ? v : best;
        }
    }
    return best;
}

/* 9-11: the best low of exactly two hole cards and three board cards, 0 = none. */
static uint32_t omaha_low(const uint8_t *hole, const uint8_t *board)
{
    uint32_t best = 0;
    for (unsigned p = 0; p < 6; p++) {
        uint32_t x = low_bit(hole[PAIRS4[p][0]]), y = low_bit(hole[PAIRS4[p][1]]);
        if (!x || !y || x == y) {
            continue;
        }
        for (unsigned t = 0; t < 10; t++) {
            uint32_t u = low_bit(board[TRIPLES5[t][0]]), v = low_bit(board[TRIPLES5[t][1]]);
            uint32_t z = low_bit(board[TRIPLES5[t][2]]);
            uint32_t m = x | y | u | v | z;
            if (u && v && z && __builtin_popcount(m) == 5) {
                uint32_t value = low_value(m);
                best = value > best ? value : best;
            }
        }
    }
    return best;
}

/* The best low of any five of n cards: the five lowest distinct low ranks. */
static uint32_t any_low(const uint8_t *cards, unsigned n)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < n; i++) {
        m |= low_bit(cards[i]);
    }
    if (__builtin_popcount(m) < 5) {
        return 0;
    }
    while (__builtin_popcount(m) > 5) {
        m ^= kern_pk_top(m);
    }
    return low_value(m);
}

/* The portable path: the sums of a block of hands first, then their lookups.
 * Why blocks: with the two table reads of a hand right after its sums, the
 * reads wait on the sums and the next hand's sums on the reads; apart, the
 * reads of a whole block are in flight together (about 1.45x on random
 * hands).  RNG_E_ARGUMENT at the first block holding a byte that is no card
 * or a card twice in a hand.
 * Inlined once per hand size (rank_portable), so that the card loop unrolls. */
static inline __attribute__((always_inline)) int rank_portable_n(const uint8_t *cards, uint32_t per_hand,
                                                                 uint64_t hands, uint32_t *out)
{
    enum { BLOCK = 64 };
    uint64_t key[BLOCK], word[BLOCK];
    for (uint64_t h = 0; h < hands; h += BLOCK) {
        unsigned n = hands - h < BLOCK ? (unsigned)(hands - h) : BLOCK;
        uint64_t repeat = 0;
        for (unsigned j = 0; j < n; j++) {
            repeat |= kern_pk_lut_sum(cards + (h + j) * per_hand, per_hand, key + j, word + j);
        }
        if (repeat) {
            return RNG_E_ARGUMENT;
        }
        for (unsigned j = 0; j < n; j++) {
            out[h + j] = kern_pk_lut_value((uint32_t)key[j], word[j], (uint32_t)(key[j] >> 32));
        }
    }
    return RNG_OK;
}

static int rank_portable(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t *out)
{
    switch (per_hand) {
    case 5:
        return rank_portable_n(cards, 5, hands, out);
    case 6:
        return rank_portable_n(cards, 6, hands, out);
    default:
        return rank_portable_n(cards, 7, hands, out);
    }
}

/* The best five of 5..7 cards per hand, by the lookup tables (poker_eval_lut.h)
 * on the path dispatch chose (poker_eval_simd.h).  Each path checks the
 * cards as it reads them (a separate pass would read the array twice). */
static int rank_best5(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t *out)
{
    int status = kern_pk_lut_ready();
    if (status != RNG_OK) {
        return status;
    }
    if (kern_pk_get_impl() == KERN_PK_IMPL_AVX512) {
        return kern_pk_rank_best5_avx512(cards, per_hand, hands, out);
    }
    return rank_portable(cards, per_hand, hands, out);
}

int kern_pk_rank(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t kind, uint32_t *out)
{
    int ok = (kind == KERN_PK_BEST5 && per_hand >= 5 && per_hand <= 7) || (kind == KERN_PK_THREE && per_hand == 3) ||
             ((kind == KERN_PK_OMAHA_HI || kind == KERN_PK_OMAHA_LO) && per_hand == 9) ||
             (kind == KERN_PK_LOW8 && per_hand >= 5 && per_hand <= 7);
    if (!ok) {
        return RNG_E_ARGUMENT;
    }
    if (kind == KERN_PK_BEST5) {
        return rank_best5(cards, per_hand, hands, out);
    }
    for (uint64_t h = 0; h < hands; h++) {
        const uint8_t *c = cards + h * per_hand;
        for (unsigned i = 0; i < per_hand; i++) {
            if (c[i] >= 52) {
                return RNG_E_ARGUMENT;
            }
        }
        uint64_t w;
        uint32_t s;
        if (!build(c, per_hand, &w, &s)) {
            return RNG_E_ARGUMENT;
        }
        switch (kind) {
        case KERN_PK_BEST5:
            out[h] = kern_pk_value(w, s);
            break;
        case KERN_PK_THREE:
            out[h] = kern_pk_value3(w, s);
            break;
        case KERN_PK_OMAHA_HI:
            out[h] = omaha_high(c, c + 4);
            break;
        case KERN_PK_OMAHA_LO:
            out[h] = omaha_low(c, c + 4);
            break;
        default:
            out[h] = any_low(c, per_hand);
            break;
        }
    }
    return RNG_OK;
}

int kern_pk_all_values(uint32_t size, uint32_t kind, uint32_t *out)
{
    uint64_t n = 0;
    if (size == 3 && kind == KERN_PK_THREE) {
        for (unsigned a = 0; a < 52; a++)
        for (unsigned b = a + 1; b < 52; b++)
        for (unsigned c = b + 1; c < 52; c++) {
            out[n++] = kern_pk_value3(kern_pk_card_bit[a] | kern_pk_card_bit[b] | kern_pk_card_bit[c],
                                      kern_pk_suit_one[a] + kern_pk_suit_one[b] + kern_pk_suit_one[c]);
        }
        return RNG_OK;
    }
    if (size != 5 || kind != KERN_PK_BEST5) {
        return RNG_E_ARGUMENT;
    }
    for (unsigned a = 0; a < 52; a++)
    for (unsigned b = a + 1; b < 52; b++) {
        uint64_t wb = kern_pk_card_bit[a] | kern_pk_card_bit[b];
        uint32_t sb = kern_pk_suit_one[a] + kern_pk_suit_one[b];
        for (unsigned c = b + 1; c < 52; c++) {
            uint64_t wc = wb | kern_pk_card_bit[c];
            uint32_t sc = sb + kern_pk_suit_one[c];
            for (unsigned d = c + 1; d < 52; d++) {
                uint64_t wd = wc | kern_pk_card_bit[d];
                uint32_t sd = sc + kern_pk_suit_one[d];
                for (unsigned e = d + 1; e < 52; e++) {
                    out[n++] = kern_pk_value(wd | kern_pk_card_bit[e], sd + kern_pk_suit_one[e]);
                }
            }
        }
    }
    return RNG_OK;
}

/* Every hand of `left` more cards from `from`..51 added to (word, suits); the
 * last card's loop is the hot one, one evaluation per hand. */
static void count_from(unsigned from, unsigned left, uint64_t word, uint64_t key, uint64_t *counts)
{
    if (left == 1) {
        for (unsigned c = from; c < 52; c++) {
            uint64_t k = key + kern_pk_card_key[c];
            counts[kern_pk_lut_value((uint32_t)k, word | kern_pk_card_bit[c], (uint32_t)(k >> 32)) >> 26]++;
        }
        return;
    }
    for (unsigned c = from; c + left <= 52; c++) {
        count_from(c + 1, left - 1, word | kern_pk_card_bit[c], key + kern_pk_card_key[c], counts);
    }
}

int kern_pk_category_counts(uint32_t size, uint64_t *counts)
{
    if (size < 5 || size > 7) {
        return RNG_E_ARGUMENT;
    }
    int status = kern_pk_lut_ready();
    if (status != RNG_OK) {
        return status;
    }
    count_from(0, size, 0, 0, counts);
    return RNG_OK;
}
