/*
 * holdem_progressive.c -- Texas Hold'em Bonus progressive board counts (holdem_progressive.h).
 */
#include "holdem_progressive.h"
#include "poker_eval.h"

/* The royal's cards of suit s: A, K, Q, J, 10 (rank bits 12..8 of the suit's 13). */
#define ROYAL_RANKS 0x1F00u

static void count_boards(const uint8_t *rest, unsigned m, uint64_t hw, uint32_t hs, uint64_t *row)
{
    unsigned b[5];
    for (b[0] = 0; b[0] < m; b[0]++)
    for (b[1] = b[0] + 1; b[1] < m; b[1]++)
    for (b[2] = b[1] + 1; b[2] < m; b[2]++)
    for (b[3] = b[2] + 1; b[3] < m; b[3]++)
    for (b[4] = b[3] + 1; b[4] < m; b[4]++) {
        uint64_t bw = 0;
        uint32_t bs = 0;
        for (unsigned i = 0; i < 5; i++) {
            bw |= kern_pk_card_bit[rest[b[i]]];
            bs += kern_pk_suit_one[rest[b[i]]];
        }
        uint32_t v = kern_pk_value(bw | hw, bs + hs);
        uint32_t category = v >> 26;
        if (category < KERN_PK_FULL_HOUSE) {
            continue;
        }
        uint32_t board = kern_pk_value(bw, bs);
        if (v == board) { /* the board's own hand: excluded (9-ロ), a board royal counted apart (9-ニ) */
            row[5] += category == KERN_PK_ROYAL_FLUSH;
            continue;
        }
        if (category == KERN_PK_ROYAL_FLUSH) {
            unsigned on_board = 0;
            for (unsigned s = 0; s < 4; s++) {
                uint32_t suit = (uint32_t)(bw >> (s * KERN_PK_SUIT_BITS)) & ROYAL_RANKS;
                uint32_t mine = (uint32_t)(hw >> (s * KERN_PK_SUIT_BITS)) & ROYAL_RANKS;
                if ((suit | mine) == ROYAL_RANKS) {
                    on_board = (unsigned)__builtin_popcount(suit);
                }
            }
            row[on_board == 3 ? 3 : 4]++;
        } else {
            row[category == KERN_PK_STRAIGHT_FLUSH ? 0 : category == KERN_PK_QUADS ? 1 : 2]++;
        }
    }
}

int kern_thbp_counts(const uint8_t *deck, uint32_t n, const uint8_t *holes, uint32_t hands, uint64_t *out)
{
    if (n < 7 || n > 52) {
        return RNG_E_ARGUMENT;
    }
    uint64_t in = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (deck[i] >= 52 || (in >> deck[i] & 1)) {
            return RNG_E_ARGUMENT;
        }
        in |= 1ull << deck[i];
    }
    for (uint32_t h = 0; h < hands; h++) {
        uint8_t x = holes[2 * h], y = holes[2 * h + 1];
        if (x >= 52 || y >= 52 || x == y || !(in >> x & 1) || !(in >> y & 1)) {
            return RNG_E_ARGUMENT;
        }
        uint8_t rest[52];
        unsigned m = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (deck[i] != x && deck[i] != y) {
                rest[m++] = deck[i];
            }
        }
        uint64_t *row = out + (size_t)h * KERN_THBP_CLASSES;
        for (unsigned c = 0; c < KERN_THBP_CLASSES; c++) {
            row[c] = 0;
        }
        count_boards(rest, m, kern_pk_card_bit[x] | kern_pk_card_bit[y], kern_pk_suit_one[x] + kern_pk_suit_one[y],
                     row);
    }
    return RNG_OK;
}
