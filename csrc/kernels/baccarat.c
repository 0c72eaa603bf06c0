/*
 * baccarat.c -- exact class counts from a composition, and rounds dealt from
 * a virtual shoe.  The class layout and the tableau are in baccarat.h.
 */
#include <string.h>
#include "baccarat.h"
#include "core_link.h"
#include "shuffle.h"

/* ---------------------------------------------------------------- exact -- */

/* Ranks (0-based: 0 = A .. 12 = K) whose point value is v. */
static uint32_t ranks_of_point(uint32_t v, uint32_t out[4])
{
    if (v == 0) {
        out[0] = 9; out[1] = 10; out[2] = 11; out[3] = 12; /* 10, J, Q, K */
        return 4;
    }
    out[0] = v - 1;
    return 1;
}

/*
 * Ordered ways to draw the four initial cards with ranks r[0..3] (P1, B1, P2,
 * B2), split by pair state.  Suits are enumerated only for the positions
 * whose rank is that of a pair (where "same suit" can matter); every other
 * position contributes its falling rank count.
 */
static void initial_weights(const uint32_t K[13][4], const uint32_t R[13], const uint32_t r[4],
                            uint64_t w[KERN_BAC_PAIR_STATES])
{
    int ppair = r[0] == r[2], bpair = r[1] == r[3];
    int twin = ppair && bpair && r[0] == r[1];
    uint64_t outside = 1;
    unsigned gpos[4], g = 0;
    for (unsigned i = 0; i < 4; i++) {
        int in_group = (ppair && r[i] == r[0]) || (bpair && r[i] == r[1]);
        if (in_group) {
            gpos[g++] = i;
            continue;
        }
        uint32_t used = 0;
        for (unsigned j = 0; j < i; j++) {
            used += r[j] == r[i];
        }
        if (R[r[i]] <= used) {
            return;
        }
        outside *= R[r[i]] - used;
    }
    if (g == 0) {
        w[0] += outside;
        return;
    }
    uint32_t combos = 1u << (2 * g);
    for (uint32_t code = 0; code < combos; code++) {
        uint32_t s[4] = {0, 0, 0, 0};
        uint64_t ways = 1;
        for (unsigned j = 0; j < g && ways; j++) {
            uint32_t suit = (code >> (2 * j)) & 3, rank = r[gpos[j]], used = 0;
            for (unsigned k = 0; k < j; k++) {
                used += r[gpos[k]] == rank && s[gpos[k]] == suit;
            }
            s[gpos[j]] = suit;
            ways = K[rank][suit] > used ? ways * (K[rank][suit] - used) : 0;
        }
        if (!ways) {
            continue;
        }
        uint32_t pp = ppair ? (s[0] == s[2] ? 2 : 1) : 0;
        uint32_t bp = bpair ? (s[1] == s[3] ? 2 : 1) : 0;
        w[(pp * 3 + bp) * 2 + (uint32_t)twin] += ways * outside;
    }
}

/* Draw-phase counts (out of the two card slots X5 X6) after initial point
 * values v[0..3] leave composition c (point counts) of rem cards. */
static unsigned draw_phase(const uint32_t v[4], const uint32_t c[10], uint64_t rem,
                           uint32_t cls[110], uint64_t cnt[110])
{
    uint32_t pt = (v[0] + v[2]) % 10, bt = (v[1] + v[3]) % 10;
    unsigned n = 0;
    if (pt >= 8 || bt >= 8) {
        cls[n] = kern_bac_class(pt, bt, 2, 2, 0);
        cnt[n++] = rem * (rem - 1);
        return n;
    }
    if (pt >= 6) {
        if (bt >= 6) {
            cls[n] = kern_bac_class(pt, bt, 2, 2, 0);
            cnt[n++] = rem * (rem - 1);
            return n;
        }
        for (uint32_t y = 0; y < 10; y++) {
            if (c[y]) {
                cls[n] = kern_bac_class(pt, (bt + y) % 10, 2, 3, 0);
                cnt[n++] = (uint64_t)c[y] * (rem - 1);
            }
        }
        return n;
    }
    for (uint32_t x = 0; x < 10; x++) {
        if (!c[x]) {
            continue;
        }
        uint32_t pf = (pt + x) % 10;
        if (!kern_bac_banker_draws(bt, x)) {
            cls[n] = kern_bac_class(pf, bt, 3, 2, 0);
            cnt[n++] = (uint64_t)c[x] * (rem - 1);
            continue;
        }
        for (uint32_t y = 0; y < 10; y++) {
            uint64_t left = c[y] - (y == x);
            if (left) {
                cls[n] = kern_bac_class(pf, (bt + y) % 10, 3, 3, 0);
                cnt[n++] = (uint64_t)c[x] * left;
            }
        }
    }
    return n;
}

int kern_bac_exact(const uint32_t *faces, uint64_t *out, uint64_t *total)
{
    uint32_t K[13][4], R[13] = {0}, C[10] = {0};
    uint64_t n = 0;
    for (uint32_t f = 0; f < KERN_BAC_FACES; f++) {
        uint32_t suit = f / 13, rank = f % 13;
        K[rank][suit] = faces[f];
        R[rank] += faces[f];
        C[kern_bac_point(rank + 1)] += faces[f];
        n += faces[f];
    }
    if (n < 6 || n > KERN_BAC_MAX_CARDS) {
        return RNG_E_ARGUMENT;
    }
    memset(out, 0, KERN_BAC_CLASSES * sizeof *out);
    *total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5);

    uint32_t v[4], ranks[4][4], nr[4], r[4], c[10];
    uint32_t cls[110];
    uint64_t cnt[110];
    for (v[0] = 0; v[0] < 10; v[0]++)
    for (v[1] = 0; v[1] < 10; v[1]++)
    for (v[2] = 0; v[2] < 10; v[2]++)
    for (v[3] = 0; v[3] < 10; v[3]++) {
        memcpy(c, C, sizeof c);
        int possible = 1;
        for (unsigned i = 0; i < 4; i++) {
            possible &= c[v[i]] > 0;
            c[v[i]] -= c[v[i]] > 0;
            nr[i] = ranks_of_point(v[i], ranks[i]);
        }
        if (!possible) {
            continue;
        }
        uint64_t w[KERN_BAC_PAIR_STATES] = {0};
        for (unsigned a = 0; a < nr[0]; a++)
        for (unsigned b = 0; b < nr[1]; b++)
        for (unsigned d = 0; d < nr[2]; d++)
        for (unsigned e = 0; e < nr[3]; e++) {
            r[0] = ranks[0][a]; r[1] = ranks[1][b]; r[2] = ranks[2][d]; r[3] = ranks[3][e];
            initial_weights((const uint32_t (*)[4])K, R, r, w);
        }
        unsigned m = draw_phase(v, c, n - 4, cls, cnt);
        for (unsigned ps = 0; ps < KERN_BAC_PAIR_STATES; ps++) {
            if (!w[ps]) {
                continue;
            }
            for (unsigned i = 0; i < m; i++) {
                out[cls[i] + ps] += w[ps] * cnt[i];
            }
        }
    }
    return RNG_OK;
}

/* ------------------------------------------------------------ simulation -- */

static const uint8_t POINT_OF_CODE[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 0, 0};

/*
 * The tableau as one table: entry ((pt * 10 + bt) * 10 + x) * 10 + y, for
 * two-card totals pt, bt and the points x, y of the next two cards, holds
 * the pair-free class (kern_bac_class with ps = 0) times 4 plus the cards the
 * round takes minus 4.  Filled once per table by the same rules as
 * draw_phase(); a lookup keeps the hot loop free of hard-to-predict branches.
 */
static void fill_tableau(uint16_t *tab)
{
    for (uint32_t pt = 0; pt < 10; pt++)
    for (uint32_t bt = 0; bt < 10; bt++)
    for (uint32_t x = 0; x < 10; x++)
    for (uint32_t y = 0; y < 10; y++) {
        uint32_t cls, used;
        if (pt >= 8 || bt >= 8 || (pt >= 6 && bt >= 6)) {
            cls = kern_bac_class(pt, bt, 2, 2, 0);  /* natural, or both stand */
            used = 4;
        } else if (pt >= 6) {
            cls = kern_bac_class(pt, (bt + x) % 10, 2, 3, 0);  /* Player stands, Banker draws x */
            used = 5;
        } else if (!kern_bac_banker_draws(bt, x)) {
            cls = kern_bac_class((pt + x) % 10, bt, 3, 2, 0);
            used = 5;
        } else {
            cls = kern_bac_class((pt + x) % 10, (bt + y) % 10, 3, 3, 0);
            used = 6;
        }
        tab[((pt * 10 + bt) * 10 + x) * 10 + y] = (uint16_t)(cls * 4 + (used - 4));
    }
}

/* Class of the round dealt from c[0..6) (P1 B1 P2 B2 then third cards; all
 * six are read, a round uses 4 to 6); *used = cards the round took. */
static inline uint32_t play_round(const uint16_t *tab, const uint16_t *c, uint32_t *used)
{
    uint32_t p1 = c[0], b1 = c[1], p2 = c[2], b2 = c[3];
    uint32_t pt = (POINT_OF_CODE[p1 & 15] + POINT_OF_CODE[p2 & 15]) % 10;
    uint32_t bt = (POINT_OF_CODE[b1 & 15] + POINT_OF_CODE[b2 & 15]) % 10;
    uint32_t entry = tab[((pt * 10 + bt) * 10 + POINT_OF_CODE[c[4] & 15]) * 10 + POINT_OF_CODE[c[5] & 15]];
    uint32_t pp = ((p1 & 15) == (p2 & 15)) * (1 + ((p1 & 0x30) == (p2 & 0x30)));
    uint32_t bp = ((b1 & 15) == (b2 & 15)) * (1 + ((b1 & 0x30) == (b2 & 0x30)));
    uint32_t twin = (pp != 0) & (bp != 0) & ((p1 & 15) == (b1 & 15));
    *used = 4 + (entry & 3);
    return (entry >> 2) + (pp * 3 + bp) * 2 + twin;
}

static uint32_t burn_cap(const kern_bac_rules *rules)
{
    switch (rules->burn_mode) {
    case 0: return 0;
    case 1: return rules->burn_count;
    default: {
        uint32_t most = rules->burn_ace > rules->burn_ten ? rules->burn_ace : rules->burn_ten;
        most = most > 9 ? most : 9;
        return rules->burn_indicator_counts ? (most ? most : 1) : 1 + most;
    }
    }
}

int kern_bac_table_init(kern_bac_table *t, const uint16_t *fresh, uint32_t n, const kern_bac_rules *rules)
{
    if (n < 6 || n > KERN_BAC_MAX_SHOE) {
        return RNG_E_ARGUMENT;
    }
    if (!rules->fresh_each_round) {
        uint32_t per_round = 6 + rules->burn_each_round;
        uint32_t behind = rules->one_more_round ? 2 * per_round - 1 : per_round;
        if (rules->burn_mode > 2 || rules->burn_each_round > 6 || rules->cut_behind_lo > rules->cut_behind_hi ||
            rules->cut_behind_lo < behind || rules->cut_behind_hi > n ||
            n - rules->cut_behind_hi < burn_cap(rules) + per_round || 2 * rules->cut_min_from_end > n) {
            return RNG_E_ARGUMENT;
        }
    }
    memset(t, 0, sizeof *t);
    int status = kern_shoe_init(&t->shoe, fresh, n, rules);
    if (status != RNG_OK) {
        return status;
    }
    fill_tableau(t->tableau);
    return RNG_OK;
}

/* Batches of the six draws of a fresh round: bounds n, n-1, ..., n-5 cut
 * greedily into runs whose product stays <= limit (usually one run). */
typedef struct fresh_plan {
    unsigned runs, k[6];
    uint64_t product[6];
} fresh_plan;

static void plan_six(uint32_t n, uint64_t limit, fresh_plan *plan)
{
    uint32_t i = n, drawn = 0;
    plan->runs = 0;
    while (drawn < 6) {
        uint64_t product = i, low;
        unsigned k = 1;
        while (drawn + k < 6 && rng_mul64(product, i - k, &low) == 0 && low <= limit) {
            product = low;
            k++;
        }
        plan->k[plan->runs] = k;
        plan->product[plan->runs++] = product;
        i -= k;
        drawn += k;
    }
}

/* The first six cards of a fresh uniform shuffle: Fisher-Yates from the end
 * stopped after six positions (a uniform ordered sample without
 * replacement), dealt from cards[n-1], cards[n-2], ... into hand[0..6). */
static inline int fresh_six(rng_source *src, kern_bac_table *t, const fresh_plan *plan, unsigned bits,
                            uint16_t hand[6])
{
    uint16_t *cards = t->shoe.cards;
    uint32_t i = t->shoe.n, drawn = 0;
    for (unsigned run = 0; run < plan->runs; run++) {
        uint64_t word;
        int status = rng_batch_word(src, plan->product[run], plan->product[run] << (64 - bits), &word);
        if (status != RNG_OK) {
            return status;
        }
        for (unsigned j = 0; j < plan->k[run]; j++) {
            uint32_t pos = i - 1 - j, pick = rng_batch_next(&word, i - j);
            uint16_t tmp = cards[pos];
            cards[pos] = cards[pick];
            cards[pick] = tmp;
            hand[drawn + j] = cards[pos];
        }
        i -= plan->k[run];
        drawn += plan->k[run];
    }
    return RNG_OK;
}

int kern_bac_play(rng_source *src, kern_bac_table *t, uint64_t rounds, uint64_t *out, unsigned bits)
{
    uint64_t limit = kern_core->batch_limit(bits);
    kern_shoe *s = &t->shoe;
    if (limit == 0 || s->n < 6 || s->n > KERN_BAC_MAX_SHOE || s->n > limit) {
        return RNG_E_ARGUMENT;
    }
    uint32_t used;
    if (s->rules.fresh_each_round) {
        uint16_t hand[6];
        fresh_plan plan;
        plan_six(s->n, limit, &plan);
        for (uint64_t r = 0; r < rounds; r++) {
            int status = fresh_six(src, t, &plan, bits, hand);
            if (status != RNG_OK) {
                return status;
            }
            out[play_round(t->tableau, hand, &used)]++;
        }
        t->rounds += rounds;
        return src->status;
    }
    for (uint64_t r = 0; r < rounds; r++) {
        int status = kern_shoe_ready(src, s, bits);
        if (status != RNG_OK) {
            return status;
        }
        uint32_t start = s->pos;
        s->pos += s->rules.burn_each_round;
        uint32_t first = s->pos;
        out[play_round(t->tableau, s->cards + s->pos, &used)]++;
        s->pos += used;
        kern_shoe_round_end(s, start, first);
    }
    t->rounds += rounds;
    return src->status;
}

int kern_bac_round(const kern_bac_table *t, const uint16_t *cards, uint32_t *cls, uint32_t *used)
{
    for (unsigned i = 0; i < 6; i++) {
        uint32_t rank = cards[i] & 15;
        if (rank < 1 || rank > 13 || (cards[i] & 0xC0)) {
            return RNG_E_ARGUMENT;
        }
    }
    *cls = play_round(t->tableau, cards, used);
    return RNG_OK;
}
