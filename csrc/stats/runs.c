/* runs.c -- run lengths of the runs tests (see runs.h). */
#include "runs.h"

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
    /* Branch-free: whether a run ends at a value is a coin toss for random data, so a branch on it
     * would be mispredicted half the time; the run that ends is counted at local[min(current,
     * classes)], and a run of length 0 (none) lands in local[0], which is not counted. */
    int64_t local[STAT_RUNS_MAX_CLASSES + 1] = {0};
    double last = state->last;
    int64_t current = state->current;
    int sign = state->sign;
    for (; i < n; i++) {
        double v = u[i];
        int s = v > last;
        int64_t ends = up ? v < last : (sign >= 0 && s != sign);
        local[current < classes ? current : classes] += ends;
        current = ends ? 1 : current + 1;
        sign = s;
        last = v;
    }
    for (int c = 1; c <= classes; c++) {
        counts[c] += local[c];
    }
    if (!up) {
        state->sign = sign;
    }
    state->last = last;
    state->current = current;
    return STAT_OK;
}
