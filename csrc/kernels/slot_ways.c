/* slot_ways.c -- the ways reader's tables (see slot_ways.h). */
#include <stdlib.h>
#include <string.h>
#include "slot_ways.h"

/* 1 if the lines are every row path of the window, each once: n_lines ==
 * rows^reels and no two lines alike. */
static int every_path_once(const kern_slot_lines *ln, uint32_t reels, uint32_t rows)
{
    uint64_t paths = 1;
    for (uint32_t r = 0; r < reels; r++) {
        if (__builtin_mul_overflow(paths, (uint64_t)rows, &paths) || paths > ln->n_lines) {
            return 0;
        }
    }
    if (paths != ln->n_lines) {
        return 0;
    }
    uint8_t *seen = calloc(paths, 1);
    if (!seen) {
        return 0; /* the line reader pays the same */
    }
    int ok = 1;
    for (uint32_t l = 0; l < ln->n_lines && ok; l++) {
        uint64_t code = 0;
        for (uint32_t r = 0; r < reels && ok; r++) {
            uint8_t h = ln->line_rows[(size_t)l * reels + r];
            ok = h < rows;
            code = code * rows + h;
        }
        ok = ok && !seen[code];
        if (ok) {
            seen[code] = 1;
        }
    }
    free(seen);
    return ok;
}

void slot_ways_free(slot_ways *w)
{
    free(w->values);
    free(w->nexts);
    free(w->cur_q);
    free(w->nxt_q);
    free(w->cur_w);
    free(w->nxt_w);
    free(w->pair_values);
    free(w->pair_nexts);
    memset(w, 0, sizeof *w);
}

/* The alive states of each depth: depth[q] (-1 unreached) and dense[q],
 * its index among the states of its depth; width[r] states of depth r.
 * Depth r + 1 holds the alive states one symbol of reel r + 1 leads to
 * from depth r.  0 if a state has two depths or one is alive after the
 * last reel (then the automaton is not one this reader can table). */
static int levels(const kern_slot_reelset *rs, const kern_slot_lines *ln, int32_t *depth, uint32_t *dense,
                  uint32_t *order, uint32_t *width)
{
    size_t n = ln->n_symbols;
    uint32_t ns = ln->n_states, at = 0, start = 0;
    for (uint32_t q = 0; q < ns; q++) {
        depth[q] = -1;
    }
    depth[0] = 0;
    dense[0] = 0;
    order[at++] = 0;
    width[0] = 1;
    uint8_t present[256];
    for (uint32_t r = 0; r < rs->reels; r++) {
        memset(present, 0, sizeof present);
        size_t cells = (size_t)rs->strip_len[r] * rs->rows;
        const uint8_t *win = rs->window + (size_t)rs->stop_off[r] * rs->rows;
        for (size_t i = 0; i < cells; i++) {
            present[win[i]] = 1;
        }
        uint32_t end = at, count = 0;
        for (uint32_t i = start; i < end; i++) {
            for (size_t x = 0; x < n; x++) {
                if (!present[x]) {
                    continue;
                }
                uint32_t t = (uint32_t)ln->delta[(size_t)order[i] * n + x];
                if (ln->done[t]) {
                    continue;
                }
                if (depth[t] == (int32_t)r + 1) {
                    continue;
                }
                if (depth[t] != -1 || r + 1 == rs->reels) {
                    return 0;
                }
                depth[t] = (int32_t)r + 1;
                dense[t] = count++;
                order[at++] = t;
            }
        }
        start = end;
        if (r + 1 < rs->reels) {
            width[r + 1] = count;
        }
    }
    return 1;
}

/* The pair table of reels 1 and 2 (slot_ways.h), built by walking each pair of stops through
 * the one-reel tables; skipped (RNG_OK, pair_value NULL) below 3 reels or past its size limit. */
static int pair_table(slot_ways *w, const kern_slot_reelset *rs)
{
    uint32_t rows = w->rows, slots = rows * rows;
    size_t pairs = (size_t)rs->strip_len[0] * rs->strip_len[1];
    if (w->reels < 3 || pairs * (sizeof(int64_t) + slots * sizeof(uint32_t)) > SLOT_WAYS_MAX_PAIR_BYTES) {
        return RNG_OK;
    }
    w->pair_values = malloc(pairs * sizeof *w->pair_values);
    w->pair_nexts = calloc(pairs * slots, sizeof *w->pair_nexts);
    if (!w->pair_values || !w->pair_nexts) {
        return RNG_E_MEMORY;
    }
    static const uint64_t one = 1;
    static const uint32_t start = 0;
    for (uint32_t s0 = 0; s0 < rs->strip_len[0]; s0++) {
        int64_t pay0 = 0, flag0 = 0;
        size_t n1 = slot_ways_step(w, 0, s0, &start, &one, 1, w->cur_q, w->cur_w, &pay0, &flag0, rows);
        for (uint32_t s1 = 0; s1 < rs->strip_len[1]; s1++) {
            int64_t pay = pay0, flag = flag0;
            size_t n2 = slot_ways_step(w, 1, s1, w->cur_q, w->cur_w, n1, w->nxt_q, w->nxt_w, &pay, &flag, rows);
            size_t at = (size_t)s0 * rs->strip_len[1] + s1;
            uint32_t *x = w->pair_nexts + at * slots, n = 0;
            for (size_t j = 0; j < n2; j++) { /* paths reaching the same state share a slot */
                uint32_t k = 0;
                while (k < n && x[k] >> 8 != w->nxt_q[j]) {
                    k++;
                }
                if (k == n) {
                    x[n++] = w->nxt_q[j] << 8;
                }
                x[k] += (uint32_t)w->nxt_w[j]; /* at most rows^2 <= 64 paths */
            }
            w->pair_values[at] = (pay << 1) | (flag & 1);
        }
    }
    w->pair_len1 = rs->strip_len[1];
    w->pair_value = w->pair_values;
    w->pair_next = w->pair_nexts;
    return RNG_OK;
}

int slot_ways_init(slot_ways *w, const kern_slot_reelset *rs, const kern_slot_lines *ln)
{
    memset(w, 0, sizeof *w);
    uint32_t reels = rs->reels, rows = rs->rows, ns = ln->n_states;
    int64_t top = 0, most;
    for (uint32_t s = 0; s < ns; s++) {
        top = ln->done[s] && ln->pay[s] > top ? ln->pay[s] : top;
    }
    /* An entry holds pay * 2 + flag, pay up to top * n_lines: the caller's spin_win_fits bounds only
       top * n_lines.  Dense next states need 24 bits. */
    if (reels == 0 || reels > 64 || rows == 0 || ln->n_symbols > 256 || ns > 0xFFFFFFu || ln->done[0] ||
        __builtin_mul_overflow(top, (int64_t)ln->n_lines, &most) || most > INT64_MAX / 2 ||
        !every_path_once(ln, reels, rows)) {
        return SLOT_WAYS_NOT_WAYS;
    }
    int32_t *depth = malloc((size_t)ns * sizeof *depth);
    uint32_t *dense = malloc((size_t)ns * sizeof *dense);
    uint32_t *order = malloc((size_t)ns * sizeof *order);
    int rc = depth && dense && order ? RNG_OK : RNG_E_MEMORY;
    if (rc == RNG_OK && !levels(rs, ln, depth, dense, order, w->width)) {
        rc = SLOT_WAYS_NOT_WAYS;
    }
    size_t entries = 0, offs[64];
    for (uint32_t r = 0; rc == RNG_OK && r < reels; r++) {
        offs[r] = entries;
        entries += (size_t)w->width[r] * rs->strip_len[r];
        if (entries > SLOT_WAYS_MAX_ENTRIES) {
            rc = SLOT_WAYS_NOT_WAYS;
        }
    }
    if (rc == RNG_OK) {
        w->reels = reels;
        w->rows = rows;
        w->max_front = ln->n_lines; /* paths alive after a reel: at most rows^(reels - 1) */
        w->values = malloc((entries ? entries : 1) * sizeof *w->values);
        w->nexts = calloc((entries ? entries : 1) * rows, sizeof *w->nexts);
        w->cur_q = malloc((w->max_front + rows) * sizeof *w->cur_q); /* + rows: slots written past the last */
        w->nxt_q = malloc((w->max_front + rows) * sizeof *w->nxt_q);
        w->cur_w = malloc((w->max_front + rows) * sizeof *w->cur_w);
        w->nxt_w = malloc((w->max_front + rows) * sizeof *w->nxt_w);
        if (!w->values || !w->nexts || !w->cur_q || !w->nxt_q || !w->cur_w || !w->nxt_w) {
            rc = RNG_E_MEMORY;
        }
    }
    uint32_t first = 0; /* order[first ..] are the states of depth r */
    int64_t scale = 1;  /* lines a path done after reel r stands for: rows^(reels - 1 - r) */
    for (uint32_t r = 1; rc == RNG_OK && r < reels; r++) {
        scale *= rows; /* <= n_lines / rows: every_path_once */
    }
    for (uint32_t r = 0; rc == RNG_OK && r < reels; r++) {
        w->value[r] = w->values + offs[r];
        w->next[r] = w->nexts + offs[r] * rows;
        for (uint32_t s = 0; s < rs->strip_len[r]; s++) {
            const uint8_t *col = rs->window + ((size_t)rs->stop_off[r] + s) * rows;
            for (uint32_t i = 0; i < w->width[r]; i++) {
                uint32_t q = order[first + i];
                size_t at = offs[r] + (size_t)s * w->width[r] + i;
                int64_t pay = 0, shown = 0;
                uint32_t *x = w->nexts + at * rows, n = 0;
                for (uint32_t h = 0; h < rows; h++) {
                    uint32_t t = (uint32_t)ln->delta[(size_t)q * ln->n_symbols + col[h]];
                    if (ln->done[t]) { /* exact: pay * rows^(reels - r) <= top pay * n_lines (spin_win_fits) */
                        pay += ln->pay[t] * scale;
                        shown |= ln->prog[t] != 0;
                        continue;
                    }
                    uint32_t k = 0; /* rows leading to the same state share a slot */
                    while (k < n && x[k] >> 8 != dense[t]) {
                        k++;
                    }
                    if (k == n) {
                        x[n++] = dense[t] << 8;
                    }
                    x[k]++;
                }
                w->values[at] = pay * 2 + shown;
            }
        }
        first += w->width[r];
        scale /= rows;
    }
    free(depth);
    free(dense);
    free(order);
    if (rc == RNG_OK) {
        rc = pair_table(w, rs);
    }
    if (rc != RNG_OK) {
        slot_ways_free(w);
    }
    return rc;
}
