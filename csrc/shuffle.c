/*
 * shuffle.c -- Fisher-Yates from the end with batched bounded indices.
 * The reasoning (and the reduced-width proof hook `bits`) is in shuffle.h.
 *
 * The swaps run on a 32-bit working copy: 16-bit loads and stores that hit
 * recently stored elements forward slowly on current x86 cores, and the
 * widen/narrow copies cost far less than that stall (measured: 416-card
 * swaps 0.70 us as uint16, 0.44 us as uint32).
 */
#include <stdlib.h>
#include <string.h>
#include "shuffle.h"

/* Stacks up to this size are planned and shuffled on the C stack (12 decks = 624). */
#define ON_STACK 1024

uint64_t rng_batch_limit(unsigned bits)
{
    if (bits < 2 || bits > 64) {
        return 0;
    }
    unsigned margin = bits / 8 ? bits / 8 : 1;
    return (uint64_t)1 << (bits - margin);
}

/* The batches of a shuffle of n items: bounds n, n-1, ..., 2 taken greedily
 * while the product stays <= limit (a batch's first bound always fits, as
 * n <= limit).  Batch t has count[t] bounds and product[t]. */
typedef struct {
    uint64_t *product;
    uint32_t *count;
    size_t batches;
} shuffle_plan;

static void plan_shuffle(shuffle_plan *plan, uint32_t n, uint64_t limit)
{
    size_t t = 0;
    uint32_t b = n;
    while (b > 1) {
        uint64_t p = b;
        uint32_t k = 1;
        while (b - k > 1 && k < RNG_BATCH_MAX) {
            uint64_t low;
            if (rng_mul64(p, b - k, &low) != 0 || low > limit) {
                break;
            }
            p = low;
            k++;
        }
        plan->product[t] = p;
        plan->count[t] = k;
        t++;
        b -= k;
    }
    plan->batches = t;
}

/* Kept out of line on purpose: inlined into the batch loop, GCC 12 widens
 * the bound to a 128-bit induction variable (an extra multiplication per
 * swap) and spills the chain word; alone it compiles to one MUL per swap. */
#if defined(__GNUC__)
#define SHUFFLE_NOINLINE __attribute__((noinline))
#else
#define SHUFFLE_NOINLINE
#endif

/* The k swaps of one accepted batch: positions b-1, b-2, ..., b-k, each with
 * an index uniform on [0, position] from the chain started at word r. */
SHUFFLE_NOINLINE static void swap_batch(uint32_t *a, uint32_t b, uint32_t k, uint64_t r)
{
    for (uint32_t j = 0; j < k; j++) {
        uint32_t bound = b - j;
        uint32_t other = rng_batch_next(&r, bound); /* uniform on [0, bound) */
        uint32_t tmp = a[bound - 1];
        a[bound - 1] = a[other];
        a[other] = tmp;
    }
}

/*
 * One Fisher-Yates pass over a[0..n) following the plan.  `words` has room
 * for plan->batches words: every batch needs at least one, so they are read
 * up front in one tight loop (no registers live across the source calls in
 * the swap loop); a rejected batch takes the next word in the same order a
 * word-at-a-time loop would, so the consumption is identical.
 */
static int shuffle_planned(rng_source *src, uint32_t *a, uint32_t n, const shuffle_plan *plan,
                           unsigned shift, uint64_t *words)
{
    size_t have = plan->batches;
    for (size_t t = 0; t < have; t++) {
        words[t] = src->next64(src->state);
    }
    if (src->status != RNG_OK) {
        return src->status;
    }
    size_t next = 0;   /* next unused word in words[] */
    uint32_t b = n;    /* a[0..b) is still to be shuffled; b is the next bound */
    for (size_t t = 0; t < plan->batches; t++) {
        uint64_t product = plan->product[t], pl = product << shift;
        uint64_t r = words[next++];
        while (!rng_batch_accept(r, product, pl)) {
            /* Rejected: shift the unused words down and read one more at the end. */
            memmove(words + next - 1, words + next, (have - next) * sizeof *words);
            words[have - 1] = src->next64(src->state);
            if (src->status != RNG_OK) {
                return src->status;
            }
            r = words[next - 1];
        }
        swap_batch(a, b, plan->count[t], r);
        b -= plan->count[t];
    }
    return src->status;
}

/*
 * Shuffle `rows` stacks of n: row r of out (uint16) becomes a shuffle of
 * `fresh` (or, with fresh == NULL and rows == 1, of out itself).  One plan
 * serves every row.
 */
static int shuffle_rows(rng_source *src, const uint16_t *fresh, uint16_t *out, size_t n,
                        size_t rows, unsigned bits)
{
    uint64_t limit = rng_batch_limit(bits);
    if (limit == 0 || n > limit || n > UINT32_MAX) {
        return RNG_E_ARGUMENT;
    }
    uint64_t product_stack[ON_STACK];
    uint32_t count_stack[ON_STACK], work_stack[ON_STACK];
    uint64_t words_stack[ON_STACK];
    shuffle_plan plan = {product_stack, count_stack, 0};
    uint32_t *work = work_stack;
    uint64_t *words = words_stack;
    void *heap = NULL;
    if (n > ON_STACK) {
        heap = malloc(n * (2 * sizeof(uint64_t) + 2 * sizeof(uint32_t)));
        if (heap == NULL) {
            return RNG_E_MEMORY;
        }
        plan.product = heap;
        words = plan.product + n;
        plan.count = (uint32_t *)(words + n);
        work = plan.count + n;
    }
    plan_shuffle(&plan, (uint32_t)n, limit);
    const uint16_t *from = fresh ? fresh : out;
    int status = src->status;
    for (size_t r = 0; r < rows && status == RNG_OK; r++) {
        uint16_t *row = out + r * n;
        for (size_t i = 0; i < n; i++) {
            work[i] = from[i];
        }
        status = shuffle_planned(src, work, (uint32_t)n, &plan, 64 - bits, words);
        if (status == RNG_OK) {
            for (size_t i = 0; i < n; i++) {
                row[i] = (uint16_t)work[i];
            }
        }
    }
    free(heap);
    return status;
}

int rng_shuffle16(rng_source *src, uint16_t *a, size_t n, unsigned bits)
{
    return shuffle_rows(src, NULL, a, n, 1, bits);
}

int rng_shuffle16_rows(rng_source *src, const uint16_t *fresh, size_t width, uint16_t *out,
                       size_t rows, unsigned bits)
{
    if (rows == 0) {
        return rng_batch_limit(bits) ? RNG_OK : RNG_E_ARGUMENT;
    }
    return shuffle_rows(src, fresh, out, width, rows, bits);
}
