/*
 * slot_dense.h -- the ways reader with its paths as a dense vector: a
 * spin's total line pay when the lines are every row path of the window,
 * in a fixed number of steps with no branch on what the reels show.
 *
 * It is the path reader of slot_ways.h in another form.  There the paths
 * alive after reel r are a list of (automaton state, number of paths)
 * pairs, as long as the spin makes it, so the walk's loops end where the
 * symbols say and the processor mispredicts them.  Here they are a vector
 * f_r over every alive state of depth r (width[r] of them, 10 or 15 for a
 * 243-ways game; 0 paths for most), and each reel is the same work on every
 * spin:
 *
 *   pay   += f_r . value_r[stop]        what the paths finishing on reel r pay
 *   f_r+1  = f_r x step_r[stop]         step_r[stop][q][q'] rows from q to q'
 *
 * with two tables read as pairs of reels: reels 1 and 2 (the start: the
 * pay of the paths done on them and f_2, per pair of stops) and, when
 * small enough, the last two (the end: for each state of depth R - 2, the
 * pay of one path from it over both, per pair of stops), so a 5-reel game
 * is a table entry, one step and one dot product.  The tables are built
 * from slot_ways' (the rule is still the payline automaton's), once per
 * simulation (kern_slot_prepare).
 *
 * A value holds pay << shift | progressive, its low `shift` bits counting
 * the paths that showed the progressive combination (at most 2 n_lines over
 * a spin, below 2^shift), so one sum carries both; the pays fit with those
 * bits (checked when built).  Vectors are padded with zero states to a
 * multiple of SLOT_DENSE_LANES.
 *
 * Code paths (kern_slot_set_impl): the portable C loops and AVX-512
 * intrinsics (a padded vector of 16 states is one register); all integer
 * arithmetic, so both give the same totals (tests/test_slot_simulate.py
 * checks them spin for spin).  The portable walk is slower than the path
 * list of slot_ways.h (0.7 times; so was the same source compiled for
 * AVX2), so the simulation uses this reader only on the AVX-512 path
 * unless told to (KERN_SLOT_READER_DENSE).  RNGCERT_FORCE_PORTABLE=1
 * selects the portable path (csrc/core/dispatch.h).
 *
 * What the walk waits for is memory: the start and end pair entries of
 * random stops (the end table is 640 KB for 100-stop reels), so the
 * simulation prefetches them two spins ahead from its pre-drawn stops
 * (slot_dense_prefetch).
 */
#ifndef KERN_SLOT_DENSE_H
#define KERN_SLOT_DENSE_H

#include <stddef.h>
#include <stdint.h>
#include "slot.h"
#include "slot_ways.h"

/* cffi:begin */
/* Code paths of the dense ways reader (RNGCERT_FORCE_PORTABLE=1 selects 0). */
#define KERN_SLOT_IMPL_PORTABLE 0
#define KERN_SLOT_IMPL_AVX512 1

/* The path in use (chosen at first use: the fastest this CPU has). */
int kern_slot_get_impl(void);
/* Selects a path; RNG_E_ARGUMENT if unknown or this CPU lacks it. */
int kern_slot_set_impl(int impl);
/* 1 if this CPU (and build) has path impl. */
int kern_slot_cpu_has(int impl);
/* cffi:end */

#define SLOT_DENSE_LANES 16u                        /* vectors padded to a multiple of this */
#define SLOT_DENSE_MAX_STRIDE 64u                   /* alive states of one depth, padded, at most */
#define SLOT_DENSE_MAX_BYTES ((size_t)24 << 20)     /* every table, at most */
#define SLOT_DENSE_MAX_END_BYTES ((size_t)4 << 20)  /* the end pair: else the last reel alone */
#define SLOT_DENSE_NOT_DENSE 1                      /* slot_dense_init: too wide or too large */

typedef struct {
    uint32_t reels;
    uint32_t first;               /* the first reel stepped: 2 after the start pair, else 0 (f_0 = start state) */
    uint32_t end;                 /* reels first .. end - 1 are stepped; then the end pair (end == reels - 2)
                                     or the last reel's values (end == reels - 1) */
    uint32_t shift;
    uint32_t stride[64];          /* padded width of depth r */
    uint32_t width[64];           /* alive states of depth r */
    uint32_t len[64];             /* stops of reel r */
    const int64_t *start_value;   /* [s0 * len[1] + s1] */
    const uint8_t *start_front;   /* [(s0 * len[1] + s1) * stride[2] + q]: paths in state q of depth 2 */
    const int64_t *value[64];     /* [stop * stride[r] + q] for a stepped reel, and the last without end pair */
    const uint8_t *step[64];      /* [(stop * width[r] + q) * stride[r + 1] + q'] for a stepped reel */
    const uint32_t *end_value;    /* [(s * len[reels - 1] + s') * stride[reels - 2] + q]; NULL: no end pair
                                     (32 bits: half the cache of 64; no end pair if an entry needs more) */
    void *blocks[132];            /* what was allocated */
    uint32_t n_blocks;
} slot_dense;

/* RNG_OK, SLOT_DENSE_NOT_DENSE (use the path reader) or RNG_E_MEMORY.
 * `w` is the path reader slot_ways_init built from the same strips and automaton. */
int slot_dense_init(slot_dense *d, const slot_ways *w, const kern_slot_reelset *rs, const kern_slot_lines *ln);
void slot_dense_free(slot_dense *d);

/* A hint: fetch into the cache the start and end pair entries of a spin with these stops. */
static inline void slot_dense_prefetch(const slot_dense *d, const uint32_t *stops)
{
    if (d->first) {
        size_t at = (size_t)stops[0] * d->len[1] + stops[1];
        __builtin_prefetch(d->start_front + at * d->stride[2]);
        __builtin_prefetch(d->start_value + at);
    }
    if (d->end_value) {
        size_t at = (size_t)stops[d->reels - 2] * d->len[d->reels - 1] + stops[d->reels - 1];
        __builtin_prefetch(d->end_value + at * d->stride[d->reels - 2]);
    }
}

/* Total line pay of a spin with these stops (a multiple of the bet per line); *prog |= progressive shown. */
typedef int64_t (*slot_dense_pay_fn)(const slot_dense *d, const uint32_t *stops, int *prog);
/* The pay function of code path impl (KERN_SLOT_IMPL_*; one this CPU has). */
slot_dense_pay_fn slot_dense_pay_for(int impl);

#endif
