/*
 * runs.h -- the run lengths of the runs up and runs up and down tests (stats/runs.py).
 *
 * One pass over a chunk of continuous values, the state of the stream (the
 * last value, the direction of the last step, the length of the run in
 * progress) carried from chunk to chunk in a stat_runs_state.  Runs up are
 * maximal ascending stretches of the values (a new run starts at every
 * value below the one before it); runs up and down are maximal stretches of
 * equal signs of the steps u[i + 1] > u[i].  A run is counted when the next
 * one starts: counts[min(length, classes)] += 1; the run in progress stays
 * in `current`.  Only comparisons and integer counts, with no temporary
 * array (numpy's version made five as long as the chunk);
 * tests/test_stats_runs.py checks the counts against the definition read
 * one value at a time.
 */
#ifndef STAT_RUNS_H
#define STAT_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "sp800_22.h"

/* cffi:begin */
#define STAT_RUNS_MAX_CLASSES 64

typedef struct {
    double last;       /* the last value seen (when has_last) */
    int64_t current;   /* values (runs up) or steps (up and down) of the run in progress */
    int has_last;      /* a value has been seen */
    int sign;          /* up and down: 1 when the last step went up, 0 down, -1 before the first step */
} stat_runs_state;

/* Take in u[0 .. n - 1]: runs up when `up` is nonzero, else runs up and down.  counts has
 * classes + 1 entries (entry 0 stays untouched).  STAT_E_ARGUMENT on classes outside
 * 1..STAT_RUNS_MAX_CLASSES or NULL pointers with n > 0; else STAT_OK. */
int stat_runs_count(int up, const double *u, size_t n, stat_runs_state *state, int64_t *counts, int classes);
/* cffi:end */

#endif
