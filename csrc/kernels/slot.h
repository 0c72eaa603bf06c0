/*
 * slot.h -- slot-machine kernels: the exact joint enumeration of a stage's
 * full cycle, and spins played through an rng_source.
 *
 * The game arrives as tables built in Python (harness/slot/native.py):
 *
 *   reel set   for each reel r, the column each stop shows
 *              window[(stop_off[r] + s) * rows + h] (h = 0 is the top row)
 *              and its scatter cell scat[stop_off[r] + s] (the count of the
 *              one scatter symbol; with several, their joint counts as one
 *              mixed-radix number, harness/slot/model.py ScatterCode, so the
 *              cell of a window is the sum of its columns' cells and every
 *              "scatter count" below is such a cell);
 *   lines      each payline's row on each reel, line_rows[l * reels + r];
 *   automaton  the payline automaton of harness/slot/lines.py: delta[state *
 *              n_symbols + x] is the next state after symbol x, state 0 the
 *              start; a done state has its final pay (a multiple of the bet
 *              per line), paid class (-1 none) and progressive flag.
 *
 * Both kernels read paylines through the same automaton, so the rule for
 * paying a line lives in one place (Python builds it; C only walks it).
 *
 * Exact joint figures (kern_slot_joint): the dynamic programme over reels of
 * harness/slot/joint.py (its docstring explains the states, the grouping of
 * stops and why every stop combination is counted exactly once).  Counts and
 * first moments are 64-bit, second moments 128-bit.
 *
 * Simulation (kern_slot_simulate): each reel's stop is drawn with
 * rng_bounded32(src, L_r) -- Lemire's unbiased bounded integer -- reels in
 * order 1..R, one draw per reel, then the free spins (same rule, feature
 * strips) until none remain.  When every strip has the same length the
 * values come from rng_bounded_max32_batch, which yields exactly the values
 * of those successive calls with the words fetched in bulk (kern_slot_draws).
 * A reel set with height_draws (reel heights per spin) draws each reel's
 * height first, rng_bounded32(src, height_draws[r]), then its stop,
 * rng_bounded32(src, W_r), reel by reel, on the paid spin and on every free
 * spin: the draws of a round's play (harness/slot/spin.py), one for one.
 * No modulo or float scaling picks a stop.
 *
 * A payline game's spin is paid line by line through the automaton (a
 * prefix table for the first reels, lines with the same first rows sharing
 * it).  A ways game is not read through the automaton: each paying symbol
 * is paid its run from the left times the product of each reel's count of
 * it (the product rule of slot_ways.h, kern_slot_ways below), read either
 * cell by cell from the window or through tables of every reel stop's
 * counts with reels 1-2 and the last two as pairs of stops (the fastest,
 * with its AVX2 and AVX-512 code paths).  Their tables are built once per simulation
 * (kern_slot_prepare), not once per call.
 *
 * Sticky wilds (harness/slot/sticky.py): in a free-spins session every
 * position where the sticky wild lands shows it for the rest of the
 * session, over whatever the stop shows there (a scatter under it does not
 * count); the session starts with none.  Such a feature is read from the
 * window with the wilds laid over it (line by line, or cell by cell for
 * ways).
 *
 * Money in the simulation is int64 credits and never wraps: before playing,
 * the largest win of one spin of each stage (every line at the top pay,
 * the top scatter award, the feature multiplier) must fit in int64, and
 * every sum after that (a feature's win over its spins, a play's win, the
 * tally's totals and 128-bit sum of squares) is computed with
 * __builtin_add_overflow; anything that would pass INT64_MAX (2^128 for the
 * sum of squares) stops the run with RNG_E_ARGUMENT and
 * tally->refused = KERN_SLOT_REFUSED_OVERFLOW.
 */
#ifndef KERN_SLOT_H
#define KERN_SLOT_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"
#include "bounded.h"

/* cffi:begin */
#define KERN_SLOT_MAX_CLASSES 256

typedef struct kern_slot_reelset {
    uint32_t reels;
    uint32_t rows;
    const uint32_t *strip_len;   /* [reels] stops on each reel */
    const uint32_t *stop_off;    /* [reels] first stop of reel r in window/scat */
    const uint8_t *window;       /* [(stop_off[r] + s) * rows + h] symbol shown */
    const uint16_t *scat;        /* [stop_off[r] + s] scatter cell of that column */
    const uint32_t *height_draws; /* NULL, or [reels] (reel heights per spin): the bound of reel r's
                                     height draw, made before its stop; with W = strip_len[r] /
                                     height_draws[r], height draw j and stop draw s show virtual stop
                                     j * W + s (harness/slot/heights.py, reelset) */
} kern_slot_reelset;

typedef struct kern_slot_lines {
    uint32_t n_lines;
    uint32_t n_symbols;
    uint32_t n_states;
    const uint8_t *line_rows;    /* [n_lines * reels] row (0-based) of line l on reel r */
    const int32_t *delta;        /* [n_states * n_symbols] */
    const uint8_t *done;         /* [n_states] */
    const int64_t *pay;          /* [n_states] */
    const int16_t *cls;          /* [n_states] */
    const uint8_t *prog;         /* [n_states] */
} kern_slot_lines;

/* Stops of reel r grouped for the alive lines' row set `mask`: groups
 * group_off[r * n_masks + mask] .. group_off[r * n_masks + mask + 1] - 1,
 * each a representative stop, its column's scatter count and its size. */
typedef struct kern_slot_groups {
    uint32_t n_masks;            /* 2^rows */
    const uint32_t *group_off;   /* [reels * n_masks + 1] */
    const uint32_t *rep;
    const uint16_t *scat;
    const uint64_t *count;
    const uint64_t *suffix;      /* [(reels + 1) * (max_scatter + 1)]: combinations of
                                    reels r.. showing k scatters; row `reels` is [1, 0, ...] */
    uint32_t max_scatter;        /* largest scatter cell of a window (reels * rows for one scatter) */
} kern_slot_groups;

/* Paylines grouped by their remaining rows (harness/slot/joint.py,
 * LineSuffixes): suffix i of depth r (ids off[r] .. off[r + 1] - 1) has row
 * row[off[r] + i] on reel r and id next[off[r] + i] at depth r + 1.  The
 * start configuration: n_start suffixes of depth 0, each shared by
 * start_mult lines, all in automaton state 0. */
typedef struct kern_slot_suffixes {
    const uint32_t *off;          /* [reels + 1] */
    const uint8_t *row;
    const uint32_t *next;
    uint32_t n_start;
    const uint32_t *start_sid;
    const uint32_t *start_mult;
} kern_slot_suffixes;

/* Results of kern_slot_joint, in caller-owned arrays; k = scatters (0 ..
 * max_scatter), p = progressive shown (0/1), index k * 2 + p. */
typedef struct kern_slot_moments {
    uint64_t *count;          /* [(max_scatter + 1) * 2] stop combinations */
    uint64_t *line_sum;       /* [(max_scatter + 1) * 2] sum of total line pay */
    uint64_t *line_sq_lo;     /* [(max_scatter + 1) * 2] sum of its square, low 64 bits */
    uint64_t *line_sq_hi;     /*                                            high 64 bits */
    uint64_t *no_line_win;    /* [max_scatter + 1] no line paid, no progressive */
    uint64_t *class_scatter;  /* [n_classes * (max_scatter + 1)] class c paid on some line */
    uint64_t configurations;  /* distinct configurations expanded (diagnostic) */
} kern_slot_moments;

/* The memoised dynamic programme of harness/slot/joint.py over the full
 * cycle.  The caller guarantees cycle * (largest total line pay) < 2^63.
 * RNG_E_ARGUMENT for inconsistent tables (more than KERN_SLOT_MAX_CLASSES
 * classes, rows > 8, a start state that is already final), RNG_E_MEMORY if
 * allocation fails. */
int kern_slot_joint(const kern_slot_reelset *reels, const kern_slot_lines *lines,
                    const kern_slot_groups *groups, const kern_slot_suffixes *suffixes,
                    uint32_t n_classes, kern_slot_moments *out);

/* Pre-drawn stops for games whose strips all have `bound` stops: the values
 * of successive rng_bounded32(src, bound) calls, fetched in bulk.  Keep it
 * across calls (pos/len persist) so a run split into chunks draws exactly
 * the stops of one long run; values left over at the end are discarded. */
#define KERN_SLOT_DRAW_BUF 4096
typedef struct kern_slot_draws {
    uint32_t bound;
    uint32_t pos;
    uint32_t len;
    uint32_t buf[4096];
} kern_slot_draws;

/* A ways game's pays by the ways rule (slot_ways.h; harness/slot/ways_rule.py states it): each
 * paying symbol is a candidate with what a cell showing symbol x adds to its counts on a reel, the
 * count paid for each run length and the pay of each count. */
typedef struct kern_slot_ways {
    uint32_t n_cand;             /* paying symbols */
    uint32_t n_symbols;
    uint32_t additive;           /* 1: wild multipliers add (bonus below); 0: they multiply */
    const uint32_t *weight;      /* [n_cand * n_symbols]: 0 if x does not match, else x's multiplier
                                    (multiply) or 1 (add) */
    const uint32_t *wild;        /* [n_cand * n_symbols]: the same for the matching wilds only */
    const uint32_t *bonus;       /* [n_symbols] (add): x's multiplier if above 1, else 0 */
    const uint8_t *paid;         /* [n_cand * (reels + 1)]: the count paid for a run of n reels (0: none) */
    const int64_t *pay;          /* [n_cand * (reels + 1)]: the pay of count k (bets per way; 0 unlisted) */
    const uint8_t *prog_match;   /* [n_symbols]: 1 if x continues the progressive's run */
    uint32_t prog_count;         /* reels of the progressive's run; 0: no progressive */
} kern_slot_ways;

/* How a ways game is read: the fastest reader that applies (the tables, on the code path
 * kern_slot_get_impl names; the cells reader when the tables would be too
 * large), or cell by cell from the window (the reference and benchmark baseline).  A payline game
 * is always read line by line. */
#define KERN_SLOT_READER_FASTEST 0
#define KERN_SLOT_READER_CELLS 1

/* Which reader paid the base game's lines (kern_slot_tally.path_reader). */
#define KERN_SLOT_PAID_LINES 0
#define KERN_SLOT_PAID_CELLS 1
#define KERN_SLOT_PAID_TABLES 2

typedef struct kern_slot_readers kern_slot_readers; /* opaque: slot.c */

typedef struct kern_slot_game {
    kern_slot_reelset base;
    kern_slot_lines base_lines;       /* automaton with the progressive (a payline game) */
    kern_slot_reelset feature;
    kern_slot_lines feature_lines;    /* automaton without the progressive */
    uint32_t ways;                    /* 1: a ways game, paid by base_ways / feature_ways (lines unused) */
    kern_slot_ways base_ways;         /* with the progressive */
    kern_slot_ways feature_ways;      /* without */
    uint32_t max_scatter;            /* largest scatter cell of a window; tables below have max_scatter + 1 */
    const int64_t *scatter_pay;      /* [max_scatter + 1] multiple of the total bet */
    const uint32_t *trigger_spins;   /* [max_scatter + 1] free spins awarded in the base game */
    const uint32_t *retrigger_spins; /* [max_scatter + 1] free spins awarded during free spins */
    int64_t bet_per_line;
    int64_t total_bet;
    int64_t multiplier;
    int64_t progressive_reset;       /* credits paid at a hit besides the meter's increments */
    const int64_t *jackpot_reset;    /* [max_scatter + 1]: the reset (credits) of the jackpot level the base
                                        game's window cell wins, -1 for none; NULL: no jackpot levels */
    uint32_t sticky;                 /* 1 + the symbol that sticks where it lands in free spins, 0 none */
    const uint16_t *symbol_cell;     /* [n_symbols]: the scatter cell one cell showing symbol x adds (the
                                        window of a sticky free spin is counted cell by cell) */
    uint64_t max_free_spins;         /* refuse a feature longer than this (runaway guard) */
    kern_slot_draws *draws;           /* NULL: one rng_bounded32 call per stop */
    uint32_t reader;                 /* KERN_SLOT_READER_*: how a ways game is read (same result) */
    kern_slot_readers *readers;      /* kern_slot_prepare's tables; NULL: built for each call */
} kern_slot_game;

/* Build the game's readers (their tables) once, for every kern_slot_simulate call on it until
 * kern_slot_release; the game's tables must not change in between.  RNG_E_ARGUMENT for
 * inconsistent tables, RNG_E_MEMORY.  Calling it again first releases what it built. */
int kern_slot_prepare(kern_slot_game *game);
void kern_slot_release(kern_slot_game *game);

/* Why kern_slot_simulate returned RNG_E_ARGUMENT (tally->refused). */
#define KERN_SLOT_REFUSED_NONE 0
#define KERN_SLOT_REFUSED_TABLES 1     /* inconsistent tables */
#define KERN_SLOT_REFUSED_RUNAWAY 2    /* a feature ran past max_free_spins */
#define KERN_SLOT_REFUSED_OVERFLOW 3   /* a win or a total would pass INT64_MAX */

/* Running totals over simulated plays (credits).  A play's win is its line
 * and scatter wins, its free spins' wins and the progressive's or jackpot
 * level's reset at a hit; the meter increments are added in Python (a fixed
 * share of every bet). */
typedef struct kern_slot_tally {
    uint64_t plays;
    uint64_t hits;               /* plays with a win, a feature or a progressive hit */
    uint64_t line_win;           /* base game line wins */
    uint64_t scatter_win;        /* base game scatter wins */
    uint64_t feature_win;        /* everything won in free spins */
    uint64_t features;           /* plays that triggered free spins */
    uint64_t free_spins;         /* free spins played */
    uint64_t progressive_hits;
    uint64_t jackpot_hits;       /* plays that won a jackpot level (harness/slot/jackpot.py) */
    uint64_t jackpot_win;        /* the resets of the levels won (their increments: in Python) */
    uint64_t win_sq_lo;          /* sum of (play win)^2 as a 128-bit number */
    uint64_t win_sq_hi;
    uint64_t max_win;
    uint32_t refused;            /* KERN_SLOT_REFUSED_*: set with RNG_E_ARGUMENT */
    uint32_t path_reader;        /* KERN_SLOT_PAID_*: the reader that paid the base game's lines */
} kern_slot_tally;

/* Play n spins and add them to *tally.  Returns the source's status, or
 * RNG_E_ARGUMENT for bad tables, a feature exceeding max_free_spins or a
 * sum that would overflow (tally->refused says which; the totals are then
 * partial and must be discarded), RNG_E_MEMORY if allocation fails. */
int kern_slot_simulate(rng_source *src, const kern_slot_game *game, uint64_t n, kern_slot_tally *tally);

/* n plays of reel stops as the simulation draws a spin's: play by play,
 * reel 1 first, stop of reel r = rng_bounded32(src, bound[r]) (a virtual
 * stop when the reel is weighted), out[i * reels + r].  Returns the
 * source's status (RNG_E_ARGUMENT for a bound of 0). */
int kern_slot_stops(rng_source *src, uint32_t reels, const uint32_t *bound, uint64_t n, uint32_t *out);
/* cffi:end */

_Static_assert(sizeof(((kern_slot_draws *)0)->buf) == KERN_SLOT_DRAW_BUF * sizeof(uint32_t), "draw buffer size");

#endif
