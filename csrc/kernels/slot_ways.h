/*
 * slot_ways.h -- a ways game's line pay by the ways rule.
 *
 * The rule (docs/slot_model.md, "Ways to win"; its one home in Python is
 * harness/slot/ways_rule.py, from which harness/slot/native.py builds the
 * kern_slot_ways tables): each paying symbol S (a "candidate") is paid on
 * its own and the spin's line pay is the sum over the candidates.  A cell
 * matches S when it shows S or a wild substituting for it (for a paying
 * wild: the wild itself).  The run n is the number of reels from reel 1
 * each showing a matching cell; the count paid is k = paid[n], the longest
 * listed count <= n; its ways are the paths of one matching cell on each of
 * reels 1..k, less the ways of wilds only (those are the wild's own).  With
 * multipliers that multiply, reel r's count c_r sums its matching cells'
 * multipliers and w_r its matching wild cells', and S pays
 *
 *     pay(S, k) x (c_1 ... c_k - w_1 ... w_k).
 *
 * With multipliers that add (a way's multiplier: the sum of its wilds'
 * multipliers above 1, or 1), the sum over the ways is carried reel by reel
 * as ways_rule.py's six sums (matching cells N, their multiplier sum A,
 * cells without Z, and the same over the wild cells): S pays
 * pay(S, k) x (A' + Z' - Aw' - Zw') with A' = A' c + N' a, and so on.
 *
 * Two readers of the same rule:
 *
 *   cells   slot_ways_cells_pay: the counts read cell by cell from the
 *           window shown (any window: also a sticky free spin's, with the
 *           wilds laid over it).  The reference of the other, and the
 *           benchmark baseline.
 *   tables  (entries within 32 bits, at most SLOT_WAYS_MAX_LANES lanes):
 *           each lane is one product over the reels: some of one candidate's
 *           ways, for the runs of one block of its listed counts (consecutive
 *           counts; a gap in the pays starts a new block, slot_ways.c
 *           lane_spec).  Its main lanes count its matching ways (paid), its
 *           wild-only lanes the ways of wilds only (taken off).  With
 *           multipliers that multiply a block is one main and one wild-only
 *           lane; with multipliers that add, the sum over the ways above is
 *           A_1 N_2 ... N_k + ... + N_1 ... A_k + Z_1 ... Z_k: one lane per
 *           reel r of the block (A_r on reel r, N on the others, paid by the
 *           runs that reach reel r) and one of the Z, lanes that can never
 *           pay (a reel before they pay without a matching cell) dropped.
 *           The pay is linear in the vector Q_r of the lanes' products after
 *           reel r (reels past the block's last count multiply by 1 while
 *           the run goes on, and the next block's first count zeroes it).
 *           Per (reel, stop) a lane has its factor and what it pays if S's
 *           run breaks there, so
 *
 *             start (reels 1, 2):  B = pays of runs that broke on reel 2,
 *                                  Q_2                     per (s_1, s_2)
 *             step (reel r):       B += Q . broke_r;  Q = Q x factor_r
 *             end (the last two):  F = broke + factor x (broke' + factor' x pay(., R))
 *                                                          per (s_{R-1}, s_R)
 *             pay = B + Q . F
 *
 *           so a 5-reel spin is three table rows and two dot products, with
 *           no branch on what the reels show.
 *
 * All arithmetic is unsigned 64-bit, wrapping: the result is exact modulo
 * 2^64, and the caller has checked that the true pay of any spin is below
 * 2^63 (slot_ways_most), so it is the exact pay.  When that bound is below
 * 2^32 (most games: the pays are in bets per way), the walk runs in
 * unsigned 32-bit lanes instead: exact modulo 2^32 and so again the exact
 * pay, with twice the lanes per vector register.
 *
 * Code paths (kern_slot_set_impl): portable C, the same C compiled for
 * AVX2, and AVX-512 (8 64-bit or 16 32-bit lanes per register); all
 * integer, so all give the same pays spin for spin
 * (tests/test_slot_simulate.py).  RNGCERT_FORCE_PORTABLE=1 selects the
 * portable path (csrc/core/dispatch.h).
 */
#ifndef KERN_SLOT_WAYS_H
#define KERN_SLOT_WAYS_H

#include <stddef.h>
#include <stdint.h>
#include "slot.h"

/* cffi:begin */
/* Code paths of the ways tables reader (RNGCERT_FORCE_PORTABLE=1 selects 0). */
#define KERN_SLOT_IMPL_PORTABLE 0
#define KERN_SLOT_IMPL_AVX512 1
#define KERN_SLOT_IMPL_AVX2 2

/* The path in use (chosen at first use: the fastest this CPU has). */
int kern_slot_get_impl(void);
/* Selects a path; RNG_E_ARGUMENT if unknown or this CPU lacks it. */
int kern_slot_set_impl(int impl);
/* 1 if this CPU (and build) has path impl. */
int kern_slot_cpu_has(int impl);
/* cffi:end */

#define SLOT_WAYS_LANES 8u                          /* candidate vectors padded to a multiple of this */
#define SLOT_WAYS_MAX_LANES 128u                    /* more lanes: the cells reader */
#define SLOT_WAYS_MAX_BYTES ((size_t)24 << 20)      /* every table, at most */
#define SLOT_WAYS_MAX_PAIR_BYTES ((size_t)4 << 20)  /* one pair table, at most (else its reels are stepped) */
#define SLOT_WAYS_NO_TABLES 1                       /* slot_ways_init: too wide, or entries past 32 bits */

/* The largest line pay (bets per way) of one spin of these strips, or -1 if it could pass INT64_MAX:
 * per candidate, its best pay(S, n) x the product of the largest counts of reels 1..n. */
int64_t slot_ways_most(const kern_slot_ways *w, const kern_slot_reelset *rs);

/* The progressive's run shown: reels 1 .. prog_count each show a cell continuing it (its symbol, or a
 * wild for it if its wilds count). */
static inline int slot_ways_prog_shown(const kern_slot_ways *w, uint32_t rows, const uint8_t *const *cols)
{
    if (!w->prog_count) {
        return 0;
    }
    for (uint32_t r = 0; r < w->prog_count; r++) {
        uint8_t any = 0;
        for (uint32_t h = 0; h < rows; h++) {
            any |= w->prog_match[cols[r][h]];
        }
        if (!any) {
            return 0;
        }
    }
    return 1;
}

/* The cells reader: total line pay (bets per way) of the window cols[r][h]; *prog |= progressive shown. */
static inline uint64_t slot_ways_cells_pay(const kern_slot_ways *w, uint32_t reels, uint32_t rows,
                                           const uint8_t *const *cols, int *prog)
{
    uint64_t total = 0;
    const uint32_t nsym = w->n_symbols;
    for (uint32_t k = 0; k < w->n_cand; k++) {
        const uint32_t *weight = w->weight + (size_t)k * nsym, *wild = w->wild + (size_t)k * nsym;
        uint32_t n = 0; /* the run */
        while (n < reels) {
            uint32_t any = 0;
            for (uint32_t h = 0; h < rows; h++) {
                any |= weight[cols[n][h]];
            }
            if (!any) {
                break;
            }
            n++;
        }
        const uint32_t paid = w->paid[(size_t)k * (reels + 1) + n];
        if (!paid) {
            continue;
        }
        /* the sums of ways_rule.py over reels 1 .. paid: all ways (n, q, z) and wild-only ones */
        uint64_t all = 1, q = 0, z = 1, wall = 1, wq = 0, wz = 1;
        for (uint32_t r = 0; r < paid; r++) {
            uint64_t c = 0, a = 0, zc = 0, cw = 0, aw = 0, zw = 0;
            for (uint32_t h = 0; h < rows; h++) {
                uint8_t x = cols[r][h];
                c += weight[x];
                cw += wild[x];
                if (w->additive) {
                    uint64_t b = weight[x] ? w->bonus[x] : 0;
                    a += b;
                    zc += weight[x] && !b;
                    aw += wild[x] ? b : 0;
                    zw += wild[x] && !b;
                }
            }
            q = q * c + all * a;
            wq = wq * cw + wall * aw;
            z *= zc;
            wz *= zw;
            all *= c;
            wall *= cw;
        }
        uint64_t ways = w->additive ? q + z - wq - wz : all - wall;
        total += (uint64_t)w->pay[(size_t)k * (reels + 1) + paid] * ways;
    }
    *prog |= slot_ways_prog_shown(w, rows, cols);
    return total;
}

/* The tables reader's tables (slot_ways.c builds them from a kern_slot_ways and a reel set). */
typedef struct {
    uint32_t reels;
    uint32_t half;               /* lanes j < half count matching ways (paid), lanes half .. lanes - 1
                                    ways of wilds only (taken off); half a multiple of SLOT_WAYS_LANES */
    uint32_t lanes;              /* a multiple of SLOT_WAYS_LANES; unused lanes are all 0 */
    uint32_t b_lane[4];          /* unused lanes holding a start pair's B (2 in 32 bits, 4 in 16) */
    uint32_t n_unused;           /* how many of b_lane there are (up to 4) */
    uint32_t first;              /* the first reel stepped: 2 after the start pair, else 0 */
    uint32_t end;                /* reels first .. end - 1 are stepped; then the end pair (end == reels - 2)
                                    or the pays of runs over every reel (end == reels) */
    uint32_t len[64];            /* stops of reel r */
    const uint32_t *factor[64];  /* [stop * lanes + j]: what lane j's product is multiplied by on reel r */
    const uint32_t *broke[64];   /* [stop * lanes + j]: lane j's pay (per way) if the run breaks on reel r */
    const uint32_t *full;        /* [j]: lane j's pay (per way) of a run over every reel */
    const uint64_t *start_pay;   /* [s0 * len[1] + s1]: B after reels 1, 2 (modulo 2^64); NULL: in start_ways */
    const uint32_t *start_ways;  /* [(s0 * len[1] + s1) * lanes + j]: Q_2 (and B in lanes b_lane[0, 1], low
                                    32 bits first, when start_pay is NULL); NULL: no start pair */
    const uint32_t *end_value;   /* [(s * len[reels - 1] + s') * lanes + j]: F; NULL: no end pair */
    const uint16_t *start16;     /* the pair tables in 16 bits, when every entry fits (B then in lanes */
    const uint16_t *end16;       /* b_lane[0 .. 3], low 16 bits first); NULL: the 32-bit ones */
    uint32_t narrow;             /* 1: every spin pays below 2^32 (slot_ways_most), so the walk may run
                                    modulo 2^32, in 32-bit lanes */
    void *blocks[142];           /* what was allocated */
    uint32_t n_blocks;
} slot_ways;

/* RNG_OK, SLOT_WAYS_NO_TABLES (use the cells reader) or RNG_E_MEMORY. */
int slot_ways_init(slot_ways *t, const kern_slot_ways *w, const kern_slot_reelset *rs);
void slot_ways_free(slot_ways *t);

/* A hint: fetch into the cache the start and end pair entries of a spin with these stops. */
static inline void slot_ways_prefetch(const slot_ways *t, const uint32_t *stops)
{
    if (t->start_ways) {
        size_t at = (size_t)stops[0] * t->len[1] + stops[1];
        __builtin_prefetch(t->start16 ? (const void *)(t->start16 + at * t->lanes)
                                      : (const void *)(t->start_ways + at * t->lanes));
        if (t->start_pay) {
            __builtin_prefetch(t->start_pay + at);
        }
    }
    if (t->end_value) {
        size_t at = ((size_t)stops[t->reels - 2] * t->len[t->reels - 1] + stops[t->reels - 1]) * t->lanes;
        __builtin_prefetch(t->end16 ? (const void *)(t->end16 + at) : (const void *)(t->end_value + at));
    }
}

/* Total line pay (bets per way) of a spin with these stops; the progressive is not read here. */
typedef uint64_t (*slot_ways_pay_fn)(const slot_ways *t, const uint32_t *stops);
/* The pay function of code path impl (KERN_SLOT_IMPL_*; one this CPU has). */
slot_ways_pay_fn slot_ways_pay_for(int impl);

#endif
