/* runs.c -- run lengths of the runs tests (see runs.h). */
#include "runs.h"

static inline void close_run(int64_t length, int64_t *counts, int classes)
{
    if (length > 0) {
        counts[length < classes ? length : classes]++;
    }
}

int stat_runs_count(int up, const double *u, size_t n, stat_runs_state *state, int64_t *counts, int classes)
{
    if (state == NULL || counts == NULL || classes < 1 || classes > STAT_RUNS_MAX_CLASSES) {
        return STAT_E_ARGUMENT;
    }
    if (n == 0) {
        return STAT_OK;
    }
    if (u == NULL) {
        return STAT_E_ARGUMENT;
    }
    size_t i = 0;
    if (!state->has_last) {  /* the stream's first value opens the first run up (and no step yet) */
        state->has_last = 1;
        state->last = u[0];
        if (up) {
            state->current += 1;
        }
        i = 1;
    }
    double last = state->last;
    int64_t current = state->current;
    if (up) {
        for (; i < n; i++) {
            double v = u[i];
            if (v < last) {
                close_run(current, counts, classes);
                current = 1;
            } else {
                current += 1;
            }
            last = v;
        }
    } else {
        int sign = state->sign;
        for (; i < n; i++) {
            double v = u[i];
            int s = v > last;
            if (sign >= 0 && s != sign) {
                close_run(current, counts, classes);
                current = 1;
            } else {
                current += 1;
            }
            sign = s;
            last = v;
        }
        state->sign = sign;
    }
    state->last = last;
    state->current = current;
    return STAT_OK;
}
