/*
 * caribbean_stud.c -- exact Caribbean Stud counts (caribbean_stud.h).
 *
 * Cards are handled by their position 0..n-1 in the deck; a set of k
 * positions t_0 < ... < t_{k-1} is numbered by its colex rank
 * sum C(t_i, i + 1), so the tables of every set size are plain arrays.
 */
#include <stdlib.h>
#include <string.h>
#include "caribbean_stud.h"
#include "poker_eval.h"
#include "suit_symmetry.h"

struct kern_csp_tables {
    uint32_t n, classes;
    uint8_t position[52];  /* card index -> position in the deck (255: not in it) */
    uint64_t binom[53][7];
    uint32_t *g1;   /* [n][classes + 1]: hands holding the card with class < x */
    uint32_t *g2;   /* [C(n,2)][classes + 1] */
    uint16_t *l3;   /* [C(n,3)][C(n-3,2)] sorted classes of the hands holding the three cards */
    uint16_t *l4;   /* [C(n,4)][n-4] */
    uint16_t *c5;   /* [C(n,5)] class of each hand */
    uint8_t *category; /* [classes] value >> 26 of each class */
    uint32_t w3, w4;
};
typedef struct kern_csp_tables tables;

static uint64_t rank_of(const tables *t, const uint8_t *pos, unsigned k)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < k; i++) {
        r += t->binom[pos[i]][i + 1];
    }
    return r;
}

static uint32_t class_of(const uint32_t *values, uint32_t classes, uint32_t v)
{
    uint32_t lo = 0, hi = classes; /* values[lo..hi) */
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (values[mid] <= v) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return values[lo] == v ? lo : UINT32_MAX;
}

static int cmp16(const void *a, const void *b)
{
    return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

/* entries of the sorted list below x */
static uint32_t below(const uint16_t *list, uint32_t len, uint32_t x)
{
    uint32_t lo = 0, hi = len;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (list[mid] < x) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* #{hands containing the k sorted positions with class < x} */
static uint32_t count_below(const tables *t, const uint8_t *pos, unsigned k, uint32_t x)
{
    uint64_t r = rank_of(t, pos, k);
    switch (k) {
    case 1:
        return t->g1[r * (t->classes + 1) + x];
    case 2:
        return t->g2[r * (t->classes + 1) + x];
    case 3:
        return below(t->l3 + r * t->w3, t->w3, x);
    case 4:
        return below(t->l4 + r * t->w4, t->w4, x);
    case 5:
        return t->c5[r] < x;
    default:
        return 0;
    }
}

/* a[j] = dealer hands holding up card u, none of the customer's positions p,
 * with class < x[j]: inclusion-exclusion over the subsets of p. */
static void dealer_below(const tables *t, const uint8_t *p, uint32_t u, const uint32_t *x, int64_t *a)
{
    a[0] = a[1] = a[2] = 0;
    for (unsigned mask = 0; mask < 32; mask++) {
        uint8_t set[6];
        unsigned k = 0, placed = 0;
        for (unsigned i = 0; i < 5; i++) {
            if (mask >> i & 1) {
                if (!placed && u < p[i]) {
                    set[k++] = (uint8_t)u;
                    placed = 1;
                }
                set[k++] = p[i];
            }
        }
        if (!placed) {
            set[k++] = (uint8_t)u;
        }
        int sign = (__builtin_popcount(mask) & 1) ? -1 : 1;
        for (unsigned j = 0; j < 3; j++) {
            a[j] += sign * (int64_t)count_below(t, set, k, x[j]);
        }
    }
}

static void free_tables(tables *t)
{
    free(t->g1);
    free(t->g2);
    free(t->l3);
    free(t->l4);
    free(t->c5);
    free(t->category);
}

static int build_tables(tables *t, const uint8_t *deck, uint32_t n, const uint32_t *values, uint32_t classes)
{
    memset(t, 0, sizeof *t);
    memset(t->position, 255, sizeof t->position);
    for (uint32_t i = 0; i < n; i++) {
        t->position[deck[i]] = (uint8_t)i;
    }
    t->n = n;
    t->classes = classes;
    for (unsigned i = 0; i <= 52; i++) {
        t->binom[i][0] = 1;
        for (unsigned k = 1; k < 7; k++) {
            t->binom[i][k] = i ? t->binom[i - 1][k - 1] + t->binom[i - 1][k] : 0;
        }
    }
    uint64_t n2 = t->binom[n][2], n3 = t->binom[n][3], n4 = t->binom[n][4], n5 = t->binom[n][5];
    t->w3 = (uint32_t)t->binom[n - 3][2];
    t->w4 = n - 4;
    t->g1 = calloc((size_t)n * (classes + 1), sizeof *t->g1);
    t->g2 = calloc((size_t)n2 * (classes + 1), sizeof *t->g2);
    t->l3 = malloc((size_t)n3 * t->w3 * sizeof *t->l3);
    t->l4 = malloc((size_t)n4 * t->w4 * sizeof *t->l4);
    t->c5 = malloc((size_t)n5 * sizeof *t->c5);
    t->category = malloc(classes);
    uint32_t *fill3 = calloc((size_t)n3, sizeof *fill3), *fill4 = calloc((size_t)n4, sizeof *fill4);
    if (!t->g1 || !t->g2 || !t->l3 || !t->l4 || !t->c5 || !t->category || !fill3 || !fill4) {
        free(fill3);
        free(fill4);
        free_tables(t);
        return RNG_E_MEMORY;
    }
    for (uint32_t c = 0; c < classes; c++) {
        t->category[c] = (uint8_t)(values[c] >> 26);
    }
    uint8_t p[5];
    int status = RNG_OK;
    for (p[4] = 4; p[4] < n; p[4]++)
    for (p[3] = 3; p[3] < p[4]; p[3]++)
    for (p[2] = 2; p[2] < p[3]; p[2]++)
    for (p[1] = 1; p[1] < p[2]; p[1]++)
    for (p[0] = 0; p[0] < p[1]; p[0]++) {
        uint64_t w = 0;
        uint32_t s = 0;
        for (unsigned i = 0; i < 5; i++) {
            w |= kern_pk_card_bit[deck[p[i]]];
            s += kern_pk_suit_one[deck[p[i]]];
        }
        uint32_t c = class_of(values, classes, kern_pk_value(w, s));
        if (c == UINT32_MAX) {
            status = RNG_E_ARGUMENT; /* a value missing from `values` */
            continue;
        }
        t->c5[rank_of(t, p, 5)] = (uint16_t)c;
        for (unsigned i = 0; i < 5; i++) {
            t->g1[(size_t)p[i] * (classes + 1) + c + 1]++;
            for (unsigned j = i + 1; j < 5; j++) {
                uint8_t two[2] = {p[i], p[j]};
                t->g2[rank_of(t, two, 2) * (classes + 1) + c + 1]++;
            }
        }
        for (unsigned skip1 = 0; skip1 < 5; skip1++) {
            uint8_t four[4];
            for (unsigned i = 0, m = 0; i < 5; i++) {
                if (i != skip1) {
                    four[m++] = p[i];
                }
            }
            uint64_t r4 = rank_of(t, four, 4);
            t->l4[r4 * t->w4 + fill4[r4]++] = (uint16_t)c;
            for (unsigned skip2 = skip1 + 1; skip2 < 5; skip2++) {
                uint8_t three[3];
                for (unsigned i = 0, m = 0; i < 5; i++) {
                    if (i != skip1 && i != skip2) {
                        three[m++] = p[i];
                    }
                }
                uint64_t r3 = rank_of(t, three, 3);
                t->l3[r3 * t->w3 + fill3[r3]++] = (uint16_t)c;
            }
        }
    }
    free(fill3);
    free(fill4);
    if (status != RNG_OK) {
        free_tables(t);
        return status;
    }
    for (uint64_t r = 0; r < n; r++) {      /* counts -> "class < x" */
        uint32_t *row = t->g1 + r * (classes + 1);
        for (uint32_t x = 1; x <= classes; x++) {
            row[x] += row[x - 1];
        }
    }
    for (uint64_t r = 0; r < n2; r++) {
        uint32_t *row = t->g2 + r * (classes + 1);
        for (uint32_t x = 1; x <= classes; x++) {
            row[x] += row[x - 1];
        }
    }
    for (uint64_t r = 0; r < n3; r++) {
        qsort(t->l3 + r * t->w3, t->w3, sizeof *t->l3, cmp16);
    }
    for (uint64_t r = 0; r < n4; r++) {
        qsort(t->l4 + r * t->w4, t->w4, sizeof *t->l4, cmp16);
    }
    return RNG_OK;
}

static int check_deck(const uint8_t *deck, uint32_t n, const uint32_t *values, uint32_t classes)
{
    if (n < 12 || n > 52 || classes == 0 || classes > 65535) {
        return RNG_E_ARGUMENT;
    }
    uint64_t seen = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (deck[i] >= 52 || (seen >> deck[i] & 1)) {
            return RNG_E_ARGUMENT;
        }
        seen |= 1ull << deck[i];
    }
    for (uint32_t i = 1; i < classes; i++) {
        if (values[i] <= values[i - 1]) {
            return RNG_E_ARGUMENT;
        }
    }
    return RNG_OK;
}

/* Net of betting, times the hidden-card sets: nq + win (1 + 2 pay) - 3 lose (class counts in `c`). */
static void settle(const tables *t, const uint8_t *p, uint32_t u, uint32_t qualify, int64_t hidden, int64_t *c)
{
    uint32_t cp = t->c5[rank_of(t, p, 5)];
    uint32_t x[3] = {qualify, cp > qualify ? cp : qualify, cp + 1 > qualify ? cp + 1 : qualify};
    int64_t a[3];
    dealer_below(t, p, u, x, a);
    c[0] = a[0];          /* not qualified */
    c[1] = a[1] - a[0];   /* qualified, customer stronger */
    c[2] = a[2] - a[1];   /* equal */
    c[3] = hidden - a[2]; /* customer weaker */
}

static int bets(const int64_t *c, int64_t pay, int64_t hidden)
{
    return c[0] + c[1] * (1 + 2 * pay) - 3 * c[3] >= -hidden; /* at least the fold's -1 (a tie bets) */
}

int kern_csp_counts(const uint8_t *deck, uint32_t n, const uint32_t *values, uint32_t classes, uint32_t qualify,
                    const uint32_t *pays, uint32_t strategy, uint32_t threshold, uint64_t *out,
                    uint64_t *decisions)
{
    int status = check_deck(deck, n, values, classes);
    if (status != RNG_OK || qualify > classes || strategy > KERN_CSP_THRESHOLD) {
        return RNG_E_ARGUMENT;
    }
    tables t;
    status = build_tables(&t, deck, n, values, classes);
    if (status != RNG_OK) {
        return status;
    }
    uint8_t maps[24][52];
    unsigned symmetries = kern_suit_symmetries(deck, n, maps);
    int64_t hidden = (int64_t)t.binom[n - 6][4];
    uint8_t p[5];
    for (p[4] = 4; p[4] < n; p[4]++)
    for (p[3] = 3; p[3] < p[4]; p[3]++)
    for (p[2] = 2; p[2] < p[3]; p[2]++)
    for (p[1] = 1; p[1] < p[2]; p[1]++)
    for (p[0] = 0; p[0] < p[1]; p[0]++) {
        /* count this hand once per orbit of the deck's suit symmetries */
        uint64_t mine = 0;
        for (unsigned i = 0; i < 5; i++) {
            mine |= 1ull << deck[p[i]];
        }
        unsigned fixed = 0, smallest = 1;
        for (unsigned g = 0; g < symmetries && smallest; g++) {
            uint64_t image = 0;
            for (unsigned i = 0; i < 5; i++) {
                image |= 1ull << maps[g][deck[p[i]]];
            }
            fixed += image == mine;
            smallest = image >= mine;
        }
        if (!smallest) {
            continue;
        }
        uint64_t weight = symmetries / fixed;
        uint32_t cp = t.c5[rank_of(&t, p, 5)];
        uint32_t category = values[cp] >> 26;
        int64_t pay = pays[category];
        int bet_always = strategy == KERN_CSP_THRESHOLD && values[cp] >= threshold;
        for (uint32_t u = 0; u < n; u++) {
            if (u == p[0] || u == p[1] || u == p[2] || u == p[3] || u == p[4]) {
                continue;
            }
            int64_t c[4];
            settle(&t, p, u, qualify, hidden, c);
            int64_t nq = c[0], win = c[1], tie = c[2], lose = c[3];
            int bet = strategy == KERN_CSP_OPTIMAL ? bets(c, pay, hidden) : bet_always;
            uint64_t *row = out + (size_t)category * KERN_CSP_CLASSES;
            if (bet) {
                row[1] += weight * (uint64_t)nq;
                row[2] += weight * (uint64_t)win;
                row[3] += weight * (uint64_t)tie;
                row[4] += weight * (uint64_t)lose;
                decisions[0] += weight;
            } else {
                row[0] += weight * (uint64_t)hidden;
                decisions[1] += weight;
            }
        }
    }
    free_tables(&t);
    return RNG_OK;
}

int kern_csp_tables_new(const uint8_t *deck, uint32_t n, const uint32_t *values, uint32_t classes,
                        kern_csp_tables **out)
{
    *out = NULL;
    int status = check_deck(deck, n, values, classes);
    if (status != RNG_OK) {
        return status;
    }
    tables *t = malloc(sizeof *t);
    if (!t) {
        return RNG_E_MEMORY;
    }
    status = build_tables(t, deck, n, values, classes);
    if (status != RNG_OK) {
        free(t);
        return status;
    }
    *out = t;
    return RNG_OK;
}

void kern_csp_tables_free(kern_csp_tables *t)
{
    if (t) {
        free_tables(t);
        free(t);
    }
}

int kern_csp_decide(const kern_csp_tables *t, uint32_t qualify, const uint32_t *pays, const uint8_t *cards,
                    uint64_t rounds, uint8_t *bet)
{
    if (!t || qualify > t->classes) {
        return RNG_E_ARGUMENT;
    }
    int64_t hidden = (int64_t)t->binom[t->n - 6][4];
    for (uint64_t r = 0; r < rounds; r++) {
        const uint8_t *c = cards + r * 6;
        uint8_t p[5];
        uint64_t seen = 0;
        for (unsigned i = 0; i < 6; i++) {
            if (c[i] >= 52 || t->position[c[i]] == 255 || (seen >> c[i] & 1)) {
                return RNG_E_ARGUMENT;
            }
            seen |= 1ull << c[i];
        }
        for (unsigned i = 0; i < 5; i++) { /* sorted positions */
            uint8_t v = t->position[c[i]];
            unsigned j = i;
            for (; j > 0 && p[j - 1] > v; j--) {
                p[j] = p[j - 1];
            }
            p[j] = v;
        }
        int64_t k[4];
        settle(t, p, t->position[c[5]], qualify, hidden, k);
        bet[r] = (uint8_t)bets(k, pays[t->category[t->c5[rank_of(t, p, 5)]]], hidden);
    }
    return RNG_OK;
}
