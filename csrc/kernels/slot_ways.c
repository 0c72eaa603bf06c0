/* slot_ways.c -- the ways tables reader's tables, its three code paths and the choice of path (slot_ways.h). */
#include <stdlib.h>
#include <string.h>
#include "slot_ways.h"
#include "dispatch.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SLOT_X86 1
#include <immintrin.h>
#endif

typedef unsigned __int128 u128;

/* c_r of candidate k at stop s of reel r (its matching cells' weights), or w_r with `wild`. */
static uint64_t column_count(const kern_slot_ways *w, const kern_slot_reelset *rs, uint32_t r, uint32_t s,
                             uint32_t k, int wild)
{
    const uint8_t *col = rs->window + ((size_t)rs->stop_off[r] + s) * rs->rows;
    const uint32_t *weight = (wild ? w->wild : w->weight) + (size_t)k * w->n_symbols;
    uint64_t c = 0;
    for (uint32_t h = 0; h < rs->rows; h++) {
        c += weight[col[h]];
    }
    return c;
}

int64_t slot_ways_most(const kern_slot_ways *w, const kern_slot_reelset *rs)
{
    const u128 limit = (u128)INT64_MAX;
    u128 total = 0;
    for (uint32_t k = 0; k < w->n_cand; k++) {
        const int64_t *pay = w->pay + (size_t)k * (rs->reels + 1);
        /* ways: the most ways a run of n reels has; bonus: the largest multiplier sum one of them has
           (multipliers that add); both saturate just past the limit */
        u128 ways = 1, bonus = 0, best = 0;
        for (uint32_t n = 0; n <= rs->reels; n++) {
            if (pay[n] < 0) {
                return -1;
            }
            if (pay[n] && ways) {
                u128 mult = w->additive && bonus > 1 ? bonus : 1;
                if (ways > limit / mult || (u128)pay[n] > limit / (ways * mult)) {
                    return -1;
                }
                u128 here = ways * mult * (u128)pay[n];
                best = here > best ? here : best;
            }
            if (n == rs->reels) {
                break;
            }
            uint64_t most = 0, most_bonus = 0;
            for (uint32_t s = 0; s < rs->strip_len[n]; s++) {
                uint64_t c = column_count(w, rs, n, s, k, 0);
                most = c > most ? c : most;
                const uint8_t *col = rs->window + ((size_t)rs->stop_off[n] + s) * rs->rows;
                for (uint32_t h = 0; w->additive && h < rs->rows; h++) {
                    uint64_t b = w->weight[(size_t)k * w->n_symbols + col[h]] ? w->bonus[col[h]] : 0;
                    most_bonus = b > most_bonus ? b : most_bonus;
                }
            }
            ways = ways * most > limit ? limit + 1 : ways * most; /* <= 2^64 x 2^64: no u128 wrap */
            bonus = bonus + most_bonus > limit ? limit + 1 : bonus + most_bonus;
        }
        total += best;
        if (total > limit) {
            return -1;
        }
    }
    return (int64_t)total;
}

void slot_ways_free(slot_ways *t)
{
    for (uint32_t i = 0; i < t->n_blocks; i++) {
        free(t->blocks[i]);
    }
    memset(t, 0, sizeof *t);
}

/* A zeroed table of `bytes`, 64-byte aligned (a vector load never splits a cache line), or NULL. */
static void *block(slot_ways *t, size_t bytes, size_t *total)
{
    bytes = (bytes + 63) & ~(size_t)63;
    bytes = bytes ? bytes : 64;
    *total += bytes;
    if (*total > SLOT_WAYS_MAX_BYTES || t->n_blocks == sizeof t->blocks / sizeof t->blocks[0]) {
        return NULL;
    }
    void *p = aligned_alloc(64, bytes);
    if (p) {
        memset(p, 0, bytes);
        t->blocks[t->n_blocks++] = p;
    }
    return p;
}

/* B += Q . broke (lanes half .. lanes - 1 taken off); Q *= factor over the lanes (the step of
   slot_ways.h, modulo 2^64). */
static inline __attribute__((always_inline)) void step_lanes(uint32_t half, uint32_t lanes, uint64_t *q, uint64_t *b,
                                                             const uint32_t *factor, const uint32_t *broke)
{
    uint64_t plus = 0, minus = 0;
    for (uint32_t j = 0; j < half; j++) {
        plus += q[j] * broke[j];
    }
    for (uint32_t j = half; j < lanes; j++) {
        minus += q[j] * broke[j];
    }
    for (uint32_t j = 0; j < lanes; j++) {
        q[j] *= factor[j];
    }
    *b += plus - minus;
}

/* What one lane of the tables counts: some of one candidate's ways, for the runs of one block of
   its listed counts.  A block is a longest list of consecutive listed counts first .. last; it pays
   the runs from `first` up to the next block's first count (`next`; reels + 1 if none), each by
   its listed count, so a gap in the pays is the end of a block.  Reels 1 .. last multiply by the
   lane's count, later ones by 1 while the run goes on; reel `next` continuing the run zeroes the
   lane (the next block pays that run).  With multipliers that multiply, a lane's count is its
   candidate's c_r (or w_r).  With multipliers that add, slot_ways.h's sum over the ways,
   A_1 N_2 ... N_k + N_1 A_2 ... N_k + ... + Z_1 ... Z_k, is one product per reel whose A
   stands for its N (`bonus`, paid only by runs that reach that reel) and one of the Z (`bonus`
   -1). */
typedef struct {
    uint32_t cand;
    uint32_t wild;   /* 1: its ways of wilds only (taken off) */
    uint32_t first, last, next;
    int32_t bonus;   /* multipliers that add: the reel (0-based) counted by A, -1 the Z product; else -1 */
} lane_spec;

/* What a cell showing x adds to lane L's count on a reel (`bonus_reel`: the lane's A reel). */
static uint64_t cell_count(const kern_slot_ways *w, const lane_spec *L, uint8_t x, int bonus_reel)
{
    const uint32_t *weight = (L->wild ? w->wild : w->weight) + (size_t)L->cand * w->n_symbols;
    if (!weight[x] || !w->additive) {
        return weight[x];
    }
    return bonus_reel ? w->bonus[x] : L->bonus < 0 ? w->bonus[x] == 0 : 1;
}

/* Lane L's factor and, if its run breaks there, its pay, on reel r at stop s; 0 if either passes
   32 bits. */
static int lane_entry(const kern_slot_ways *w, const kern_slot_reelset *rs, const lane_spec *L, uint32_t r,
                      uint32_t s, uint32_t *factor, uint32_t *broke)
{
    const uint32_t reels = rs->reels;
    const uint8_t *paid = w->paid + (size_t)L->cand * (reels + 1);
    const uint64_t c = column_count(w, rs, r, s, L->cand, 0); /* the run goes on: S or a wild for it shown */
    *factor = *broke = 0;
    if (!c) {
        const int paid_here = r >= L->first && r < L->next && (int32_t)r > L->bonus;
        const int64_t pay = paid_here ? w->pay[(size_t)L->cand * (reels + 1) + paid[r]] : 0;
        if (pay > (int64_t)UINT32_MAX) {
            return 0;
        }
        *broke = (uint32_t)pay;
        return 1;
    }
    if (r + 1 >= L->next) {
        return 1; /* a run of `next` reels or more: the next block's */
    }
    if (r >= L->last) {
        *factor = 1;
        return 1;
    }
    const uint8_t *col = rs->window + ((size_t)rs->stop_off[r] + s) * rs->rows;
    uint64_t n = 0;
    for (uint32_t h = 0; h < rs->rows; h++) {
        n += cell_count(w, L, col[h], (int32_t)r == L->bonus);
    }
    if (n > UINT32_MAX) {
        return 0;
    }
    *factor = (uint32_t)n;
    return 1;
}

/* 1 if lane L never pays: some reel before the first it pays on has a factor of 0 at every stop. */
static int lane_is_zero(const kern_slot_ways *w, const kern_slot_reelset *rs, const lane_spec *L)
{
    const uint32_t pays_from = L->bonus >= 0 && (uint32_t)L->bonus + 1 > L->first ? (uint32_t)L->bonus + 1 : L->first;
    for (uint32_t r = 0; r < pays_from && r < rs->reels; r++) {
        uint32_t any = 0;
        for (uint32_t s = 0; s < rs->strip_len[r] && !any; s++) {
            uint32_t f, b;
            if (!lane_entry(w, rs, L, r, s, &f, &b)) {
                return 0; /* too large for the tables: lane_entry refuses it again when they are built */
            }
            any = f;
        }
        if (!any) {
            return 1;
        }
    }
    return 0;
}

/* Lane j of the tables (main lanes first, then the wild-only ones): its spec, and in `at` its place
   in a row (the wild-only ones from `half` on). */
static const lane_spec *table_lane(const lane_spec specs[2][SLOT_WAYS_MAX_LANES], uint32_t n_main, uint32_t half,
                                   uint32_t j, uint32_t *at)
{
    *at = j < n_main ? j : half + j - n_main;
    return j < n_main ? &specs[0][j] : &specs[1][j - n_main];
}

/* Every lane that can pay (main ones first, then the wild-only ones, n_main and n_wild of them) in
   specs[cap]; 0 if there are more than cap of either kind. */
static int lane_specs(const kern_slot_ways *w, const kern_slot_reelset *rs, lane_spec *main_specs,
                      lane_spec *wild_specs, uint32_t cap, uint32_t *n_main, uint32_t *n_wild)
{
    const uint32_t reels = rs->reels;
    *n_main = *n_wild = 0;
    for (uint32_t k = 0; k < w->n_cand; k++) {
        const uint8_t *paid = w->paid + (size_t)k * (reels + 1);
        uint8_t listed[65] = {0};
        for (uint32_t n = 0; n <= reels; n++) {
            listed[paid[n]] = paid[n] != 0;
        }
        for (uint32_t first = 1; first <= reels; first++) {
            if (!listed[first] || listed[first - 1]) {
                continue; /* not the first count of a block */
            }
            uint32_t last = first, next = first + 1;
            while (last < reels && listed[last + 1]) {
                last++;
            }
            for (next = last + 1; next <= reels && !listed[next]; next++) {
            }
            const int32_t hi = w->additive ? (int32_t)last - 1 : -1; /* the A reels, after the Z (-1) */
            for (uint32_t wild = 0; wild < 2; wild++) {
                for (int32_t bonus = -1; bonus <= hi; bonus++) {
                    lane_spec L = {k, wild, first, last, next, bonus};
                    if (lane_is_zero(w, rs, &L)) {
                        continue;
                    }
                    uint32_t *n = wild ? n_wild : n_main;
                    if (*n == cap) {
                        return 0;
                    }
                    (wild ? wild_specs : main_specs)[(*n)++] = L;
                }
            }
        }
    }
    return 1;
}

/* 16-bit copies of both pair tables when every entry fits (half the cache for the same spins); a
   start pair's B in the row then takes four unused 16-bit lanes, b_lane[0 .. 3] (none: no copies). */
static void narrow(slot_ways *t, size_t *total)
{
    const size_t starts = (size_t)t->len[0] * t->len[1], ends = (size_t)t->len[t->reels - 2] * t->len[t->reels - 1];
    const int inline_pay = !t->start_pay;
    const uint32_t *bl = t->b_lane;
    if (inline_pay && t->n_unused < 4) {
        return;
    }
    for (size_t i = 0; i < starts * t->lanes; i++) {
        uint32_t j = (uint32_t)(i % t->lanes); /* a table's lane, not a draw */
        if (t->start_ways[i] > UINT16_MAX && !(inline_pay && (j == bl[0] || j == bl[1]))) {
            return;
        }
    }
    for (size_t i = 0; i < ends * t->lanes; i++) {
        if (t->end_value[i] > UINT16_MAX) {
            return;
        }
    }
    uint16_t *start = block(t, starts * t->lanes * sizeof *start, total);
    uint16_t *end = block(t, ends * t->lanes * sizeof *end, total);
    if (!start || !end) {
        return; /* the 32-bit tables serve */
    }
    for (size_t at = 0; at < starts; at++) {
        const uint32_t *x = t->start_ways + at * t->lanes;
        uint16_t *y = start + at * t->lanes;
        for (uint32_t j = 0; j < t->lanes; j++) {
            y[j] = (uint16_t)x[j];
        }
        if (inline_pay) {
            uint64_t b = (uint64_t)x[bl[0]] | (uint64_t)x[bl[1]] << 32;
            for (uint32_t i = 0; i < 4; i++) {
                y[bl[i]] = (uint16_t)(b >> 16 * i);
            }
        }
    }
    for (size_t i = 0; i < ends * t->lanes; i++) {
        end[i] = (uint16_t)t->end_value[i];
    }
    t->start16 = start;
    t->end16 = end;
}

int slot_ways_init(slot_ways *t, const kern_slot_ways *w, const kern_slot_reelset *rs)
{
    memset(t, 0, sizeof *t);
    const uint32_t reels = rs->reels;
    if (reels == 0 || reels > 64) {
        return SLOT_WAYS_NO_TABLES;
    }
    lane_spec specs[2][SLOT_WAYS_MAX_LANES];
    uint32_t n_main, n_wild;
    if (!lane_specs(w, rs, specs[0], specs[1], SLOT_WAYS_MAX_LANES, &n_main, &n_wild)) {
        return SLOT_WAYS_NO_TABLES; /* too many lanes: the cells reader */
    }
    /* main lanes, then wild-only ones, each padded to SLOT_WAYS_LANES */
    const uint32_t v = SLOT_WAYS_LANES;
    const uint32_t half = n_main ? (n_main + v - 1) / v * v : v, wild = (n_wild + v - 1) / v * v;
    /* four unused lanes hold a start pair's B in 16 bits (one more vector of padding if need be) */
    const uint32_t lanes = half + wild + (half - n_main + wild - n_wild < 4 ? v : 0);
    if (lanes > SLOT_WAYS_MAX_LANES) {
        return SLOT_WAYS_NO_TABLES;
    }
    t->reels = reels;
    t->half = half;
    t->lanes = lanes;
    for (uint32_t j = lanes; j-- > 0 && t->n_unused < 4;) { /* the last unused lanes, for B */
        if (j >= half + n_wild || (j >= n_main && j < half)) {
            t->b_lane[t->n_unused++] = j;
        }
    }
    size_t total = 0;
    int rc = RNG_OK;
    uint32_t *full = block(t, t->lanes * sizeof *full, &total);
    if (!full) {
        goto fail;
    }
    for (uint32_t j = 0; j < n_main + n_wild; j++) {
        uint32_t at;
        const lane_spec *L = table_lane(specs, n_main, t->half, j, &at);
        const int64_t pay = L->next > reels ? w->pay[(size_t)L->cand * (reels + 1) +
                                                     w->paid[(size_t)L->cand * (reels + 1) + reels]] : 0;
        if (pay > (int64_t)UINT32_MAX) {
            rc = SLOT_WAYS_NO_TABLES;
            goto fail;
        }
        full[at] = (uint32_t)pay;
    }
    t->full = full;
    for (uint32_t r = 0; r < reels; r++) { /* every reel's lanes (the pairs are built from them) */
        t->len[r] = rs->strip_len[r];
        uint32_t *factor = block(t, (size_t)t->len[r] * t->lanes * sizeof *factor, &total);
        uint32_t *broke = block(t, (size_t)t->len[r] * t->lanes * sizeof *broke, &total);
        if (!factor || !broke) {
            goto fail;
        }
        for (uint32_t j = 0; j < n_main + n_wild; j++) {
            uint32_t at;
            const lane_spec *L = table_lane(specs, n_main, t->half, j, &at);
            for (uint32_t s = 0; s < t->len[r]; s++) {
                if (!lane_entry(w, rs, L, r, s, factor + (size_t)s * t->lanes + at,
                                broke + (size_t)s * t->lanes + at)) {
                    rc = SLOT_WAYS_NO_TABLES;
                    goto fail;
                }
            }
        }
        t->factor[r] = factor;
        t->broke[r] = broke;
    }
    /* The start pair (3 reels or more), when its products fit 32 bits and it is small enough.  B
       goes in the row's last two unused lanes when there are two (one cache line less a spin). */
    size_t start_pairs = reels >= 3 ? (size_t)t->len[0] * t->len[1] : 0;
    if (start_pairs && start_pairs * (8 + (size_t)t->lanes * 4) <= SLOT_WAYS_MAX_PAIR_BYTES) {
        const int inline_pay = t->n_unused >= 2;
        uint64_t *pay = inline_pay ? NULL : block(t, start_pairs * sizeof *pay, &total);
        uint32_t *ways = block(t, start_pairs * t->lanes * sizeof *ways, &total);
        if ((!pay && !inline_pay) || !ways) {
            goto fail;
        }
        int fits = 1;
        for (uint32_t s0 = 0; s0 < t->len[0] && fits; s0++) {
            for (uint32_t s1 = 0; s1 < t->len[1] && fits; s1++) {
                uint64_t q[SLOT_WAYS_MAX_LANES], b = 0;
                for (uint32_t j = 0; j < t->lanes; j++) {
                    q[j] = 1;
                }
                for (uint32_t r = 0; r < 2; r++) {
                    size_t row = (size_t)(r ? s1 : s0) * t->lanes;
                    step_lanes(t->half, t->lanes, q, &b, t->factor[r] + row, t->broke[r] + row);
                }
                size_t at = (size_t)s0 * t->len[1] + s1;
                uint32_t *x = ways + at * t->lanes;
                for (uint32_t j = 0; j < t->lanes; j++) {
                    fits &= q[j] <= UINT32_MAX; /* factors < 2^32: their product < 2^64, unwrapped */
                    x[j] = (uint32_t)q[j];
                }
                if (inline_pay) { /* unused lanes: every factor, pay and entry after them is 0 */
                    x[t->b_lane[0]] = (uint32_t)b;
                    x[t->b_lane[1]] = (uint32_t)(b >> 32);
                } else {
                    pay[at] = b;
                }
            }
        }
        if (fits) {
            t->start_pay = pay;
            t->start_ways = ways;
            t->first = 2;
        }
    }
    /* The end pair (its reels not the start pair's), when its entries fit 32 bits: lane j's entry is
       what one way alive before the last two reels pays over them (taken off for j >= half). */
    t->end = reels;
    size_t end_pairs = reels >= 2 && reels - 2 >= t->first ? (size_t)t->len[reels - 2] * t->len[reels - 1] : 0;
    if (end_pairs && end_pairs * t->lanes * 4 <= SLOT_WAYS_MAX_PAIR_BYTES) {
        uint32_t *value = block(t, end_pairs * t->lanes * sizeof *value, &total);
        if (!value) {
            goto fail;
        }
        const uint32_t a = reels - 2, b = reels - 1;
        int fits = 1;
        for (uint32_t s = 0; s < t->len[a] && fits; s++) {
            const uint32_t *fa = t->factor[a] + (size_t)s * t->lanes, *ba = t->broke[a] + (size_t)s * t->lanes;
            for (uint32_t s2 = 0; s2 < t->len[b] && fits; s2++) {
                const uint32_t *fb = t->factor[b] + (size_t)s2 * t->lanes, *bb = t->broke[b] + (size_t)s2 * t->lanes;
                uint32_t *f = value + ((size_t)s * t->len[b] + s2) * t->lanes;
                for (uint32_t j = 0; j < t->lanes; j++) { /* < 2^32 x 2^32 x 2^32 + ...: u128 */
                    u128 v = ba[j] + (u128)fa[j] * (bb[j] + (u128)fb[j] * full[j]);
                    fits &= v <= UINT32_MAX;
                    f[j] = (uint32_t)v;
                }
            }
        }
        if (fits) {
            t->end_value = value;
            t->end = reels - 2;
        }
    }
    if (t->start_ways && t->end_value) {
        narrow(t, &total);
    }
    const int64_t most = slot_ways_most(w, rs);
    t->narrow = most >= 0 && most <= (int64_t)UINT32_MAX;
    return RNG_OK;
fail:
    if (rc == RNG_OK) {
        rc = total > SLOT_WAYS_MAX_BYTES || t->n_blocks == sizeof t->blocks / sizeof t->blocks[0]
                 ? SLOT_WAYS_NO_TABLES
                 : RNG_E_MEMORY;
    }
    slot_ways_free(t);
    return rc;
}

/* ---- the walk ------------------------------------------------------------------------------- */

static inline size_t start_at(const slot_ways *t, const uint32_t *stops)
{
    return (size_t)stops[0] * t->len[1] + stops[1];
}

/* B of the start pair entry `at` (its row of ways at x, 16-bit lanes if `n16`). */
static inline __attribute__((always_inline)) uint64_t start_pay(const slot_ways *t, const void *x, size_t at,
                                                                const int n16)
{
    const uint32_t *bl = t->b_lane;
    if (t->start_pay) {
        return t->start_pay[at];
    }
    if (n16) {
        const uint16_t *y = x;
        return (uint64_t)y[bl[0]] | (uint64_t)y[bl[1]] << 16 | (uint64_t)y[bl[2]] << 32 | (uint64_t)y[bl[3]] << 48;
    }
    const uint32_t *y = x;
    return (uint64_t)y[bl[0]] | (uint64_t)y[bl[1]] << 32;
}

/* Lane j of a pair table row (16- or 32-bit entries). */
static inline __attribute__((always_inline)) uint64_t lane(const void *x, uint32_t j, const int n16)
{
    return n16 ? ((const uint16_t *)x)[j] : ((const uint32_t *)x)[j];
}

static inline size_t end_at(const slot_ways *t, const uint32_t *stops)
{
    return (size_t)stops[t->reels - 2] * t->len[t->reels - 1] + stops[t->reels - 1];
}

/* Where a walk enters the tables: the start pair's row of lanes for `stops` (16-bit entries if `n16`),
   its B in *b; NULL (and *b = 0) without a start pair, every lane then starting at 1. */
static inline __attribute__((always_inline)) const char *start_row(const slot_ways *t, const uint32_t *stops,
                                                                   const uint32_t lanes, const int n16, uint64_t *b)
{
    *b = 0;
    if (!t->first) {
        return NULL;
    }
    const size_t at = start_at(t, stops);
    const char *x = n16 ? (const char *)(t->start16 + at * lanes) : (const char *)(t->start_ways + at * lanes);
    *b = start_pay(t, x, at, n16);
    return x;
}

/* Where a walk leaves the tables: the end pair's row of lanes for `stops`, or the full pays when there
   is no end pair; *f16: its entries are 16-bit. */
static inline __attribute__((always_inline)) const char *end_row(const slot_ways *t, const uint32_t *stops,
                                                                 const uint32_t lanes, const int n16, int *f16)
{
    *f16 = n16 && t->end_value;
    if (!t->end_value) {
        return (const char *)t->full;
    }
    const size_t at = end_at(t, stops) * lanes;
    return n16 ? (const char *)(t->end16 + at) : (const char *)(t->end_value + at);
}

/* The walk of slot_ways.h in plain loops over padded vectors (every trip count is a table width,
   never a symbol), `half` and `lanes` constants where the caller can make them so; `n16`: the 16-bit
   pair tables. */
static inline __attribute__((always_inline)) uint64_t walk(const slot_ways *t, const uint32_t *stops,
                                                           const uint32_t half, const uint32_t lanes, const int n16)
{
    uint64_t q[SLOT_WAYS_MAX_LANES];
    uint64_t total;
    const char *x = start_row(t, stops, lanes, n16, &total);
    if (x) {
        for (uint32_t j = 0; j < lanes; j++) {
            q[j] = lane(x, j, n16);
        }
    } else {
        for (uint32_t j = 0; j < lanes; j++) {
            q[j] = 1;
        }
    }
    for (uint32_t r = t->first; r < t->end; r++) {
        size_t row = (size_t)stops[r] * lanes;
        step_lanes(half, lanes, q, &total, t->factor[r] + row, t->broke[r] + row);
    }
    int f16;
    const char *f = end_row(t, stops, lanes, n16, &f16);
    uint64_t plus = 0, minus = 0;
    for (uint32_t j = 0; j < half; j++) {
        plus += q[j] * lane(f, j, f16);
    }
    for (uint32_t j = half; j < lanes; j++) {
        minus += q[j] * lane(f, j, f16);
    }
    return total + plus - minus;
}

/* Eight 32-bit lanes (GCC/Clang vector extensions: SSE2 register pairs on the portable path, one
   register with AVX2). */
typedef uint32_t lanes8 __attribute__((vector_size(32)));
typedef uint16_t lanes8_16 __attribute__((vector_size(16)));

/* *out = the 8 lanes at x in 32 bits (16- or 32-bit entries, any alignment).  Stored through out,
   not returned: a returned 32-byte vector has one ABI with AVX and another without. */
static inline __attribute__((always_inline)) void load_lanes8(lanes8 *out, const void *x, const int n16)
{
    if (n16) {
        lanes8_16 y;
        memcpy(&y, x, sizeof y);
        *out = __builtin_convertvector(y, lanes8);
    } else {
        memcpy(out, x, sizeof *out);
    }
}

/* The walk modulo 2^32 (t->narrow: every spin pays below 2^32, so the residue is the exact pay), in
   vectors of 8 lanes: `regs` vectors of matching ways (half = 8 regs), then `wregs` of wild-only ways. */
static inline __attribute__((always_inline)) uint64_t walk32(const slot_ways *t, const uint32_t *stops,
                                                             const uint32_t regs, const uint32_t wregs, const int n16)
{
    lanes8 q[SLOT_WAYS_MAX_LANES / 8], plus = {0}, minus = {0};
    const uint32_t all = regs + wregs, lanes = 8 * all, size = n16 ? 2 : 4;
    if (all > SLOT_WAYS_MAX_LANES / 8) {
        __builtin_unreachable(); /* slot_ways_init: at most SLOT_WAYS_MAX_LANES lanes */
    }
    uint64_t total;
    const char *x = start_row(t, stops, lanes, n16, &total);
    if (x) {
        for (uint32_t i = 0; i < all; i++) {
            load_lanes8(&q[i], x + 8 * i * size, n16);
        }
    } else {
        for (uint32_t i = 0; i < all; i++) {
            q[i] = (lanes8){1, 1, 1, 1, 1, 1, 1, 1};
        }
    }
    for (uint32_t r = t->first; r < t->end; r++) {
        const uint32_t *c = t->factor[r] + (size_t)stops[r] * lanes;
        const uint32_t *broke = t->broke[r] + (size_t)stops[r] * lanes;
        lanes8 v;
        for (uint32_t i = 0; i < regs; i++) {
            load_lanes8(&v, broke + 8 * i, 0);
            plus += q[i] * v;
        }
        for (uint32_t i = regs; i < all; i++) {
            load_lanes8(&v, broke + 8 * i, 0);
            minus += q[i] * v;
        }
        for (uint32_t i = 0; i < all; i++) {
            load_lanes8(&v, c + 8 * i, 0);
            q[i] *= v;
        }
    }
    int f16;
    const char *f = end_row(t, stops, lanes, n16, &f16);
    const uint32_t fsize = f16 ? 2 : 4;
    lanes8 v;
    for (uint32_t i = 0; i < regs; i++) {
        load_lanes8(&v, f + 8 * i * fsize, f16);
        plus += q[i] * v;
    }
    for (uint32_t i = regs; i < all; i++) {
        load_lanes8(&v, f + 8 * i * fsize, f16);
        minus += q[i] * v;
    }
    const lanes8 d = plus - minus;
    return (uint32_t)((uint32_t)total + d[0] + d[1] + d[2] + d[3] + d[4] + d[5] + d[6] + d[7]);
}

/* The table shapes the pay functions compile a walk for (h: half / 8, l: lanes / 8): one multiplying
   candidate block a lane up to 8 or 16 of each kind, and the wider rows of multipliers that add
   without wild-only lanes; any other shape takes the generic walk. */
#define SLOT_SHAPE(h, l) ((h) * 32 + (l))
#define SLOT_CASE(WALK, h, l)                                                                              \
    case SLOT_SHAPE(h, l):                                                                                  \
        return n16 ? WALK(h, l, 1) : WALK(h, l, 0);
#define SLOT_SWITCH(WALK, GENERIC)                                                                          \
    switch (SLOT_SHAPE(t->half / 8, t->lanes / 8)) {                                                        \
        SLOT_CASE(WALK, 1, 1)                                                                               \
        SLOT_CASE(WALK, 1, 2)                                                                               \
        SLOT_CASE(WALK, 2, 2)                                                                               \
        SLOT_CASE(WALK, 2, 3)                                                                               \
        SLOT_CASE(WALK, 2, 4)                                                                               \
        SLOT_CASE(WALK, 3, 3)                                                                               \
        SLOT_CASE(WALK, 3, 4)                                                                               \
        SLOT_CASE(WALK, 4, 4)                                                                               \
    default:                                                                                                \
        return GENERIC;                                                                                     \
    }
/* Each walk in shape (h, l) and entry width n. */
#define SLOT_WALK32(h, l, n) walk32(t, stops, h, (l) - (h), n)
#define SLOT_WALK64(h, l, n) walk(t, stops, 8 * (h), 8 * (l), n)
#define SLOT_WALK32_AVX512(h, l, n) walk32_avx512(t, stops, ((l) + 1) / 2, 8 * (h), (l) % 2, n)
#define SLOT_WALK64_AVX512(h, l, n) walk_avx512(t, stops, h, (l) - (h), n)

/* A pay function NAME (target attributes ATTR) over the walks.  Not a near-copy: each case is a
   walk compiled with the shape, `n16` and the lane type constant (fixed trip counts, unrolled and
   vectorised loops, no width branch) for the common shapes; default is the generic walk.  The
   portable path and the AVX2 one are this same C, compiled for the two instruction sets. */
#define SLOT_DEFINE_PAY(NAME, ATTR)                                                                       \
    ATTR static uint64_t NAME(const slot_ways *t, const uint32_t *stops)                                   \
    {                                                                                                       \
        const int n16 = t->start16 != NULL;                                                                 \
        if (t->narrow) {                                                                                    \
            SLOT_SWITCH(SLOT_WALK32, walk32(t, stops, t->half / 8, (t->lanes - t->half) / 8, n16))          \
        }                                                                                                   \
        SLOT_SWITCH(SLOT_WALK64, walk(t, stops, t->half, t->lanes, n16))                                    \
    }

SLOT_DEFINE_PAY(pay_portable, )

#ifdef SLOT_X86

#define SLOT_AVX512 __attribute__((target("avx512f,avx512dq")))
#define SLOT_AVX2 __attribute__((target("avx2")))

SLOT_DEFINE_PAY(pay_avx2, SLOT_AVX2)

/* The 8 lanes at x, widened to 64 bits (16- or 32-bit entries). */
SLOT_AVX512 static inline __attribute__((always_inline)) __m512i load8(const void *x, const int n16)
{
    return n16 ? _mm512_cvtepu16_epi64(_mm_load_si128((const __m128i *)x))
               : _mm512_cvtepu32_epi64(_mm256_load_si256((const __m256i *)x));
}

/* acc + q x the 8 lanes at x. */
SLOT_AVX512 static inline __attribute__((always_inline)) __m512i mul_add8(__m512i acc, __m512i q, const void *x,
                                                                          const int n16)
{
    return _mm512_add_epi64(acc, _mm512_mullo_epi64(q, load8(x, n16)));
}

/* The walk with 8 lanes per zmm register: `regs` of matching ways, then `wregs` of wild-only ways. */
SLOT_AVX512 static inline __attribute__((always_inline)) uint64_t walk_avx512(const slot_ways *t,
                                                                               const uint32_t *stops,
                                                                               const uint32_t regs,
                                                                               const uint32_t wregs, const int n16)
{
    __m512i q[SLOT_WAYS_MAX_LANES / 8];
    const uint32_t all = regs + wregs, lanes = 8 * all, size = n16 ? 2 : 4;
    __m512i plus = _mm512_setzero_si512(), minus = _mm512_setzero_si512();
    uint64_t total;
    const char *x = start_row(t, stops, lanes, n16, &total);
    if (x) {
        for (uint32_t i = 0; i < all; i++) {
            q[i] = load8(x + 8 * i * size, n16);
        }
    } else {
        for (uint32_t i = 0; i < all; i++) {
            q[i] = _mm512_set1_epi64(1);
        }
    }
    for (uint32_t r = t->first; r < t->end; r++) {
        const uint32_t *c = t->factor[r] + (size_t)stops[r] * lanes;
        const uint32_t *broke = t->broke[r] + (size_t)stops[r] * lanes;
        for (uint32_t i = 0; i < regs; i++) {
            plus = mul_add8(plus, q[i], broke + 8 * i, 0);
        }
        for (uint32_t i = regs; i < all; i++) {
            minus = mul_add8(minus, q[i], broke + 8 * i, 0);
        }
        for (uint32_t i = 0; i < all; i++) {
            q[i] = _mm512_mullo_epi64(q[i], load8(c + 8 * i, 0));
        }
    }
    int f16;
    const char *f = end_row(t, stops, lanes, n16, &f16);
    const uint32_t fsize = f16 ? 2 : 4;
    for (uint32_t i = 0; i < regs; i++) {
        plus = mul_add8(plus, q[i], f + 8 * i * fsize, f16);
    }
    for (uint32_t i = regs; i < all; i++) {
        minus = mul_add8(minus, q[i], f + 8 * i * fsize, f16);
    }
    return total + (uint64_t)_mm512_reduce_add_epi64(_mm512_sub_epi64(plus, minus));
}

/* The 16 lanes at x in 32 bits (16- or 32-bit entries); `part`: only the first 8 (a row's last 8
   lanes: the rest of the register is 0, nothing past the row is read). */
SLOT_AVX512 static inline __attribute__((always_inline)) __m512i load16(const void *x, const int n16, const int part)
{
    if (part) {
        return n16 ? _mm512_cvtepu16_epi32(_mm256_inserti128_si256(_mm256_setzero_si256(),
                                                                   _mm_loadu_si128((const __m128i *)x), 0))
                   : _mm512_maskz_loadu_epi32((__mmask16)0x00FF, x);
    }
    return n16 ? _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)x))
               : _mm512_loadu_si512(x);
}

/* The walk modulo 2^32 (t->narrow) with 16 lanes per zmm register: `regs` registers, lane j of
   register i is lane 16 i + j of the tables, the last register half full if `part` (lanes an odd
   multiple of 8); the wild-only lanes (>= half) are negated at the end. */
SLOT_AVX512 static inline __attribute__((always_inline)) uint64_t walk32_avx512(const slot_ways *t,
                                                                                 const uint32_t *stops,
                                                                                 const uint32_t regs,
                                                                                 const uint32_t half, const int part,
                                                                                 const int n16)
{
    __m512i q[SLOT_WAYS_MAX_LANES / 16], acc[SLOT_WAYS_MAX_LANES / 16];
    const uint32_t lanes = 16 * regs - 8 * (uint32_t)part, size = n16 ? 2 : 4;
    uint64_t total;
    const char *x = start_row(t, stops, lanes, n16, &total);
    if (x) {
        for (uint32_t i = 0; i < regs; i++) {
            q[i] = load16(x + 16 * i * size, n16, part && i == regs - 1);
        }
    } else {
        for (uint32_t i = 0; i < regs; i++) {
            q[i] = _mm512_set1_epi32(1);
        }
    }
    for (uint32_t i = 0; i < regs; i++) {
        acc[i] = _mm512_setzero_si512();
    }
    for (uint32_t r = t->first; r < t->end; r++) {
        const uint32_t *c = t->factor[r] + (size_t)stops[r] * lanes;
        const uint32_t *broke = t->broke[r] + (size_t)stops[r] * lanes;
        for (uint32_t i = 0; i < regs; i++) {
            acc[i] = _mm512_add_epi32(acc[i], _mm512_mullo_epi32(q[i], load16(broke + 16 * i, 0, part && i == regs - 1)));
            q[i] = _mm512_mullo_epi32(q[i], load16(c + 16 * i, 0, part && i == regs - 1));
        }
    }
    int f16;
    const char *f = end_row(t, stops, lanes, n16, &f16);
    const uint32_t fsize = f16 ? 2 : 4;
    __m512i sum = _mm512_setzero_si512();
    for (uint32_t i = 0; i < regs; i++) {
        __m512i v = _mm512_add_epi32(acc[i], _mm512_mullo_epi32(q[i], load16(f + 16 * i * fsize, f16, part && i == regs - 1)));
        /* lanes 16 i + j >= half are taken off */
        const __mmask16 off = (__mmask16)(16 * i >= half ? 0xFFFF : 16 * i + 16 <= half ? 0 : 0xFFFF << (half - 16 * i));
        sum = _mm512_add_epi32(sum, _mm512_mask_sub_epi32(v, off, _mm512_setzero_si512(), v));
    }
    return (uint32_t)((uint32_t)total + (uint32_t)_mm512_reduce_add_epi32(sum));
}

SLOT_AVX512 static uint64_t pay_avx512(const slot_ways *t, const uint32_t *stops)
{
    const int n16 = t->start16 != NULL;
    if (t->narrow) {
        SLOT_SWITCH(SLOT_WALK32_AVX512,
                    walk32_avx512(t, stops, (t->lanes + 15) / 16, t->half, t->lanes % 16 != 0, n16))
    }
    /* Compile-time specialisation, as in pay_portable: the shape and entry width constant in the
       common cases (q stays in registers), the generic walk otherwise. */
    SLOT_SWITCH(SLOT_WALK64_AVX512, walk_avx512(t, stops, t->half / 8, (t->lanes - t->half) / 8, n16))
}

int kern_slot_cpu_has(int impl)
{
    __builtin_cpu_init();
    switch (impl) {
    case KERN_SLOT_IMPL_PORTABLE:
        return 1;
    case KERN_SLOT_IMPL_AVX2:
        return __builtin_cpu_supports("avx2");
    case KERN_SLOT_IMPL_AVX512:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    default:
        return 0;
    }
}

slot_ways_pay_fn slot_ways_pay_for(int impl)
{
    return impl == KERN_SLOT_IMPL_AVX512 ? pay_avx512 : impl == KERN_SLOT_IMPL_AVX2 ? pay_avx2 : pay_portable;
}

#else

int kern_slot_cpu_has(int impl)
{
    return impl == KERN_SLOT_IMPL_PORTABLE;
}

slot_ways_pay_fn slot_ways_pay_for(int impl)
{
    (void)impl;
    return pay_portable;
}

#endif

/* ---- path selection ------------------------------------------------------------------------- */

static int slot_impl = -1; /* -1 until first use, then KERN_SLOT_IMPL_* */

static int best_impl(void)
{
    if (kern_slot_cpu_has(KERN_SLOT_IMPL_AVX512)) {
        return KERN_SLOT_IMPL_AVX512;
    }
    return kern_slot_cpu_has(KERN_SLOT_IMPL_AVX2) ? KERN_SLOT_IMPL_AVX2 : KERN_SLOT_IMPL_PORTABLE;
}

int kern_slot_get_impl(void)
{
    return rng_dispatch_get(&slot_impl, best_impl);
}

int kern_slot_set_impl(int impl)
{
    if (!kern_slot_cpu_has(impl)) {
        return RNG_E_ARGUMENT;
    }
    __atomic_store_n(&slot_impl, impl, __ATOMIC_RELAXED);
    return RNG_OK;
}
