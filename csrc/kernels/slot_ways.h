/*
 * slot_ways.h -- the simulation's reader for a ways game: a spin's total
 * line pay when the lines are every row path of the window, each once.
 *
 * The rule stays the payline automaton's (harness/slot/lines.py): every
 * path is read through it exactly as a payline would be.  What changes is
 * the order of the work.  A path's automaton state after reel r depends on
 * its rows so far only through that state, so the paths are carried reel by
 * reel as (state, number of paths) pairs, and everything that depends on
 * one reel's stop alone is tabled before the first spin:
 *
 *   value[r][stop][q]  for an alive state q of depth r (its paths have
 *                      read reels 1..r) and the stop of reel r + 1: the pay
 *                      of the rows that finish q's paths (done states; a
 *                      path done after reel r + 1 stands for
 *                      rows^(reels - r - 1) lines, all paid its pay) times 2,
 *                      plus 1 if one shows the progressive;
 *   next[r][stop][q]   its `rows` slots: the distinct alive next states,
 *                      each with the number of rows leading to it (0: an
 *                      unused slot).
 *
 * With 3 reels or more, reels 1 and 2 are also tabled together, per pair
 * of stops (pair_value / pair_next below): one entry gives the paths alive
 * after two reels, by state.
 *
 * A spin is then a walk of table entries: one per (alive state, reel)
 * pair its paths reach, with no symbol compared and no branch on the
 * symbols.  The total is the same sum as reading every line (integers, in
 * another order), which tests/test_slot_simulate.py checks against the
 * line-by-line reader and pinned totals.  (Carrying the automaton's own
 * transitions instead, three lookups per pair and reel, measured slower.)
 *
 * A state must have one depth (the automaton counts reels read, so it
 * does); tables beyond SLOT_WAYS_MAX_ENTRIES entries, or a pay whose double
 * could pass INT64_MAX, are not built and the line-by-line reader is used
 * instead.
 */
#ifndef KERN_SLOT_WAYS_H
#define KERN_SLOT_WAYS_H

#include <stddef.h>
#include <stdint.h>
#include "slot.h"

#define SLOT_WAYS_MAX_ENTRIES (1u << 20) /* (stop, state) pairs tabled, at most */
#define SLOT_WAYS_NOT_WAYS 1             /* slot_ways_init: not every path once (or too large) */

typedef struct {
    uint32_t reels;
    uint32_t rows;
    const int64_t *value[64];    /* [reel] -> [stop * width + dense state]: pay * 2 + progressive */
    const uint32_t *next[64];    /* [reel] -> [(stop * width + dense state) * rows + h]: the h-th
                                    distinct alive next state << 8 | rows leading to it (0: none) */
    uint32_t width[64];          /* alive states of depth r */
    int64_t *values;             /* every reel's entries */
    uint32_t *nexts;
    uint32_t *cur_q, *nxt_q;     /* [max_front + rows] the walk's frontier */
    uint64_t *cur_w, *nxt_w;
    size_t max_front;
    /* Reels 1 and 2 at once (3 reels or more, when small enough): for the stops (s0, s1), at
       s0 * strip_len[1] + s1, the pay of the paths done on them (value, as above) and rows^2
       slots of the distinct alive states of depth 2 they reach, with their numbers of paths. */
    const int64_t *pair_value;   /* NULL: no pair table */
    const uint32_t *pair_next;
    uint32_t pair_len1;          /* stops of reel 2 */
    int64_t *pair_values;
    uint32_t *pair_nexts;
} slot_ways;

#define SLOT_WAYS_MAX_PAIR_BYTES ((size_t)8 << 20) /* the pair table is built up to this size */

/* RNG_OK, SLOT_WAYS_NOT_WAYS (use the line reader), or RNG_E_MEMORY. */
int slot_ways_init(slot_ways *w, const kern_slot_reelset *rs, const kern_slot_lines *ln);
void slot_ways_free(slot_ways *w);

/* Total line pay of a spin with these stops; *prog |= progressive shown.
 * Each entry has `rows` next slots, unused ones 0: every slot is written
 * and the frontier advances by (rows leading there != 0), so the only
 * branches are the loop bounds.  The first reel starts from the one start
 * state and the last has no next states (every path is done), so both
 * skip the frontier's memory. */
static inline __attribute__((always_inline)) size_t slot_ways_step(const slot_ways *w, uint32_t r, uint32_t stop,
                                                                   const uint32_t *cq, const uint64_t *cw, size_t nc,
                                                                   uint32_t *nq, uint64_t *nw, int64_t *total,
                                                                   int64_t *p, const uint32_t rows)
{
    size_t at = (size_t)stop * w->width[r];
    const int64_t *value = w->value[r] + at;
    const uint32_t *next = w->next[r] + at * rows;
    size_t nn = 0;
    for (size_t i = 0; i < nc; i++) {
        uint32_t q = cq[i];
        uint64_t paths = cw[i];
        int64_t v = value[q];
        *total += (v >> 1) * (int64_t)paths;
        *p |= v;
        const uint32_t *x = next + (size_t)q * rows;
        for (uint32_t h = 0; h < rows; h++) {
            uint32_t mult = x[h] & 0xFFu;
            nq[nn] = x[h] >> 8;
            nw[nn] = paths * mult;
            nn += mult != 0;
        }
    }
    return nn;
}

static inline __attribute__((always_inline)) int64_t slot_ways_walk(const slot_ways *w, const uint32_t *stops,
                                                                    int *prog, const uint32_t rows)
{
    uint32_t *cq = w->cur_q, *nq = w->nxt_q;
    uint64_t *cw = w->cur_w, *nw = w->nxt_w;
    const uint32_t last = w->reels - 1;
    int64_t total = 0, p = 0;
    static const uint64_t one = 1;
    static const uint32_t start = 0;
    size_t nc;
    uint32_t r = 1;
    if (w->pair_value) { /* reels 1 and 2 in one entry */
        size_t at = (size_t)stops[0] * w->pair_len1 + stops[1];
        int64_t v = w->pair_value[at];
        total += v >> 1;
        p |= v;
        const uint32_t *x = w->pair_next + at * rows * rows;
        nc = 0;
        for (uint32_t k = 0; k < rows * rows; k++) {
            uint32_t mult = x[k] & 0xFFu;
            cq[nc] = x[k] >> 8;
            cw[nc] = mult;
            nc += mult != 0;
        }
        r = 2;
    } else {
        nc = last ? slot_ways_step(w, 0, stops[0], &start, &one, 1, cq, cw, &total, &p, rows) : 1;
        if (!last) {
            cq[0] = 0;
            cw[0] = 1;
        }
    }
    for (; r < last && nc; r++) {
        nc = slot_ways_step(w, r, stops[r], cq, cw, nc, nq, nw, &total, &p, rows);
        uint32_t *tq = cq;
        cq = nq;
        nq = tq;
        uint64_t *tw = cw;
        cw = nw;
        nw = tw;
    }
    const int64_t *value = w->value[last] + (size_t)stops[last] * w->width[last];
    for (size_t i = 0; i < nc; i++) { /* the last reel: pays only */
        int64_t v = value[cq[i]];
        total += (v >> 1) * (int64_t)cw[i];
        p |= v;
    }
    *prog |= (int)(p & 1);
    return total;
}

/* The walk with the usual window heights as constants (the row loop unrolled). */
static inline int64_t slot_ways_pay(const slot_ways *w, const uint32_t *stops, int *prog)
{
    switch (w->rows) {
    case 3:
        return slot_ways_walk(w, stops, prog, 3);
    case 4:
        return slot_ways_walk(w, stops, prog, 4);
    default:
        return slot_ways_walk(w, stops, prog, w->rows);
    }
}

#endif
