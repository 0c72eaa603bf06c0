/*
 * shuffle.c -- Fisher-Yates from the end with batched bounded indices.
 * The reasoning (and the reduced-width proof hook `bits`) is in shuffle.h.
 *
 * Two kernels give the same output, word for word:
 *   - the scalar kernel: each batch's chain and swaps together (any row
 *     count, any n; the only kernel without AVX2);
 *   - the group kernel for bulk calls (rng_shuffle16_rows, 16 rows at a
 *     time, n <= 65536): the accepted words of 16 rows first, then their
 *     index chains on the vector unit (shuffle_avx2.h), then each row's
 *     swaps from the stored indices.  The scalar kernel is bound by the one
 *     64 x 64 -> 128-bit multiplier (a MUL per swap); the group kernel
 *     moves that work to the vector unit and writes finished positions
 *     straight to the output, four per store.
 *
 * The swaps run on a 32-bit working copy: 16-bit loads and stores that hit
 * recently stored elements forward slowly on current x86 cores, and the
 * widen/narrow copies cost far less than that stall (measured: 416-card
 * swaps 0.70 us as uint16, 0.44 us as uint32).
 */
#include <stdlib.h>
#include <string.h>
#include "shuffle.h"
#include "chacha20.h" /* rng_chacha_get_impl: the library's one SIMD switch */
#include "shuffle_avx2.h"

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
 * The words a call draws, in keystream order, read in bulk (words64) but
 * never beyond what the call will consume: every batch still to be drawn
 * takes at least one word, so holding at most `batches_left` unread words
 * means every word read is used.  Words are taken strictly in order, so a
 * rejected batch takes the next word exactly as a word-at-a-time loop
 * would: the output and the source's final position equal those of
 * reading one word at a time.
 */
#define QUEUE_WORDS 512

typedef struct {
    rng_source *src;
    uint64_t word[QUEUE_WORDS];
    size_t next, end;      /* word[next..end) are read but not yet taken */
    uint64_t batches_left; /* batches still to draw, the current one included */
} word_queue;

/* Move the unread words to the front and read as many more as fit and are
 * sure to be used.  Returns the source's status. */
static int queue_refill(word_queue *q)
{
    size_t unread = q->end - q->next;
    memmove(q->word, q->word + q->next, unread * sizeof *q->word);
    uint64_t allowed = q->batches_left - unread; /* unread <= batches_left always */
    size_t room = QUEUE_WORDS - unread;
    size_t n = allowed < room ? (size_t)allowed : room;
    q->next = 0;
    q->end = unread;
    int status = q->src->words64(q->src->state, q->word + unread, n);
    if (status == RNG_OK) {
        q->end += n;
    }
    return status;
}

static inline int queue_take(word_queue *q, uint64_t *x)
{
    if (q->next == q->end) {
        int status = queue_refill(q);
        if (status != RNG_OK) {
            return status;
        }
    }
    *x = q->word[q->next++];
    return RNG_OK;
}

/* The accepted word of batch t: the next word that Lemire's rule accepts. */
static inline int batch_word(word_queue *q, const shuffle_plan *plan, size_t t, unsigned shift,
                             uint64_t *x)
{
    uint64_t product = plan->product[t], pl = product << shift;
    do {
        int status = queue_take(q, x);
        if (status != RNG_OK) {
            return status;
        }
    } while (!rng_batch_accept(*x, product, pl)); /* rejected: the batch takes the next word */
    q->batches_left--;
    return RNG_OK;
}

/* ---- the scalar kernel -------------------------------------------------- */

/* One Fisher-Yates pass over a[0..n) following the plan, words from q. */
static int shuffle_planned(word_queue *q, uint32_t *a, uint32_t n, const shuffle_plan *plan,
                           unsigned shift)
{
    uint32_t b = n; /* a[0..b) is still to be shuffled; b is the next bound */
    for (size_t t = 0; t < plan->batches; t++) {
        uint64_t x;
        int status = batch_word(q, plan, t, shift, &x);
        if (status != RNG_OK) {
            return status;
        }
        swap_batch(a, b, plan->count[t], x);
        b -= plan->count[t];
    }
    return RNG_OK;
}

/* Row `from` shuffled into `row` by the scalar kernel. */
static int scalar_row(word_queue *q, const uint16_t *from, uint16_t *row, uint32_t *work, uint32_t n,
                      const shuffle_plan *plan, unsigned shift)
{
    for (uint32_t i = 0; i < n; i++) {
        work[i] = from[i];
    }
    int status = shuffle_planned(q, work, n, plan, shift);
    if (status == RNG_OK) {
        for (uint32_t i = 0; i < n; i++) {
            row[i] = (uint16_t)work[i];
        }
    }
    return status;
}

/* ---- the group kernel --------------------------------------------------- */

#define GROUP RNG_SHUFFLE_GROUP

/* The accepted words of GROUP consecutive rows, row l's batch t at
 * words[t * GROUP + rng_shuffle_lane(l)], taken in the scalar kernel's
 * order.  Fast path: when the queue holds a whole row's words and none of
 * them is near rejection (rng_batch_near), the row takes them all at once. */
static int group_words(word_queue *q, const shuffle_plan *plan, unsigned shift, uint64_t *words)
{
    size_t batches = plan->batches;
    for (unsigned l = 0; l < GROUP; l++) {
        uint64_t *lane = words + rng_shuffle_lane(l);
        if (q->end - q->next < batches) {
            int status = queue_refill(q);
            if (status != RNG_OK) {
                return status;
            }
        }
        if (q->end - q->next >= batches) {
            const uint64_t *w = q->word + q->next;
            if (!rng_shuffle_any_near_avx2(w, plan->product, shift, batches)) {
                for (size_t t = 0; t < batches; t++) {
                    lane[t * GROUP] = w[t];
                }
                q->next += batches;
                q->batches_left -= batches;
                continue;
            }
        }
        for (size_t t = 0; t < batches; t++) {
            int status = batch_word(q, plan, t, shift, &lane[t * GROUP]);
            if (status != RNG_OK) {
                return status;
            }
        }
    }
    return RNG_OK;
}

/* One row of a group: Fisher-Yates from the end on a copy of `fresh32`, the
 * index for position p at idx[(n - 1 - p) * GROUP].  Position p is final
 * once its swap is done and no later swap reads it (later indices are
 * < p), so the swap writes a[q]'s value straight to out[p] and only moves
 * a[p] into slot q; finished positions go out four per 64-bit store. */
static void group_row(const uint32_t *fresh32, uint32_t n, const uint16_t *idx, uint16_t *out,
                      uint32_t *a)
{
    memcpy(a, fresh32, n * sizeof *a);
    uint32_t p = n - 1;
    for (; p >= 4; p -= 4, idx += 4 * GROUP) {
        uint32_t q0 = idx[0], q1 = idx[GROUP], q2 = idx[2 * GROUP], q3 = idx[3 * GROUP];
        uint64_t v0 = a[q0];
        a[q0] = a[p];
        uint64_t v1 = a[q1];
        a[q1] = a[p - 1];
        uint64_t v2 = a[q2];
        a[q2] = a[p - 2];
        uint64_t v3 = a[q3];
        a[q3] = a[p - 3];
        rng_store64_le((uint8_t *)(out + p - 3), v3 | v2 << 16 | v1 << 32 | v0 << 48);
    }
    for (; p > 0; p--, idx += GROUP) {
        uint32_t q = idx[0], v = a[q];
        a[q] = a[p];
        out[p] = (uint16_t)v;
    }
    out[0] = (uint16_t)a[0];
}

/* Group kernel for rows [0, rows - rows % GROUP) of a bulk call; the caller
 * finishes the remaining rows with the scalar kernel. */
static int group_rows(word_queue *q, const uint16_t *fresh, uint16_t *out, uint32_t n,
                      size_t rows, const shuffle_plan *plan, unsigned shift)
{
    size_t batches = plan->batches;
    void *heap = malloc(batches * GROUP * sizeof(uint64_t) + (size_t)(n - 1) * GROUP * sizeof(uint16_t)
                        + 2 * (size_t)n * sizeof(uint32_t));
    if (heap == NULL) {
        return RNG_E_MEMORY;
    }
    uint64_t *words = heap;
    uint32_t *work = (uint32_t *)(words + batches * GROUP);
    uint32_t *fresh32 = work + n; /* widened once; each row starts as a plain copy */
    uint16_t *idx = (uint16_t *)(fresh32 + n);
    for (uint32_t i = 0; i < n; i++) {
        fresh32[i] = fresh[i];
    }
    int status = RNG_OK;
    for (size_t r = 0; r + GROUP <= rows && status == RNG_OK; r += GROUP) {
        status = group_words(q, plan, shift, words);
        if (status == RNG_OK) {
            rng_shuffle_group_indices_avx2(plan->count, batches, n, words, idx);
            for (unsigned l = 0; l < GROUP; l++) {
                group_row(fresh32, n, idx + l, out + (r + l) * n, work);
            }
        }
    }
    free(heap);
    return status;
}

int rng_shuffle_uses_groups(size_t n, size_t rows)
{
    return rows >= GROUP && n >= 2 && n <= 65536 && rng_chacha_uses_avx2();
}

/*
 * Shuffle `rows` stacks of n: row r of out (uint16) becomes a shuffle of
 * `fresh` (or, with fresh == NULL and rows == 1, of out itself; or, with
 * `wide` given and rows == 1, the 32-bit items of wide itself).  One plan
 * serves every row.
 */
static int shuffle_rows(rng_source *src, const uint16_t *fresh, uint16_t *out, uint32_t *wide,
                        size_t n, size_t rows, unsigned bits)
{
    uint64_t limit = rng_batch_limit(bits);
    if (limit == 0 || n > limit || n > UINT32_MAX) {
        return RNG_E_ARGUMENT;
    }
    uint64_t product_stack[ON_STACK];
    uint32_t count_stack[ON_STACK], work_stack[ON_STACK];
    shuffle_plan plan = {product_stack, count_stack, 0};
    uint32_t *work = work_stack;
    void *heap = NULL;
    if (n > ON_STACK) {
        heap = malloc(n * (sizeof(uint64_t) + 2 * sizeof(uint32_t)));
        if (heap == NULL) {
            return RNG_E_MEMORY;
        }
        plan.product = heap;
        plan.count = (uint32_t *)(plan.product + n);
        work = plan.count + n;
    }
    plan_shuffle(&plan, (uint32_t)n, limit);
    word_queue queue;
    queue.src = src;
    queue.next = queue.end = 0;
    /* rows * batches <= rows * n, the size of `out`: no overflow. */
    queue.batches_left = (uint64_t)rows * plan.batches;
    int status = src->status;
    size_t r = 0;
    if (wide != NULL) { /* one row of 32-bit items, shuffled where it is */
        status = status == RNG_OK ? shuffle_planned(&queue, wide, (uint32_t)n, &plan, 64 - bits) : status;
        r = rows;
    } else if (fresh != NULL && rng_shuffle_uses_groups(n, rows) && status == RNG_OK) {
        status = group_rows(&queue, fresh, out, (uint32_t)n, rows, &plan, 64 - bits);
        r = rows - rows % GROUP;
    }
    const uint16_t *from = fresh ? fresh : out;
    for (; r < rows && status == RNG_OK; r++) {
        status = scalar_row(&queue, from, out + r * n, work, (uint32_t)n, &plan, 64 - bits);
    }
    free(heap);
    return status == RNG_OK ? src->status : status;
}

int rng_shuffle16(rng_source *src, uint16_t *a, size_t n, unsigned bits)
{
    return shuffle_rows(src, NULL, a, NULL, n, 1, bits);
}

int rng_shuffle32(rng_source *src, uint32_t *a, size_t n, unsigned bits)
{
    return shuffle_rows(src, NULL, NULL, a, n, 1, bits);
}

int rng_shuffle16_rows(rng_source *src, const uint16_t *fresh, size_t width, uint16_t *out,
                       size_t rows, unsigned bits)
{
    if (rows == 0) {
        return rng_batch_limit(bits) ? RNG_OK : RNG_E_ARGUMENT;
    }
    return shuffle_rows(src, fresh, out, NULL, width, rows, bits);
}
