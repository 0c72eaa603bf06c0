/*
 * holdem_bonus.c -- Texas Hold'em Bonus deal counts (holdem_bonus.h).
 */
#include <stdlib.h>
#include <string.h>
#include "holdem_bonus.h"
#include "poker_eval.h"
#include "suit_symmetry.h"

#define COUNT_BITS 10u /* a dealer count is at most C(45, 2) = 990 < 1024 */
#define COUNT_MASK ((1u << COUNT_BITS) - 1u)
#define PAIR_BITS 11u  /* a pair index is below C(49, 2) = 1176 < 2048 */

static inline unsigned pair_index(unsigned i, unsigned j, unsigned m)
{
    return i * (2 * m - i - 1) / 2 + (j - i - 1);
}

static int check_deck(const uint8_t *deck, uint32_t n)
{
    if (n < 9 || n > 52) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (deck[i] >= 52 || (i && deck[i] <= deck[i - 1])) {
            return RNG_E_ARGUMENT;
        }
    }
    return RNG_OK;
}

typedef struct {
    const uint8_t *deck;
    unsigned n, m, P, K, D; /* deck, non-flop cards, their pairs, pairs left by a board pair, dealer hands */
    int pos[52];            /* deck position of each card, -1 if not in the deck */
    uint8_t maps[24][52];
    unsigned symmetries;
    uint8_t rest[52];       /* deck positions of the non-flop cards, ascending */
    uint8_t pa[1176], pb[1176];
    uint16_t pidx[49][49];
    uint32_t *cell;         /* [hole pair][board pair]: W | T << 10 | category << 20 */
    uint64_t *keys, *tmp;
} work;

/* The flop's image under symmetry g, as sorted deck positions. */
static void image(const work *w, unsigned g, const unsigned *f, unsigned *out)
{
    for (unsigned i = 0; i < 3; i++) {
        out[i] = (unsigned)w->pos[w->maps[g][w->deck[f[i]]]];
    }
    for (unsigned i = 1; i < 3; i++) {
        for (unsigned j = i; j > 0 && out[j - 1] > out[j]; j--) {
            unsigned x = out[j];
            out[j] = out[j - 1];
            out[j - 1] = x;
        }
    }
}

static int before(const unsigned *x, const unsigned *y)
{
    return x[0] != y[0] ? x[0] < y[0] : x[1] != y[1] ? x[1] < y[1] : x[2] < y[2];
}

static int canonical(const work *w, const unsigned *f)
{
    for (unsigned g = 1; g < w->symmetries; g++) {
        unsigned im[3];
        image(w, g, f, im);
        if (before(im, f)) {
            return 0;
        }
    }
    return 1;
}

/* LSD radix sort of the keys on their value bits (PAIR_BITS .. PAIR_BITS + 29). */
static void sort_keys(work *w)
{
    uint64_t *a = w->keys, *b = w->tmp;
    for (unsigned shift = PAIR_BITS; shift < PAIR_BITS + 30; shift += 10) {
        unsigned count[1025] = {0};
        for (unsigned i = 0; i < w->K; i++) {
            count[((a[i] >> shift) & 1023u) + 1]++;
        }
        for (unsigned i = 1; i <= 1024; i++) {
            count[i] += count[i - 1];
        }
        for (unsigned i = 0; i < w->K; i++) {
            b[count[(a[i] >> shift) & 1023u]++] = a[i];
        }
        uint64_t *t = a;
        a = b;
        b = t;
    }
    if (a != w->keys) {
        memcpy(w->keys, a, w->K * sizeof *a);
    }
}

/* For one board (flop + local cards t < r): every other pair's W, T against the dealer hands disjoint from it. */
static void board_cells(work *w, uint64_t fword, uint32_t fsuits, unsigned t, unsigned r)
{
    const uint8_t *deck = w->deck;
    uint8_t ct = deck[w->rest[t]], cr = deck[w->rest[r]];
    uint64_t bw = fword | kern_pk_card_bit[ct] | kern_pk_card_bit[cr];
    uint32_t bs = fsuits + kern_pk_suit_one[ct] + kern_pk_suit_one[cr];
    unsigned k = 0;
    for (unsigned a = 0; a < w->m; a++) {
        if (a == t || a == r) {
            continue;
        }
        uint8_t ca = deck[w->rest[a]];
        uint64_t aw = bw | kern_pk_card_bit[ca];
        uint32_t as = bs + kern_pk_suit_one[ca];
        for (unsigned b = a + 1; b < w->m; b++) {
            if (b == t || b == r) {
                continue;
            }
            uint8_t cb = deck[w->rest[b]];
            uint32_t v = kern_pk_value(aw | kern_pk_card_bit[cb], as + kern_pk_suit_one[cb]);
            w->keys[k++] = (uint64_t)v << PAIR_BITS | w->pidx[a][b];
        }
    }
    sort_keys(w);
    unsigned board = w->pidx[t][r], below = 0;
    uint16_t lower[52] = {0}, equal[52] = {0};
    for (unsigned i = 0; i < w->K;) {
        uint64_t v = w->keys[i] >> PAIR_BITS;
        unsigned j = i;
        while (j < w->K && w->keys[j] >> PAIR_BITS == v) {
            unsigned p = (unsigned)(w->keys[j] & ((1u << PAIR_BITS) - 1));
            equal[w->pa[p]]++;
            equal[w->pb[p]]++;
            j++;
        }
        uint32_t category = (uint32_t)(v >> 26) << (2 * COUNT_BITS);
        for (unsigned q = i; q < j; q++) {
            unsigned p = (unsigned)(w->keys[q] & ((1u << PAIR_BITS) - 1));
            unsigned a = w->pa[p], b = w->pb[p];
            /* only (a, b) itself holds both a and b: it is neither below nor disjoint */
            uint32_t wins = below - lower[a] - lower[b];
            uint32_t ties = (j - i) - equal[a] - equal[b] + 1;
            w->cell[(size_t)p * w->P + board] = wins | ties << COUNT_BITS | category;
        }
        for (unsigned q = i; q < j; q++) {
            unsigned p = (unsigned)(w->keys[q] & ((1u << PAIR_BITS) - 1));
            lower[w->pa[p]]++;
            lower[w->pb[p]]++;
            equal[w->pa[p]] = equal[w->pb[p]] = 0;
        }
        below += j - i;
        i = j;
    }
}

/* The board pairs (t < r) of the flop's other cards that hold neither a nor b: their pair indices. */
static unsigned boards_without(const work *w, unsigned a, unsigned b, uint16_t *boards)
{
    unsigned k = 0;
    for (unsigned t = 0; t < w->m; t++) {
        for (unsigned r = t + 1; r < w->m; r++) {
            if (t != a && t != b && r != a && r != b) {
                boards[k++] = w->pidx[t][r];
            }
        }
    }
    return k;
}

/* One customer pair (a, b) of the flop: its decisions and its 15 cells. */
static void settle_hole(const work *w, unsigned a, unsigned b, int64_t *acc, uint8_t *turn, uint64_t *river)
{
    const uint32_t *row = w->cell + (size_t)w->pidx[a][b] * w->P;
    uint16_t boards[1081];
    unsigned count = boards_without(w, a, b, boards);
    int64_t s3[49] = {0}, s2 = 0;
    for (unsigned i = 0; i < count; i++) {
        uint32_t x = row[boards[i]];
        int64_t edge = 2 * (int64_t)(x & COUNT_MASK) + ((x >> COUNT_BITS) & COUNT_MASK) - w->D; /* W - L */
        s3[w->pa[boards[i]]] += edge;
        s3[w->pb[boards[i]]] += edge;
    }
    uint64_t mask = 0;
    for (unsigned t = 0; t < w->m; t++) {
        s2 += s3[t];
        mask |= (uint64_t)(s3[t] >= 0 && t != a && t != b) << t; /* 6-6: the river bet unless it loses more than it wins */
    }
    unsigned turn_bet = s2 >= 0; /* 6-5-イ-(2), likewise over the turn and the river */
    memset(acc, 0, KERN_THB_CELLS * sizeof *acc);
    for (unsigned i = 0; i < count; i++) {
        uint32_t x = row[boards[i]];
        int64_t wins = x & COUNT_MASK, ties = (x >> COUNT_BITS) & COUNT_MASK;
        uint32_t category = x >> (2 * COUNT_BITS);
        unsigned o = category >= KERN_PK_FLUSH ? 0 : category == KERN_PK_STRAIGHT ? 1 : 2;
        unsigned t = w->pa[boards[i]], r = w->pb[boards[i]];
        unsigned e[2] = {turn_bet + (unsigned)((mask >> t) & 1), turn_bet + (unsigned)((mask >> r) & 1)};
        for (unsigned k = 0; k < 2; k++) { /* t then r as the turn card */
            acc[o * 3 + e[k]] += wins;
            acc[3 * 3 + e[k]] += ties;
            acc[4 * 3 + e[k]] += w->D - wins - ties;
        }
    }
    *turn = (uint8_t)turn_bet;
    *river = mask;
}

static void count_flop(work *w, const unsigned *f, uint32_t k, int64_t *counts, uint8_t *canon, uint8_t *turn,
                       uint64_t *river)
{
    const uint8_t *deck = w->deck;
    unsigned m = 0;
    for (unsigned p = 0; p < w->n; p++) {
        if (p != f[0] && p != f[1] && p != f[2]) {
            w->rest[m++] = (uint8_t)p;
        }
    }
    uint64_t fword = 0;
    uint32_t fsuits = 0;
    for (unsigned i = 0; i < 3; i++) {
        fword |= kern_pk_card_bit[deck[f[i]]];
        fsuits += kern_pk_suit_one[deck[f[i]]];
        canon[3 * k + i] = (uint8_t)f[i];
    }
    for (unsigned t = 0; t < w->m; t++) {
        for (unsigned r = t + 1; r < w->m; r++) {
            board_cells(w, fword, fsuits, t, r);
        }
    }
    /* the distinct images of the flop, each with one symmetry taking the flop there */
    unsigned seen[24][3], via[24], images = 0;
    for (unsigned g = 0; g < w->symmetries; g++) {
        unsigned im[3], dup = 0;
        image(w, g, f, im);
        for (unsigned i = 0; i < images && !dup; i++) {
            dup = seen[i][0] == im[0] && seen[i][1] == im[1] && seen[i][2] == im[2];
        }
        if (!dup) {
            memcpy(seen[images], im, sizeof im);
            via[images++] = g;
        }
    }
    int64_t acc[KERN_THB_CELLS];
    for (unsigned a = 0; a < w->m; a++) {
        for (unsigned b = a + 1; b < w->m; b++) {
            unsigned i = w->pidx[a][b];
            settle_hole(w, a, b, acc, turn + (size_t)k * w->P + i, river + (size_t)k * w->P + i);
            for (unsigned s = 0; s < images; s++) {
                unsigned x = (unsigned)w->pos[w->maps[via[s]][deck[w->rest[a]]]];
                unsigned y = (unsigned)w->pos[w->maps[via[s]][deck[w->rest[b]]]];
                int64_t *out = counts + (size_t)pair_index(x < y ? x : y, x < y ? y : x, w->n) * KERN_THB_CELLS;
                for (unsigned c = 0; c < KERN_THB_CELLS; c++) {
                    out[c] += acc[c];
                }
            }
        }
    }
}

static void setup(work *w, const uint8_t *deck, uint32_t n)
{
    w->deck = deck;
    w->n = n;
    w->m = n - 3;
    w->P = w->m * (w->m - 1) / 2;
    w->K = (w->m - 2) * (w->m - 3) / 2;
    w->D = (w->m - 4) * (w->m - 5) / 2;
    for (unsigned c = 0; c < 52; c++) {
        w->pos[c] = -1;
    }
    for (unsigned p = 0; p < n; p++) {
        w->pos[deck[p]] = (int)p;
    }
    w->symmetries = kern_suit_symmetries(deck, n, w->maps);
    for (unsigned a = 0; a < w->m; a++) {
        for (unsigned b = a + 1; b < w->m; b++) {
            unsigned i = pair_index(a, b, w->m);
            w->pidx[a][b] = w->pidx[b][a] = (uint16_t)i;
            w->pa[i] = (uint8_t)a;
            w->pb[i] = (uint8_t)b;
        }
    }
}

int kern_thb_flops(const uint8_t *deck, uint32_t n, uint32_t *flops)
{
    if (check_deck(deck, n) != RNG_OK) {
        return RNG_E_ARGUMENT;
    }
    work *w = malloc(sizeof *w);
    if (!w) {
        return RNG_E_MEMORY;
    }
    setup(w, deck, n);
    uint32_t k = 0;
    unsigned f[3];
    for (f[0] = 0; f[0] < n; f[0]++)
    for (f[1] = f[0] + 1; f[1] < n; f[1]++)
    for (f[2] = f[1] + 1; f[2] < n; f[2]++) {
        k += (uint32_t)canonical(w, f);
    }
    free(w);
    *flops = k;
    return RNG_OK;
}

int kern_thb_counts(const uint8_t *deck, uint32_t n, uint32_t flops, int64_t *counts, uint8_t *canon,
                    uint8_t *turn, uint64_t *river)
{
    uint32_t expected;
    int status = kern_thb_flops(deck, n, &expected);
    if (status != RNG_OK) {
        return status;
    }
    if (flops != expected) {
        return RNG_E_ARGUMENT;
    }
    work *w = malloc(sizeof *w);
    if (!w) {
        return RNG_E_MEMORY;
    }
    setup(w, deck, n);
    w->cell = malloc((size_t)w->P * w->P * sizeof *w->cell);
    w->keys = malloc((size_t)w->K * sizeof *w->keys);
    w->tmp = malloc((size_t)w->K * sizeof *w->tmp);
    if (!w->cell || !w->keys || !w->tmp) {
        free(w->cell);
        free(w->keys);
        free(w->tmp);
        free(w);
        return RNG_E_MEMORY;
    }
    uint32_t k = 0;
    unsigned f[3];
    for (f[0] = 0; f[0] < n; f[0]++)
    for (f[1] = f[0] + 1; f[1] < n; f[1]++)
    for (f[2] = f[1] + 1; f[2] < n; f[2]++) {
        if (canonical(w, f)) {
            count_flop(w, f, k++, counts, canon, turn, river);
        }
    }
    free(w->cell);
    free(w->keys);
    free(w->tmp);
    free(w);
    return RNG_OK;
}
