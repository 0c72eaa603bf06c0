/* continuous.c -- no output block equal to either of the two before it (see continuous.h). */
#include "continuous.h"

#include <string.h>

#include "entropy.h"
#include "faults.h"
#include "hmac_drbg.h"
#include "rng_source.h"

void rng_continuous_init(rng_continuous *c)
{
    memset(c, 0, sizeof *c);
    c->block = RNG_CONTINUOUS_BLOCK;
}

_Static_assert(RNG_CONTINUOUS_BLOCK == 32, "a block is one rng_sha256_32x2 message");

/* The fingerprints of blocks a and b (which may be the same block), the
   two hashed together: on SHA-NI the pair costs about one compression. */
static void fingerprints(const uint8_t *a, const uint8_t *b, uint8_t fa[RNG_CONTINUOUS_FINGERPRINT],
                         uint8_t fb[RNG_CONTINUOUS_FINGERPRINT])
{
    uint8_t da[32], db[32];
    rng_sha256_32x2(a, b, da, db);
    memcpy(fa, da, RNG_CONTINUOUS_FINGERPRINT);
    memcpy(fb, db, RNG_CONTINUOUS_FINGERPRINT);
    rng_memzero(da, sizeof da);
    rng_memzero(db, sizeof db);
}

/* Whether some block of p[0 .. count blocks) starts with the 64-bit word
   the block before it, or the one before that, starts with: every repeated
   block does, good output almost never (2^-63 a block).  Distance 2 is a
   repeated 64-byte unit (A B A B: a ChaCha20 keystream block whose counter
   is stuck), in which no block equals its neighbour.  Branch-free. */
static int words_repeat(const uint8_t *p, size_t count)
{
    uint64_t hit = 0, before = 0, prev, cur;
    memcpy(&prev, p, 8);
    for (size_t i = 1; i < count; i++) {
        memcpy(&cur, p + RNG_CONTINUOUS_BLOCK * i, 8);
        hit |= (prev == cur) | ((i >= 2) & (before == cur));
        before = prev;
        prev = cur;
    }
    return hit != 0;
}

/* Whether a block of p[0 .. count blocks) equals one of the two before it. */
static int blocks_repeat(const uint8_t *p, size_t count, size_t b)
{
    for (size_t i = 1; i < count; i++) {
        if (memcmp(p + (i - 1) * b, p + i * b, b) == 0 || (i >= 2 && memcmp(p + (i - 2) * b, p + i * b, b) == 0)) {
            return 1;
        }
    }
    return 0;
}

int rng_continuous_check(rng_continuous *c, uint8_t *batch, size_t n)
{
    rng_fault_output_tamper(batch, n);
    size_t b = c->block, count = n / b;
    if (count == 0) {
        return RNG_OK;
    }
    /* The first block's fingerprint (against the last batch's last block)
       and the last block's (for the next batch), in one interleaved pass. */
    uint8_t first[RNG_CONTINUOUS_FINGERPRINT], last[RNG_CONTINUOUS_FINGERPRINT];
    fingerprints(batch, batch + (count - 1) * b, first, last);
    int repeated = c->primed && memcmp(first, c->last, sizeof first) == 0;
    /* Inside the batch: the cheap word scan decides; the blocks only on a hit. */
    repeated = repeated || (words_repeat(batch, count) && blocks_repeat(batch, count, b));
    memcpy(c->last, last, sizeof last);
    rng_memzero(first, sizeof first);
    rng_memzero(last, sizeof last);
    c->primed = 1;
    c->blocks += count;
    return repeated ? RNG_E_CONTINUOUS : RNG_OK;
}
