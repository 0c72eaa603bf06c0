/* slot.c -- exact joint enumeration and simulation of slot games (see slot.h). */
#include <stdlib.h>
#include <string.h>
#include "slot.h"
#include "slot_ways.h"

#define MAX_REELS 64u
#define MAX_ROWS 8u

/* ---- exact joint figures: the memoised DP of harness/slot/joint.py ---- */

typedef unsigned __int128 u128;

/* Arena of fixed blocks: pointers into it stay valid until it is freed. */
typedef struct arena_block {
    struct arena_block *prev;
    size_t used, size;
    unsigned char data[];
} arena_block;

static void *arena_alloc(arena_block **arena, size_t size)
{
    size = (size + 15) & ~(size_t)15; /* 16-byte alignment for u128 */
    arena_block *b = *arena;
    if (!b || b->used + size > b->size) {
        size_t cap = size > ((size_t)1 << 20) ? size : ((size_t)1 << 20);
        arena_block *nb = malloc(sizeof *nb + cap + 16);
        if (!nb) {
            return NULL;
        }
        nb->prev = b;
        nb->used = (16 - ((uintptr_t)nb->data & 15)) & 15;
        nb->size = cap + 16;
        *arena = nb;
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

static void arena_free(arena_block *b)
{
    while (b) {
        arena_block *prev = b->prev;
        free(b);
        b = prev;
    }
}

/* Suffix summary of one configuration, index 2 * s + p (see joint.py). */
typedef struct {
    uint32_t width;    /* scatter counts 0 .. width - 1 */
    uint32_t n_u;
    uint64_t *C, *S1, *Z;
    u128 *S2;
    uint32_t *u_cls, *u_s;
    uint64_t *u_w;
} summary;

/* Configuration entry: suffix id << 40 | state << 16 | multiplicity. */
#define ENTRY(sid, state, mult) (((uint64_t)(sid) << 40) | ((uint64_t)(state) << 16) | (uint64_t)(mult))
#define E_SID(e) ((uint32_t)((e) >> 40))
#define E_STATE(e) ((uint32_t)(((e) >> 16) & 0xFFFFFFu))
#define E_MULT(e) ((uint32_t)((e) & 0xFFFFu))
#define E_KEY(e) ((e) >> 16)

typedef struct {
    uint64_t hash;
    uint32_t depth, n;
    const uint64_t *entries;
    const summary *sum;
} memo_slot;

/* Per-depth scratch: a parent's accumulators and its child's entries. */
typedef struct {
    uint64_t *C, *S1, *Z, *U;   /* U: [n_classes * width] */
    u128 *S2;
    uint64_t *touched;          /* class bitset of nonzero U rows */
    uint64_t *child;            /* [n_lines] */
} scratch;

typedef struct {
    uint64_t *pay;              /* [rows * n_symbols] */
    uint8_t *prog;
    uint64_t *cls;              /* [rows * n_symbols * class_words] */
    uint32_t *off, *len;        /* child entries of a cell: list[off .. off + len) */
    uint64_t *list;             /* [n_lines * n_symbols] */
} row_tables;

typedef struct {
    const kern_slot_reelset *reels;
    const kern_slot_lines *lines;
    const kern_slot_groups *groups;
    const kern_slot_suffixes *suf;
    uint32_t n_classes;
    arena_block *arena;
    memo_slot *memo;
    size_t memo_cap, memo_size;
    summary *dead;              /* [reels + 1] */
    scratch *scr;               /* [reels + 1] */
    uint64_t configurations;
    int status;
    uint32_t class_words;       /* 64-bit words of a class set actually used */
    row_tables *tabs;           /* [reels] */
    uint32_t width[MAX_REELS + 1]; /* scatter counts 0 .. width[r] - 1 possible on reels r.. */
} dp_ctx;

static uint64_t config_hash(uint32_t depth, const uint64_t *e, uint32_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ depth;
    for (uint32_t i = 0; i < n; i++) {
        h ^= e[i];
        h *= 0xBF58476D1CE4E5B9u;
        h ^= h >> 31;
    }
    return h ? h : 1;
}

static int memo_grow(dp_ctx *c)
{
    size_t cap = c->memo_cap ? c->memo_cap * 2 : 4096;
    memo_slot *m = calloc(cap, sizeof *m);
    if (!m) {
        return RNG_E_MEMORY;
    }
    for (size_t i = 0; i < c->memo_cap; i++) {
        if (c->memo[i].hash) {
            size_t j = c->memo[i].hash & (cap - 1);
            while (m[j].hash) {
                j = (j + 1) & (cap - 1);
            }
            m[j] = c->memo[i];
        }
    }
    free(c->memo);
    c->memo = m;
    c->memo_cap = cap;
    return RNG_OK;
}

static const summary *memo_find(const dp_ctx *c, uint64_t h, uint32_t depth, const uint64_t *e, uint32_t n)
{
    size_t j = h & (c->memo_cap - 1);
    while (c->memo[j].hash) {
        const memo_slot *s = &c->memo[j];
        if (s->hash == h && s->depth == depth && s->n == n && memcmp(s->entries, e, n * sizeof *e) == 0) {
            return s->sum;
        }
        j = (j + 1) & (c->memo_cap - 1);
    }
    return NULL;
}

static int memo_put(dp_ctx *c, uint64_t h, uint32_t depth, const uint64_t *e, uint32_t n, const summary *sum)
{
    if (2 * (c->memo_size + 1) > c->memo_cap && memo_grow(c) != RNG_OK) {
        return RNG_E_MEMORY;
    }
    uint64_t *copy = arena_alloc(&c->arena, n * sizeof *copy);
    if (!copy) {
        return RNG_E_MEMORY;
    }
    memcpy(copy, e, n * sizeof *e);
    size_t j = h & (c->memo_cap - 1);
    while (c->memo[j].hash) {
        j = (j + 1) & (c->memo_cap - 1);
    }
    c->memo[j] = (memo_slot){h, depth, n, copy, sum};
    c->memo_size++;
    return RNG_OK;
}

static summary *summary_new(dp_ctx *c, uint32_t width, uint32_t n_u)
{
    summary *s = arena_alloc(&c->arena, sizeof *s);
    if (!s) {
        return NULL;
    }
    s->width = width;
    s->n_u = n_u;
    s->C = arena_alloc(&c->arena, 2 * width * sizeof(uint64_t));
    s->S1 = arena_alloc(&c->arena, 2 * width * sizeof(uint64_t));
    s->S2 = arena_alloc(&c->arena, 2 * width * sizeof(u128));
    s->Z = arena_alloc(&c->arena, width * sizeof(uint64_t));
    s->u_cls = arena_alloc(&c->arena, (n_u + 1) * sizeof(uint32_t));
    s->u_s = arena_alloc(&c->arena, (n_u + 1) * sizeof(uint32_t));
    s->u_w = arena_alloc(&c->arena, (n_u + 1) * sizeof(uint64_t));
    if (!s->C || !s->S1 || !s->S2 || !s->Z || !s->u_cls || !s->u_s || !s->u_w) {
        return NULL;
    }
    return s;
}

/* Add a child's summary, reached through a group of n stops showing sc
 * scatters, paying d now, progressive dp, classes db. */
static void combine(dp_ctx *c, scratch *a, uint32_t width, const summary *ch, uint64_t n, uint32_t sc,
                    uint64_t d, uint32_t dp, const uint64_t *db)
{
    for (uint32_t idx = 0; idx < 2 * ch->width; idx++) {
        uint64_t cnt = ch->C[idx];
        if (!cnt) {
            continue;
        }
        uint32_t t = 2 * ((idx >> 1) + sc) + ((idx & 1) | dp);
        uint64_t s1 = ch->S1[idx];
        a->C[t] += n * cnt;
        a->S1[t] += n * (s1 + d * cnt);
        a->S2[t] += (u128)n * (ch->S2[idx] + (u128)(2 * d) * s1 + (u128)d * d * cnt);
    }
    if (d == 0 && !dp) {
        for (uint32_t s = 0; s < ch->width; s++) {
            a->Z[s + sc] += n * ch->Z[s];
        }
    }
    for (uint32_t w = 0; w < c->class_words; w++) {
        uint64_t bits = db[w];
        while (bits) {
            uint32_t cls = w * 64 + (uint32_t)__builtin_ctzll(bits);
            uint64_t *row = a->U + (size_t)cls * width;
            for (uint32_t s = 0; s < ch->width; s++) {
                row[s + sc] += n * (ch->C[2 * s] + ch->C[2 * s + 1]);
            }
            a->touched[cls >> 6] |= (uint64_t)1 << (cls & 63);
            bits &= bits - 1;
        }
    }
    for (uint32_t i = 0; i < ch->n_u; i++) {
        uint32_t cls = ch->u_cls[i];
        if (db[cls >> 6] >> (cls & 63) & 1) {
            continue;
        }
        a->U[(size_t)cls * width + ch->u_s[i] + sc] += n * ch->u_w[i];
        a->touched[cls >> 6] |= (uint64_t)1 << (cls & 63);
    }
}

static const summary *expand(dp_ctx *c, uint32_t r, const uint64_t *entries, uint32_t n_entries);
/* Move a parent's accumulators into a new summary (U made sparse) and
 * leave the scratch clean. */
static const summary *finish(dp_ctx *c, scratch *a, uint32_t width)
{
    uint32_t n_u = 0;
    for (uint32_t cls = 0; cls < c->n_classes; cls++) {
        if (a->touched[cls >> 6] >> (cls & 63) & 1) {
            for (uint32_t s = 0; s < width; s++) {
                n_u += a->U[(size_t)cls * width + s] != 0;
            }
        }
    }
    summary *out = summary_new(c, width, n_u);
    if (!out) {
        return NULL;
    }
    memcpy(out->C, a->C, 2 * width * sizeof *a->C);
    memcpy(out->S1, a->S1, 2 * width * sizeof *a->S1);
    memcpy(out->S2, a->S2, 2 * width * sizeof *a->S2);
    memcpy(out->Z, a->Z, width * sizeof *a->Z);
    n_u = 0;
    for (uint32_t cls = 0; cls < c->n_classes; cls++) {
        if (a->touched[cls >> 6] >> (cls & 63) & 1) {
            uint64_t *u = a->U + (size_t)cls * width;
            for (uint32_t s = 0; s < width; s++) {
                if (u[s]) {
                    out->u_cls[n_u] = cls;
                    out->u_s[n_u] = s;
                    out->u_w[n_u] = u[s];
                    n_u++;
                }
                u[s] = 0; /* leave the scratch clean for the next expansion */
            }
        }
    }
    return out;
}

static void scratch_reset(scratch *a, uint32_t width)
{
    memset(a->C, 0, 2 * width * sizeof *a->C);
    memset(a->S1, 0, 2 * width * sizeof *a->S1);
    memset(a->S2, 0, 2 * width * sizeof *a->S2);
    memset(a->Z, 0, width * sizeof *a->Z);
    memset(a->touched, 0, KERN_SLOT_MAX_CLASSES / 8);
}

/* Insert entry e into the key-sorted list[0 .. *len), or add its
 * multiplicity to the entry with the same key (suffix id and state). */
static void merge_entry(uint64_t *list, uint32_t *len, uint64_t e)
{
    uint32_t j = *len;
    while (j > 0 && E_KEY(list[j - 1]) > E_KEY(e)) {
        j--;
    }
    if (j > 0 && E_KEY(list[j - 1]) == E_KEY(e)) {
        list[j - 1] += E_MULT(e);
    } else {
        memmove(list + j + 1, list + j, (*len - j) * sizeof *list);
        list[j] = e;
        (*len)++;
    }
}

/* Per-configuration tables, one cell per (row h, symbol x): what symbol x
 * on row h does to the lines of the configuration on that row -- the pay,
 * progressive and classes of the lines it makes final, and (sorted, equal
 * keys merged) the entries of the lines it leaves alive.  A stop's effect is
 * then a sum over the rows of the alive lines, instead of a walk over every
 * line for every group.  Returns the mask of rows holding alive lines. */
static uint32_t build_tables(dp_ctx *c, row_tables *t, uint32_t r, const uint64_t *entries, uint32_t n_entries,
                             int with_lists)
{
    const kern_slot_lines *ln = c->lines;
    uint32_t nsym = ln->n_symbols, nw = c->class_words, cells = c->reels->rows * nsym;
    const uint8_t *row = c->suf->row + c->suf->off[r];
    const uint32_t *next = c->suf->next + c->suf->off[r];
    uint32_t mask = 0;
    memset(t->pay, 0, cells * sizeof *t->pay);
    memset(t->prog, 0, cells);
    memset(t->cls, 0, (size_t)cells * nw * sizeof *t->cls);
    memset(t->len, 0, cells * sizeof *t->len);
    for (uint32_t i = 0; i < n_entries; i++) {
        uint64_t e = entries[i];
        uint32_t h = row[E_SID(e)], mult = E_MULT(e);
        const int32_t *to = ln->delta + (size_t)E_STATE(e) * nsym;
        mask |= 1u << h;
        for (uint32_t x = 0; x < nsym; x++) {
            int32_t s2 = to[x];
            uint32_t cell = h * nsym + x;
            if (ln->done[s2]) {
                t->pay[cell] += (uint64_t)mult * (uint64_t)ln->pay[s2];
                t->prog[cell] |= ln->prog[s2];
                if (ln->cls[s2] >= 0) {
                    t->cls[(size_t)cell * nw + (ln->cls[s2] >> 6)] |= (uint64_t)1 << (ln->cls[s2] & 63);
                }
            } else {
                t->len[cell]++;
            }
        }
    }
    if (!with_lists) {
        return mask;
    }
    uint32_t at = 0;
    for (uint32_t cell = 0; cell < cells; cell++) {
        t->off[cell] = at;
        at += t->len[cell];
        t->len[cell] = 0;
    }
    for (uint32_t i = 0; i < n_entries; i++) {
        uint64_t e = entries[i];
        uint32_t sid = E_SID(e), h = row[sid], mult = E_MULT(e);
        const int32_t *to = ln->delta + (size_t)E_STATE(e) * nsym;
        for (uint32_t x = 0; x < nsym; x++) {
            int32_t s2 = to[x];
            if (!ln->done[s2]) {
                uint32_t cell = h * nsym + x;
                merge_entry(t->list + t->off[cell], &t->len[cell], ENTRY(next[sid], (uint32_t)s2, mult));
            }
        }
    }
    return mask;
}

/* Start expanding a configuration on reel r (expand / expand_last): clear
 * the reel's scratch, build its row tables (with the child lists unless it
 * is the last reel), and list the rows holding alive lines in hs[0 .. *nh).
 * Returns the mask of those rows. */
static uint32_t expand_begin(dp_ctx *c, uint32_t r, const uint64_t *entries, uint32_t n_entries,
                             int with_lists, uint32_t *hs, uint32_t *nh)
{
    scratch_reset(&c->scr[r], c->width[r]);
    c->configurations++;
    uint32_t mask = build_tables(c, &c->tabs[r], r, entries, n_entries, with_lists);
    *nh = 0;
    for (uint32_t h = 0; h < c->reels->rows; h++) {
        if (mask >> h & 1) {
            hs[(*nh)++] = h;
        }
    }
    return mask;
}

/* One stop's effect on the alive lines of the rows hs[0 .. nh), col[h]
 * being its symbol on row h: the pay *d, progressive *dp and classes
 * db[0 .. nw) (OR-ed in) of the lines it makes final; cells[i] is row
 * hs[i]'s table cell. */
static inline void stop_effect(const row_tables *t, uint32_t nsym, uint32_t nw, const uint8_t *col,
                               const uint32_t *hs, uint32_t nh, uint32_t *cells, uint64_t *d, uint32_t *dp,
                               uint64_t *db)
{
    uint64_t pay = 0;
    uint32_t prog = 0;
    for (uint32_t i = 0; i < nh; i++) {
        uint32_t cell = hs[i] * nsym + col[hs[i]];
        cells[i] = cell;
        pay += t->pay[cell];
        prog |= t->prog[cell];
        for (uint32_t w = 0; w < nw; w++) {
            db[w] |= t->cls[(size_t)cell * nw + w];
        }
    }
    *d = pay;
    *dp = prog;
}

/* The last reel: every line becomes final, so a stop's effect is a sum over
 * rows of per-row tables (pay, progressive, classes of symbol x on that
 * row), built once per configuration instead of walking every line for
 * every group. */
static const summary *expand_last(dp_ctx *c, uint32_t r, const uint64_t *entries, uint32_t n_entries)
{
    const kern_slot_reelset *rs = c->reels;
    const kern_slot_groups *gr = c->groups;
    uint32_t nsym = c->lines->n_symbols, rows = rs->rows, nw = c->class_words;
    uint32_t width = c->width[r];
    scratch *a = &c->scr[r];
    row_tables *t = &c->tabs[r];
    uint32_t hs[MAX_ROWS], nh;
    uint32_t mask = expand_begin(c, r, entries, n_entries, 0, hs, &nh);
    size_t slot = (size_t)r * gr->n_masks + mask;
    for (uint32_t g = gr->group_off[slot]; g < gr->group_off[slot + 1]; g++) {
        const uint8_t *col = rs->window + ((size_t)rs->stop_off[r] + gr->rep[g]) * rows;
        uint64_t d, db[KERN_SLOT_MAX_CLASSES / 64] = {0, 0, 0, 0};
        uint32_t dp, cells[MAX_ROWS];
        stop_effect(t, nsym, nw, col, hs, nh, cells, &d, &dp, db);
        uint64_t any = 0;
        for (uint32_t w = 0; w < nw; w++) {
            any |= db[w];
        }
        uint64_t n = gr->count[g];
        uint32_t sc = gr->scat[g];
        uint32_t at = 2 * sc + dp;
        a->C[at] += n;
        a->S1[at] += n * d;
        a->S2[at] += (u128)n * d * d;
        if (d == 0 && !dp) {
            a->Z[sc] += n;
        }
        if (any) {
            for (uint32_t w = 0; w < nw; w++) {
                uint64_t bits = db[w];
                a->touched[w] |= bits;
                while (bits) {
                    a->U[(size_t)(w * 64 + (uint32_t)__builtin_ctzll(bits)) * width + sc] += n;
                    bits &= bits - 1;
                }
            }
        }
    }
    return finish(c, a, width);
}


/* The summary of a configuration: memoised, computed on first sight. */
static const summary *lookup(dp_ctx *c, uint32_t r, const uint64_t *entries, uint32_t n)
{
    if (n == 0) {
        return &c->dead[r];
    }
    uint64_t h = config_hash(r, entries, n);
    const summary *found = memo_find(c, h, r, entries, n);
    if (found) {
        return found;
    }
    const summary *s = r + 1 == c->reels->reels ? expand_last(c, r, entries, n) : expand(c, r, entries, n);
    if (!s || memo_put(c, h, r, entries, n, s) != RNG_OK) {
        c->status = RNG_E_MEMORY;
        return NULL;
    }
    return s;
}

static const summary *expand(dp_ctx *c, uint32_t r, const uint64_t *entries, uint32_t n_entries)
{
    const kern_slot_reelset *rs = c->reels;
    const kern_slot_groups *gr = c->groups;
    uint32_t nsym = c->lines->n_symbols, nw = c->class_words;
    uint32_t width = c->width[r];
    scratch *a = &c->scr[r];
    row_tables *t = &c->tabs[r];
    uint32_t hs[MAX_ROWS], nh;
    uint32_t mask = expand_begin(c, r, entries, n_entries, 1, hs, &nh);
    size_t slot = (size_t)r * gr->n_masks + mask;
    uint64_t *child = a->child;
    for (uint32_t g = gr->group_off[slot]; g < gr->group_off[slot + 1]; g++) {
        const uint8_t *col = rs->window + ((size_t)rs->stop_off[r] + gr->rep[g]) * rs->rows;
        uint64_t d, db[KERN_SLOT_MAX_CLASSES / 64] = {0, 0, 0, 0};
        uint32_t dp, cells[MAX_ROWS], n2 = 0;
        stop_effect(t, nsym, nw, col, hs, nh, cells, &d, &dp, db);
        for (uint32_t i = 0; i < nh; i++) {
            /* merge this row's sorted child entries in; equal keys add up */
            for (uint32_t k = t->off[cells[i]]; k < t->off[cells[i]] + t->len[cells[i]]; k++) {
                merge_entry(child, &n2, t->list[k]);
            }
        }
        const summary *ch = lookup(c, r + 1, child, n2);
        if (!ch) {
            return NULL;
        }
        combine(c, a, width, ch, gr->count[g], gr->scat[g], d, dp, db);
    }
    return finish(c, a, width);
}

static int dp_setup(dp_ctx *c)
{
    const kern_slot_reelset *rs = c->reels;
    uint32_t R = rs->reels, n_lines = c->lines->n_lines;
    size_t cells = (size_t)rs->rows * c->lines->n_symbols;
    c->class_words = (c->n_classes + 63) / 64 ? (c->n_classes + 63) / 64 : 1;
    c->dead = calloc(R + 1, sizeof *c->dead);
    c->scr = calloc(R + 1, sizeof *c->scr);
    c->tabs = calloc(R, sizeof *c->tabs);
    if (!c->dead || !c->scr || !c->tabs || memo_grow(c) != RNG_OK) {
        return RNG_E_MEMORY;
    }
    for (uint32_t r = 0; r < R; r++) {
        row_tables *t = &c->tabs[r];
        t->pay = arena_alloc(&c->arena, cells * sizeof *t->pay);
        t->prog = arena_alloc(&c->arena, cells);
        t->cls = arena_alloc(&c->arena, cells * c->class_words * sizeof *t->cls);
        t->off = arena_alloc(&c->arena, cells * sizeof *t->off);
        t->len = arena_alloc(&c->arena, cells * sizeof *t->len);
        t->list = arena_alloc(&c->arena, (size_t)n_lines * c->lines->n_symbols * sizeof *t->list);
        if (!t->pay || !t->prog || !t->cls || !t->off || !t->len || !t->list) {
            return RNG_E_MEMORY;
        }
    }
    /* Summaries only span the scatter counts the remaining reels can show. */
    c->width[R] = 1;
    for (uint32_t r = R; r-- > 0;) {
        uint32_t most = 0;
        for (uint32_t s = 0; s < rs->strip_len[r]; s++) {
            uint32_t k = rs->scat[rs->stop_off[r] + s];
            most = k > most ? k : most;
        }
        c->width[r] = c->width[r + 1] + most;
    }
    if (c->width[0] > c->groups->max_scatter + 1) {
        return RNG_E_ARGUMENT; /* a window's cell would pass the output tables */
    }
    for (uint32_t r = 0; r <= R; r++) {
        uint32_t width = c->width[r];
        summary *d = summary_new(c, width, 0);
        if (!d) {
            return RNG_E_MEMORY;
        }
        memset(d->C, 0, 2 * width * sizeof *d->C);
        memset(d->S1, 0, 2 * width * sizeof *d->S1);
        memset(d->S2, 0, 2 * width * sizeof *d->S2);
        for (uint32_t k = 0; k < width; k++) {
            d->C[2 * k] = c->groups->suffix[(size_t)r * (c->groups->max_scatter + 1) + k];
            d->Z[k] = d->C[2 * k];
        }
        c->dead[r] = *d;
        scratch *s = &c->scr[r];
        s->C = arena_alloc(&c->arena, 2 * width * sizeof(uint64_t));
        s->S1 = arena_alloc(&c->arena, 2 * width * sizeof(uint64_t));
        s->S2 = arena_alloc(&c->arena, 2 * width * sizeof(u128));
        s->Z = arena_alloc(&c->arena, width * sizeof(uint64_t));
        s->U = arena_alloc(&c->arena, (size_t)(c->n_classes + 1) * width * sizeof(uint64_t));
        s->touched = arena_alloc(&c->arena, KERN_SLOT_MAX_CLASSES / 8);
        s->child = arena_alloc(&c->arena, (n_lines + 1) * sizeof(uint64_t));
        if (!s->C || !s->S1 || !s->S2 || !s->Z || !s->U || !s->touched || !s->child) {
            return RNG_E_MEMORY;
        }
        memset(s->U, 0, (size_t)(c->n_classes + 1) * width * sizeof(uint64_t));
    }
    return RNG_OK;
}

int kern_slot_joint(const kern_slot_reelset *reels, const kern_slot_lines *lines,
                    const kern_slot_groups *groups, const kern_slot_suffixes *suffixes,
                    uint32_t n_classes, kern_slot_moments *out)
{
    if (n_classes > KERN_SLOT_MAX_CLASSES || reels->rows > MAX_ROWS || reels->rows == 0 ||
        reels->reels == 0 || reels->reels > MAX_REELS || groups->n_masks != (1u << reels->rows) ||
        groups->max_scatter > 0xFFFFFu || lines->n_lines == 0 ||
        lines->n_lines > 0xFFFFu || lines->n_states > 0xFFFFFFu || lines->done[0] ||
        suffixes->n_start == 0 || suffixes->off[reels->reels] > 0xFFFFFFu) {
        return RNG_E_ARGUMENT;
    }
    dp_ctx c;
    memset(&c, 0, sizeof c);
    c.reels = reels;
    c.lines = lines;
    c.groups = groups;
    c.suf = suffixes;
    c.n_classes = n_classes;
    int rc = dp_setup(&c);
    uint64_t *start = rc == RNG_OK ? arena_alloc(&c.arena, suffixes->n_start * sizeof *start) : NULL;
    if (rc == RNG_OK && !start) {
        rc = RNG_E_MEMORY;
    }
    if (rc == RNG_OK) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < suffixes->n_start; i++) { /* sorted: states are all 0 */
            uint64_t e = ENTRY(suffixes->start_sid[i], 0, suffixes->start_mult[i]);
            uint32_t j = n;
            while (j > 0 && start[j - 1] > e) {
                start[j] = start[j - 1];
                j--;
            }
            start[j] = e;
            n++;
        }
        const summary *root = lookup(&c, 0, start, n);
        if (!root) {
            rc = c.status ? c.status : RNG_E_MEMORY;
        } else {
            uint32_t K = groups->max_scatter;
            for (uint32_t i = 0; i < 2 * (K + 1); i++) {
                int in = i < 2 * root->width;
                out->count[i] = in ? root->C[i] : 0;
                out->line_sum[i] = in ? root->S1[i] : 0;
                out->line_sq_lo[i] = in ? (uint64_t)root->S2[i] : 0;
                out->line_sq_hi[i] = in ? (uint64_t)(root->S2[i] >> 64) : 0;
            }
            for (uint32_t k = 0; k <= K; k++) {
                out->no_line_win[k] = k < root->width ? root->Z[k] : 0;
            }
            memset(out->class_scatter, 0, (size_t)n_classes * (K + 1) * sizeof(uint64_t));
            for (uint32_t i = 0; i < root->n_u; i++) {
                out->class_scatter[(size_t)root->u_cls[i] * (K + 1) + root->u_s[i]] = root->u_w[i];
            }
            out->configurations = c.configurations;
        }
    }
    free(c.memo);
    free(c.dead);
    free(c.scr);
    free(c.tabs);
    arena_free(c.arena);
    return rc;
}

/* ---- simulation ---- */

/* The first reels of a line go through a prefix table: the automaton state
 * after reels 1..depth, indexed by their symbols (depth 3 when n_symbols^3
 * is small, else 2, else 1), so most lines are finished with one lookup and
 * the branch "still alive?" after it is rarely taken.  Lines with the same
 * rows on those reels share the lookup: they are grouped by that prefix
 * (a 50-line game on 3 rows has at most 27 prefixes of 3 reels). */
typedef struct {
    uint32_t depth;
    int32_t *first;         /* [n^depth] */
    int64_t *value;         /* [n_states] pay * 2 + progressive of a done state, -1 if alive */
    uint32_t n_prefix;
    uint8_t *prefix_rows;   /* [n_prefix * depth] */
    uint32_t *group_off;    /* [n_prefix + 1] into group_line */
    uint32_t *group_line;   /* [n_lines] lines by prefix */
    const kern_slot_ways *rule; /* a ways game: its product rule (slot_ways.h); the fields above unused */
    int use_tables;         /* ... read through its tables */
    slot_ways tables;
} line_reader;

/* The readers of a game's two stages (free spins may share the base game's). */
struct kern_slot_readers {
    line_reader base, feat;
    int shared;
};

static void reader_free(line_reader *rd)
{
    free(rd->first);
    free(rd->value);
    free(rd->prefix_rows);
    free(rd->group_off);
    free(rd->group_line);
    slot_ways_free(&rd->tables);
}

/* A ways stage's reader: its rule, and its tables unless told to read cells (or they do not apply). */
static int ways_reader_init(line_reader *rd, const kern_slot_ways *w, const kern_slot_reelset *rs, uint32_t reader)
{
    rd->rule = w;
    if (reader == KERN_SLOT_READER_CELLS) {
        return RNG_OK;
    }
    int rc = slot_ways_init(&rd->tables, w, rs);
    rd->use_tables = rc == RNG_OK;
    return rc == SLOT_WAYS_NO_TABLES ? RNG_OK : rc;
}

static int reader_init(line_reader *rd, const kern_slot_lines *ln, const kern_slot_reelset *rs, uint32_t reader)
{
    uint32_t reels = rs->reels;
    size_t n = ln->n_symbols;
    uint32_t L = ln->n_lines;
    rd->depth = n * n * n <= 65536 ? 3 : (n * n <= 65536 ? 2 : 1);
    if (rd->depth > reels) {
        rd->depth = reels;
    }
    size_t cells = rd->depth == 3 ? n * n * n : (rd->depth == 2 ? n * n : n);
    rd->first = malloc(cells * sizeof *rd->first);
    rd->value = malloc((size_t)ln->n_states * sizeof *rd->value);
    rd->prefix_rows = malloc((size_t)L * rd->depth);
    rd->group_off = malloc(((size_t)L + 1) * sizeof *rd->group_off);
    rd->group_line = malloc((size_t)L * sizeof *rd->group_line);
    uint32_t *prefix_of = malloc((size_t)L * sizeof *prefix_of);
    if (!rd->first || !rd->value || !rd->prefix_rows || !rd->group_off || !rd->group_line || !prefix_of) {
        free(prefix_of);
        return RNG_E_MEMORY;
    }
    for (size_t i = 0; i < cells; i++) {
        size_t rest = i, digits[3] = {0, 0, 0};
        for (uint32_t k = rd->depth; k-- > 0;) {
            digits[k] = rest % n; /* table construction, not drawing: i is a mixed-radix index */
            rest /= n;
        }
        int32_t s = 0;
        for (uint32_t k = 0; k < rd->depth; k++) {
            s = ln->delta[(size_t)s * n + digits[k]];
        }
        rd->first[i] = s;
    }
    for (uint32_t s = 0; s < ln->n_states; s++) { /* -1 marks a state still alive */
        rd->value[s] = ln->done[s] ? ln->pay[s] * 2 + ln->prog[s] : -1;
    }
    /* distinct prefixes, in order of first appearance */
    rd->n_prefix = 0;
    for (uint32_t l = 0; l < L; l++) {
        const uint8_t *rows = ln->line_rows + (size_t)l * reels;
        uint32_t p = 0;
        while (p < rd->n_prefix && memcmp(rd->prefix_rows + (size_t)p * rd->depth, rows, rd->depth) != 0) {
            p++;
        }
        if (p == rd->n_prefix) {
            memcpy(rd->prefix_rows + (size_t)p * rd->depth, rows, rd->depth);
            rd->n_prefix++;
        }
        prefix_of[l] = p;
    }
    uint32_t at = 0;
    for (uint32_t p = 0; p < rd->n_prefix; p++) {
        rd->group_off[p] = at;
        for (uint32_t l = 0; l < L; l++) {
            if (prefix_of[l] == p) {
                rd->group_line[at++] = l;
            }
        }
    }
    rd->group_off[rd->n_prefix] = at;
    free(prefix_of);
    return RNG_OK;
}

/* One stop: from the pre-drawn buffer when every strip has the same length
 * (rng_bounded_max32_batch gives exactly the values of successive
 * rng_bounded32 calls, fetching the words in bulk), else one call. */
static inline uint32_t next_stop(rng_source *src, kern_slot_draws *d, uint32_t len)
{
    if (!d) {
        return rng_bounded32(src, len);
    }
    if (d->pos == d->len) {
        d->len = (uint32_t)rng_bounded_max32_batch(src, d->bound - 1, d->buf, KERN_SLOT_DRAW_BUF);
        d->pos = 0;
        if (d->len == 0) { /* the source failed: its status says so; keep going harmlessly */
            return 0;
        }
    }
    return d->buf[d->pos++];
}

/* Draw one stop per reel; returns the scatter count, fills stops[r] and cols[r]. */
static inline uint32_t spin_reels(rng_source *src, kern_slot_draws *d, const kern_slot_reelset *rs,
                                  uint32_t *stops, const uint8_t **cols)
{
    uint32_t scat = 0;
    if (d && d->pos + rs->reels <= d->len) { /* the usual case: every stop of the spin drawn already */
        const uint32_t *drawn = d->buf + d->pos;
        d->pos += rs->reels;
        for (uint32_t r = 0; r < rs->reels; r++) {
            stops[r] = drawn[r];
            size_t at = (size_t)rs->stop_off[r] + drawn[r];
            cols[r] = rs->window + at * rs->rows;
            scat += rs->scat[at];
        }
        return scat;
    }
    for (uint32_t r = 0; r < rs->reels; r++) {
        uint32_t stop;
        if (rs->height_draws) { /* the reel's height, then its stop (never pre-drawn: game_ok) */
            uint32_t stops_at_height = rs->strip_len[r] / rs->height_draws[r];
            uint32_t height = rng_bounded32(src, rs->height_draws[r]);
            stop = height * stops_at_height + rng_bounded32(src, stops_at_height);
        } else {
            stop = next_stop(src, d, rs->strip_len[r]);
        }
        stops[r] = stop;
        size_t at = (size_t)rs->stop_off[r] + stop;
        cols[r] = rs->window + at * rs->rows;
        scat += rs->scat[at];
    }
    return scat;
}

/* Total line pay (multiple of the bet per line); *prog |= progressive shown. */
static inline int64_t pay_lines(const kern_slot_lines *ln, const line_reader *rd, uint32_t reels,
                                const uint8_t *const *cols, int *prog)
{
    int64_t total = 0;
    int64_t p = 0;
    size_t n = ln->n_symbols;
    const uint8_t *pr = rd->prefix_rows;
    for (uint32_t q = 0; q < rd->n_prefix; q++, pr += rd->depth) {
        size_t idx = cols[0][pr[0]];
        for (uint32_t r = 1; r < rd->depth; r++) {
            idx = idx * n + cols[r][pr[r]];
        }
        int32_t s = rd->first[idx];
        uint32_t g0 = rd->group_off[q], g1 = rd->group_off[q + 1];
        int64_t v = rd->value[s];
        if (v >= 0) { /* the usual case: every line of the group is final */
            total += (int64_t)(g1 - g0) * (v >> 1);
            p |= v;
            continue;
        }
        for (uint32_t k = g0; k < g1; k++) {
            const uint8_t *rows = ln->line_rows + (size_t)rd->group_line[k] * reels;
            int32_t t = s;
            for (uint32_t r = rd->depth; r < reels && !ln->done[t]; r++) {
                t = ln->delta[(size_t)t * n + cols[r][rows[r]]];
            }
            int64_t w = rd->value[t];
            total += w >> 1;
            p |= w;
        }
    }
    *prog |= (int)(p & 1);
    return total;
}

/* The largest line pay (multiple of the bet per line) of one spin of a stage, or -1 if it could
   pass int64: every line at the top pay (a value pay * 2 + prog of the line reader must fit too),
   or a ways game's by its rule (slot_ways_most). */
static int64_t most_line_pay(const kern_slot_game *g, const kern_slot_lines *ln, const kern_slot_ways *w,
                             const kern_slot_reelset *rs)
{
    if (g->ways) {
        return slot_ways_most(w, rs);
    }
    int64_t top = 0, lines;
    for (uint32_t s = 0; s < ln->n_states; s++) {
        if (ln->pay[s] < 0) {
            return -1;
        }
        top = ln->pay[s] > top ? ln->pay[s] : top;
    }
    return top <= INT64_MAX / 2 && !__builtin_mul_overflow(top, (int64_t)ln->n_lines, &lines) ? lines : -1;
}

/* The largest win of one spin of a stage: its most line pay, the top scatter award, times the
   multiplier.  0 if it would not fit in int64. */
static int spin_win_fits(int64_t lines, const int64_t *scatter_pay, uint32_t max_scatter, int64_t bet_per_line,
                         int64_t total_bet, int64_t multiplier)
{
    int64_t top_scatter = 0, scatters, win;
    for (uint32_t k = 0; k <= max_scatter; k++) {
        if (scatter_pay[k] < 0) {
            return 0;
        }
        top_scatter = scatter_pay[k] > top_scatter ? scatter_pay[k] : top_scatter;
    }
    return lines >= 0 &&
           !__builtin_mul_overflow(lines, bet_per_line, &lines) &&
           !__builtin_mul_overflow(top_scatter, total_bet, &scatters) &&
           !__builtin_add_overflow(lines, scatters, &win) &&
           !__builtin_mul_overflow(win, multiplier, &win);
}

/* 1 if a ways rule's tables are consistent with its reel set. */
static int ways_ok(const kern_slot_ways *w, const kern_slot_reelset *rs, int with_prog)
{
    if (w->n_symbols == 0 || w->n_symbols > 256 || (w->n_cand && (!w->weight || !w->wild || !w->paid || !w->pay)) ||
        (w->additive && w->n_cand && !w->bonus) || w->prog_count > rs->reels ||
        (w->prog_count && (!with_prog || !w->prog_match))) {
        return 0;
    }
    for (uint32_t k = 0; k < w->n_cand; k++) { /* the count paid for a run of n reels is at most n */
        for (uint32_t n = 0; n <= rs->reels; n++) {
            if (w->paid[(size_t)k * (rs->reels + 1) + n] > n) {
                return 0;
            }
        }
    }
    size_t cells = 0;
    for (uint32_t r = 0; r < rs->reels; r++) {
        cells += (size_t)rs->strip_len[r] * rs->rows;
    }
    for (size_t i = 0; i < cells; i++) {
        if (rs->window[(size_t)rs->stop_off[0] * rs->rows + i] >= w->n_symbols) {
            return 0;
        }
    }
    return 1;
}

static int game_ok(const kern_slot_game *g)
{
    const kern_slot_reelset *sets[2] = {&g->base, &g->feature};
    for (int i = 0; i < 2; i++) {
        if (sets[i]->reels == 0 || sets[i]->reels > MAX_REELS || sets[i]->rows == 0) {
            return 0;
        }
        uint64_t most_cell = 0; /* the largest window cell: it indexes the award tables */
        for (uint32_t r = 0; r < sets[i]->reels; r++) {
            if (sets[i]->strip_len[r] == 0) {
                return 0;
            }
            uint32_t most = 0;
            for (uint32_t s = 0; s < sets[i]->strip_len[r]; s++) {
                uint32_t k = sets[i]->scat[sets[i]->stop_off[r] + s];
                most = k > most ? k : most;
            }
            most_cell += most;
        }
        if (most_cell > g->max_scatter) {
            return 0;
        }
        for (uint32_t r = 0; sets[i]->height_draws && r < sets[i]->reels; r++) {
            uint32_t h = sets[i]->height_draws[r];
            if (h == 0 || sets[i]->strip_len[r] % h != 0 || g->draws) { /* heights are drawn one by one */
                return 0;
            }
        }
    }
    if (g->draws) {
        for (int i = 0; i < 2; i++) {
            for (uint32_t r = 0; r < sets[i]->reels; r++) {
                if (sets[i]->strip_len[r] != g->draws->bound) {
                    return 0;
                }
            }
        }
        if (g->draws->pos > g->draws->len || g->draws->len > KERN_SLOT_DRAW_BUF) {
            return 0;
        }
    }
    if (g->bet_per_line < 1 || g->total_bet < 1 || g->multiplier < 1 || g->progressive_reset < 0) {
        return 0;
    }
    uint32_t n_symbols = g->ways ? g->feature_ways.n_symbols : g->feature_lines.n_symbols;
    if (g->sticky && (g->sticky > n_symbols || !g->symbol_cell || g->feature.rows > MAX_ROWS)) {
        return 0;
    }
    if (g->ways ? !ways_ok(&g->base_ways, &g->base, 1) || !ways_ok(&g->feature_ways, &g->feature, 0)
                : g->base_lines.n_lines == 0) {
        return 0;
    }
    return g->base.reels == g->feature.reels && g->reader <= KERN_SLOT_READER_CELLS;
}

/* 1 if two reel sets show the same windows. */
static int same_reels(const kern_slot_reelset *a, const kern_slot_reelset *b)
{
    if (a->reels != b->reels || a->rows != b->rows) {
        return 0;
    }
    size_t cells = 0;
    for (uint32_t r = 0; r < a->reels; r++) {
        if (a->strip_len[r] != b->strip_len[r] || a->stop_off[r] != b->stop_off[r]) {
            return 0;
        }
        cells += a->strip_len[r];
    }
    return memcmp(a->window, b->window, cells * a->rows) == 0;
}

/* 1 if two stages' readers would be built from equal tables (strips and automaton, or ways rule,
   alike; the progressive aside when `ways`: the tables do not read it). */
static int same_reader(const kern_slot_game *g)
{
    if (!same_reels(&g->base, &g->feature)) {
        return 0;
    }
    if (g->ways) {
        const kern_slot_ways *a = &g->base_ways, *b = &g->feature_ways;
        size_t cells = (size_t)a->n_cand * a->n_symbols;
        size_t runs = (size_t)a->n_cand * (g->base.reels + 1);
        return a->n_cand == b->n_cand && a->n_symbols == b->n_symbols && a->additive == b->additive &&
               (!cells || (memcmp(a->weight, b->weight, cells * sizeof *a->weight) == 0 &&
                           memcmp(a->wild, b->wild, cells * sizeof *a->wild) == 0)) &&
               (!a->additive || memcmp(a->bonus, b->bonus, a->n_symbols * sizeof *a->bonus) == 0) &&
               (!runs || (memcmp(a->pay, b->pay, runs * sizeof *a->pay) == 0 &&
                          memcmp(a->paid, b->paid, runs * sizeof *a->paid) == 0));
    }
    const kern_slot_lines *la = &g->base_lines, *lb = &g->feature_lines;
    if (la->n_lines != lb->n_lines || la->n_symbols != lb->n_symbols || la->n_states != lb->n_states) {
        return 0;
    }
    size_t ns = la->n_states;
    return memcmp(la->line_rows, lb->line_rows, (size_t)la->n_lines * g->base.reels) == 0 &&
           memcmp(la->delta, lb->delta, ns * la->n_symbols * sizeof *la->delta) == 0 &&
           memcmp(la->done, lb->done, ns) == 0 && memcmp(la->pay, lb->pay, ns * sizeof *la->pay) == 0 &&
           memcmp(la->prog, lb->prog, ns) == 0;
}

static void readers_free(kern_slot_readers *rd)
{
    reader_free(&rd->base);
    reader_free(&rd->feat);
}

/* The readers of both stages; RNG_OK or RNG_E_MEMORY (readers_free releases a partial build). */
static int readers_init(kern_slot_readers *rd, const kern_slot_game *g)
{
    memset(rd, 0, sizeof *rd);
    int rc = g->ways ? ways_reader_init(&rd->base, &g->base_ways, &g->base, g->reader)
                     : reader_init(&rd->base, &g->base_lines, &g->base, g->reader);
    /* Free spins on the base strips with the same rule (no progressive) read through the base
       game's tables: half the tables competing for the cache.  Sticky free spins are read from
       the window with the wilds laid over it: line by line, or cell by cell. */
    int sticky = g->sticky != 0;
    rd->shared = !sticky && same_reader(g);
    if (rc == RNG_OK && !rd->shared) {
        uint32_t reader = sticky ? KERN_SLOT_READER_CELLS : g->reader;
        rc = g->ways ? ways_reader_init(&rd->feat, &g->feature_ways, &g->feature, reader)
                     : reader_init(&rd->feat, &g->feature_lines, &g->feature, reader);
    }
    return rc;
}

int kern_slot_prepare(kern_slot_game *g)
{
    kern_slot_release(g);
    if (!game_ok(g)) {
        return RNG_E_ARGUMENT;
    }
    kern_slot_readers *rd = malloc(sizeof *rd);
    if (!rd) {
        return RNG_E_MEMORY;
    }
    int rc = readers_init(rd, g);
    if (rc != RNG_OK) {
        readers_free(rd);
        free(rd);
        return rc;
    }
    g->readers = rd;
    return RNG_OK;
}

void kern_slot_release(kern_slot_game *g)
{
    if (g->readers) {
        readers_free(g->readers);
        free(g->readers);
        g->readers = NULL;
    }
}

/* A sticky free spin's window: the wild over every position in stuck[] (bit h of reel r), the
 * columns cols[] point into window[] after; every position showing the wild is stuck from now on.
 * Returns the window's scatter cell, counted cell by cell (a scatter under a wild does not count). */
static uint32_t lay_sticky(const kern_slot_game *g, uint8_t *stuck, const uint8_t **cols, uint8_t *window)
{
    const uint32_t rows = g->feature.rows;
    const uint8_t wild = (uint8_t)(g->sticky - 1);
    uint32_t cell = 0;
    for (uint32_t r = 0; r < g->feature.reels; r++) {
        uint8_t *col = window + (size_t)r * rows, mask = 0;
        for (uint32_t h = 0; h < rows; h++) {
            uint8_t x = stuck[r] >> h & 1 ? wild : cols[r][h];
            col[h] = x;
            mask |= (uint8_t)((x == wild) << h);
            cell += g->symbol_cell[x];
        }
        stuck[r] = mask;
        cols[r] = col;
    }
    return cell;
}

/* acc += v (v >= 0) unless the sum would pass INT64_MAX; 0 if it would. */
static inline int add_total(uint64_t *acc, int64_t v)
{
    uint64_t sum;
    if (__builtin_add_overflow(*acc, (uint64_t)v, &sum) || sum > (uint64_t)INT64_MAX) {
        return 0;
    }
    *acc = sum;
    return 1;
}

/* A spin's total line pay (multiple of the bet per line) by the stage's reader; *prog |= progressive shown. */
static inline int64_t pay_stage(const kern_slot_game *g, const line_reader *rd, const kern_slot_lines *ln,
                                const kern_slot_reelset *rs, const uint32_t *stops, const uint8_t *const *cols,
                                slot_ways_pay_fn tables_pay, int *prog)
{
    if (!rd->rule) {
        return pay_lines(ln, rd, rs->reels, cols, prog);
    }
    if (!rd->use_tables) { /* < 2^63: spin_win_fits (wrapping arithmetic, exact below 2^64) */
        return (int64_t)slot_ways_cells_pay(rd->rule, rs->reels, rs->rows, cols, prog);
    }
    *prog |= slot_ways_prog_shown(rd->rule, rs->rows, cols);
    return (int64_t)tables_pay(&rd->tables, stops);
}

int kern_slot_simulate(rng_source *src, const kern_slot_game *g, uint64_t n, kern_slot_tally *t)
{
    if (!game_ok(g)) {
        t->refused = KERN_SLOT_REFUSED_TABLES;
        return RNG_E_ARGUMENT;
    }
    /* Below this every per-spin product is exact: only sums need checking. */
    if (!spin_win_fits(most_line_pay(g, &g->base_lines, &g->base_ways, &g->base), g->scatter_pay, g->max_scatter,
                       g->bet_per_line, g->total_bet, 1) ||
        !spin_win_fits(most_line_pay(g, &g->feature_lines, &g->feature_ways, &g->feature), g->scatter_pay,
                       g->max_scatter, g->bet_per_line, g->total_bet, g->multiplier)) {
        t->refused = KERN_SLOT_REFUSED_OVERFLOW;
        return RNG_E_ARGUMENT;
    }
    /* The totals live in a local copy while spinning (the compiler keeps them in registers
       instead of storing through the caller's pointer every play), written back at the end. */
    kern_slot_tally *const caller = t;
    kern_slot_tally local = *t;
    t = &local;
    kern_slot_readers own, *readers = g->readers;
    memset(&own, 0, sizeof own);
    int rc = readers ? RNG_OK : readers_init(&own, g);
    readers = readers ? readers : &own;
    line_reader *const base = &readers->base, *const feat = readers->shared ? &readers->base : &readers->feat;
    const slot_ways_pay_fn tables_pay = slot_ways_pay_for(kern_slot_get_impl());
    if (rc != RNG_OK) {
        goto out;
    }
    t->path_reader = base->use_tables ? KERN_SLOT_PAID_TABLES : base->rule ? KERN_SLOT_PAID_CELLS : KERN_SLOT_PAID_LINES;
    const uint8_t *cols[MAX_REELS];
    uint32_t stops[MAX_REELS];
    uint8_t sticky_window[MAX_REELS * MAX_ROWS];
    uint32_t reels = g->base.reels;
    for (uint64_t i = 0; i < n; i++) {
        int prog = 0;
        uint32_t scat = spin_reels(src, g->draws, &g->base, stops, cols);
        if (base->use_tables && g->draws && g->draws->pos + 2 * reels <= g->draws->len) {
            /* the spin after next has its stops drawn already (unless a feature comes first):
               fetch its pair entries, the walk's cache misses, while this one is paid */
            slot_ways_prefetch(&base->tables, g->draws->buf + g->draws->pos + reels);
        }
        int64_t lines = pay_stage(g, base, &g->base_lines, &g->base, stops, cols, tables_pay, &prog);
        int64_t line_win = lines * g->bet_per_line;                  /* exact: spin_win_fits */
        int64_t scatter_win = g->scatter_pay[scat] * g->total_bet;
        int64_t win = line_win + scatter_win;
        int hit = win > 0;
        uint64_t remaining = g->trigger_spins[scat];
        if (remaining) {
            uint64_t played = 0;
            int64_t feature_win = 0;
            uint8_t stuck[MAX_REELS] = {0}; /* sticky positions: bit h of reel r */
            hit = 1;
            t->features++;
            while (remaining) {
                int unused = 0;
                remaining--;
                if (++played > g->max_free_spins) {
                    t->refused = KERN_SLOT_REFUSED_RUNAWAY;
                    rc = RNG_E_ARGUMENT;
                    goto out;
                }
                uint32_t fs = spin_reels(src, g->draws, &g->feature, stops, cols);
                if (g->sticky) {
                    fs = lay_sticky(g, stuck, cols, sticky_window);
                    if (fs > g->max_scatter) {
                        t->refused = KERN_SLOT_REFUSED_TABLES;
                        rc = RNG_E_ARGUMENT;
                        goto out;
                    }
                }
                int64_t fl = pay_stage(g, feat, &g->feature_lines, &g->feature, stops, cols, tables_pay, &unused);
                int64_t spin_win = g->multiplier * (fl * g->bet_per_line + g->scatter_pay[fs] * g->total_bet);
                if (__builtin_add_overflow(feature_win, spin_win, &feature_win)) {
                    goto overflow;
                }
                remaining += g->retrigger_spins[fs];
            }
            t->free_spins += played;
            if (!add_total(&t->feature_win, feature_win) || __builtin_add_overflow(win, feature_win, &win)) {
                goto overflow;
            }
        }
        if (prog) {
            hit = 1;
            t->progressive_hits++;
            if (__builtin_add_overflow(win, g->progressive_reset, &win)) {
                goto overflow;
            }
        }
        if (g->jackpot_reset && g->jackpot_reset[scat] >= 0) { /* the base window's cell wins a level */
            hit = 1;
            t->jackpot_hits++;
            if (!add_total(&t->jackpot_win, g->jackpot_reset[scat]) ||
                __builtin_add_overflow(win, g->jackpot_reset[scat], &win)) {
                goto overflow;
            }
        }
        t->plays++;
        t->hits += (uint64_t)hit;
        if (!add_total(&t->line_win, line_win) || !add_total(&t->scatter_win, scatter_win)) {
            goto overflow;
        }
        if ((uint64_t)win > t->max_win) {
            t->max_win = (uint64_t)win;
        }
#if defined(__SIZEOF_INT128__)
        /* win < 2^63, so its square fits in 126 bits; the sum is checked. */
        __uint128_t sq = (__uint128_t)(uint64_t)win * (uint64_t)win;
        __uint128_t acc = (__uint128_t)t->win_sq_hi << 64 | t->win_sq_lo;
        if (__builtin_add_overflow(acc, sq, &acc)) {
            goto overflow;
        }
        t->win_sq_lo = (uint64_t)acc;
        t->win_sq_hi = (uint64_t)(acc >> 64);
#else
#error "kern_slot_simulate needs a 128-bit integer type for the sum of squares"
#endif
    }
    if (src->status != RNG_OK) {
        rc = src->status;
    }
    goto out;
overflow:
    t->refused = KERN_SLOT_REFUSED_OVERFLOW;
    rc = RNG_E_ARGUMENT;
out:
    *caller = local;
    readers_free(&own);
    return rc;
}

int kern_slot_stops(rng_source *src, uint32_t reels, const uint32_t *bound, uint64_t n, uint32_t *out)
{
    for (uint32_t r = 0; r < reels; r++) {
        if (bound[r] == 0) {
            return RNG_E_ARGUMENT;
        }
    }
    for (uint64_t i = 0; i < n && src->status == RNG_OK; i++) {
        for (uint32_t r = 0; r < reels; r++) {
            out[i * reels + r] = rng_bounded32(src, bound[r]);
        }
    }
    return src->status;
}
