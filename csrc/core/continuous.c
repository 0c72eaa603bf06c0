/* continuous.c -- no two consecutive output blocks equal (see continuous.h). */
#include "continuous.h"

#include <string.h>

#include "byteorder.h"
#include "entropy.h"
#include "faults.h"
#include "hmac_drbg.h"
#include "rng_source.h"

void rng_continuous_init(rng_continuous *c, uint32_t block)
{
    memset(c, 0, sizeof *c);
    c->block = block;
}

static void fingerprint(const uint8_t *block, size_t n, uint8_t out[RNG_CONTINUOUS_FINGERPRINT])
{
    uint8_t digest[32];
    rng_sha256(block, n, digest);
    memcpy(out, digest, RNG_CONTINUOUS_FINGERPRINT);
    rng_memzero(digest, sizeof digest);
}

int rng_continuous_check(rng_continuous *c, uint8_t *batch, size_t n)
{
    rng_fault_output_tamper(batch, n);
    size_t b = c->block, count = n / b;
    if (count == 0) {
        return RNG_OK;
    }
    uint8_t fp[RNG_CONTINUOUS_FINGERPRINT];
    fingerprint(batch, b, fp);
    int repeated = c->primed && memcmp(fp, c->last, sizeof fp) == 0;
    /* One 64-bit word per block decides; the whole block only on a match. */
    for (size_t i = 1; i < count && !repeated; i++) {
        const uint8_t *prev = batch + (i - 1) * b, *cur = prev + b;
        repeated = rng_load64_le(prev) == rng_load64_le(cur) && memcmp(prev, cur, b) == 0;
    }
    if (count > 1) {
        fingerprint(batch + (count - 1) * b, b, fp);
    }
    memcpy(c->last, fp, sizeof fp);
    rng_memzero(fp, sizeof fp);
    c->primed = 1;
    c->blocks += count;
    return repeated ? RNG_E_CONTINUOUS : RNG_OK;
}
