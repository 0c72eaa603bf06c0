/*
 * poker_eval_lut.c -- building the lookup tables of poker_eval_lut.h.
 */
#include "poker_eval_lut.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* 5^r for the rank bit r of card i (KERN_PK_CARD: A is bit 12, 2..K bits 0..11) */
#define F(r, k) ((r) >= (k) ? 5u : 1u)
#define P5(r) (F(r, 1) * F(r, 2) * F(r, 3) * F(r, 4) * F(r, 5) * F(r, 6) * F(r, 7) * F(r, 8) * F(r, 9) * \
               F(r, 10) * F(r, 11) * F(r, 12))
#define KEY(i) ((uint64_t)P5((((i) % 13) + 12) % 13) | ((uint64_t)KERN_PK_SUIT(i) << 32))
#define KEY4(i) KEY(i), KEY((i) + 1), KEY((i) + 2), KEY((i) + 3)
const uint64_t kern_pk_card_key[52] = {KEY4(0), KEY4(4), KEY4(8), KEY4(12), KEY4(16), KEY4(20), KEY4(24),
                                       KEY4(28), KEY4(32), KEY4(36), KEY4(40), KEY4(44), KEY4(48)};

struct kern_pk_lut kern_pk_lut;

#define SLOTS (1u << KERN_PK_LUT_SLOT_BITS)
#define BUCKETS (1u << KERN_PK_LUT_BUCKET_BITS)
#define MAX_PATTERNS 80000 /* 6,175 + 18,395 + 49,205 rank patterns of 5, 6, 7 cards */

struct pattern {
    uint32_t key;
    uint32_t value;
};

/* The value of a hand of the rank pattern `count` (n cards) without a flush:
 * card t of the pattern in suit t mod 4, so the cards of one rank differ in
 * suit and no suit holds more than two. */
static struct pattern pattern_of(const unsigned *count)
{
    uint64_t word = 0;
    uint32_t key = 0;
    uint32_t suits = 0;
    unsigned t = 0;
    for (unsigned r = 0; r < 13; r++) {
        for (unsigned k = 0; k < count[r]; k++, t++) {
            unsigned card = (t % 4) * 13 + r;
            word |= kern_pk_card_bit[card];
            suits += kern_pk_suit_one[card];
            key += (uint32_t)kern_pk_card_key[card];
        }
    }
    return (struct pattern){key, kern_pk_value(word, suits)};
}

/* Every rank pattern of 5..7 cards (0..4 cards of each rank from `rank` on, `total` so far). */
static void patterns_from(unsigned rank, unsigned total, unsigned *count, struct pattern *out, unsigned *n)
{
    if (rank == 13) {
        if (total >= 5) {
            out[(*n)++] = pattern_of(count);
        }
        return;
    }
    for (unsigned k = 0; k <= 4 && total + k <= 7; k++) {
        count[rank] = k;
        patterns_from(rank + 1, total + k, count, out, n);
    }
    count[rank] = 0;
}

static unsigned patterns(struct pattern *out)
{
    unsigned count[13] = {0}, n = 0;
    patterns_from(0, 0, count, out, &n);
    return n;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t bucket_of(uint32_t key, uint32_t m1)
{
    return (key * m1) >> (32 - KERN_PK_LUT_BUCKET_BITS);
}

static uint32_t slot_of(uint32_t key, uint32_t m2)
{
    return (key * m2) >> (32 - KERN_PK_LUT_SLOT_BITS);
}

/* One attempt with multipliers (m1, m2): 1 if every bucket found a displacement. */
static int build_hash(const struct pattern *p, unsigned n, uint32_t m1, uint32_t m2, uint32_t *first,
                      uint32_t *next, uint32_t *order, uint8_t *used)
{
    uint32_t size[BUCKETS];
    memset(size, 0, sizeof size);
    for (uint32_t b = 0; b < BUCKETS; b++) {
        first[b] = UINT32_MAX;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t b = bucket_of(p[i].key, m1);
        next[i] = first[b];
        first[b] = i;
        size[b]++;
    }
    /* buckets by size, largest first (a counting sort; at most 64 keys per bucket are expected) */
    uint32_t k = 0;
    for (int s = 64; s >= 1; s--) {
        for (uint32_t b = 0; b < BUCKETS; b++) {
            if (size[b] == (uint32_t)s) {
                order[k++] = b;
            }
        }
    }
    for (uint32_t b = 0; b < BUCKETS; b++) {
        if (size[b] > 64) {
            return 0;
        }
    }
    memset(used, 0, SLOTS);
    memset(kern_pk_lut.disp, 0, sizeof kern_pk_lut.disp);
    for (uint32_t j = 0; j < k; j++) {
        uint32_t b = order[j], d;
        for (d = 0; d < SLOTS; d++) {
            uint32_t i;
            for (i = first[b]; i != UINT32_MAX; i = next[i]) {
                uint32_t s = slot_of(p[i].key, m2) ^ d;
                if (used[s]) {
                    break;
                }
                used[s] = 1; /* claimed tentatively; released below if the bucket does not fit */
            }
            if (i == UINT32_MAX) {
                break;
            }
            for (uint32_t u = first[b]; u != i; u = next[u]) {
                used[slot_of(p[u].key, m2) ^ d] = 0;
            }
        }
        if (d == SLOTS) {
            return 0;
        }
        kern_pk_lut.disp[b] = d;
        for (uint32_t i = first[b]; i != UINT32_MAX; i = next[i]) {
            kern_pk_lut.value[slot_of(p[i].key, m2) ^ d] = p[i].value;
        }
    }
    kern_pk_lut.m1 = m1;
    kern_pk_lut.m2 = m2;
    return 1;
}

static int lut_status = RNG_E_MEMORY;

static void build(void)
{
    struct pattern *p = malloc(MAX_PATTERNS * sizeof *p);
    uint32_t *first = malloc(BUCKETS * sizeof *first), *order = malloc(BUCKETS * sizeof *order);
    uint32_t *next = malloc(MAX_PATTERNS * sizeof *next);
    uint8_t *used = malloc(SLOTS);
    if (!p || !first || !order || !next || !used) {
        goto done;
    }
    unsigned n = patterns(p);
    uint64_t seed = 12; /* a fixed sequence of multipliers: the same tables on every run */
    int ok = 0;
    for (unsigned attempt = 0; attempt < 64 && !ok; attempt++) {
        uint32_t m1 = (uint32_t)splitmix64(&seed) | 1, m2 = (uint32_t)splitmix64(&seed) | 1;
        ok = build_hash(p, n, m1, m2, first, next, order, used);
    }
    for (unsigned i = 0; ok && i < n; i++) { /* every pattern reads back its own value */
        ok = kern_pk_lut_value(p[i].key, 0, 0x2222u) == p[i].value;
    }
    for (uint32_t mask = 0; ok && mask < (1u << 13); mask++) {
        unsigned bits = (unsigned)__builtin_popcount(mask);
        kern_pk_lut.flush[mask] = bits >= 5 && bits <= 7 ? kern_pk_value(mask, bits) : 0;
    }
    for (unsigned b = 0; b < 256; b++) {
        kern_pk_lut.byte_bit[b] = b < 52 ? kern_pk_card_bit[b] : KERN_PK_LUT_NO_CARD;
        kern_pk_lut.byte_key[b] = b < 52 ? kern_pk_card_key[b] : 0;
    }
    lut_status = ok ? RNG_OK : RNG_E_SELFTEST;
done:
    free(p);
    free(first);
    free(order);
    free(next);
    free(used);
}

int kern_pk_lut_ready(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, build);
    return lut_status;
}
