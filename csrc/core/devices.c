/*
 * devices.c -- bulk dice and wheel outcomes (see devices.h, shuffle.h).
 */
#include "devices.h"

int rng_uniform8(rng_source *src, uint32_t s, uint32_t void_index, uint8_t *out, size_t count,
                 unsigned bits)
{
    uint64_t limit = rng_batch_limit(bits);
    if (limit == 0 || s < 1 || s > 256 || s > limit || (s == 1 && void_index == 0)) {
        return RNG_E_ARGUMENT;
    }
    if (s == 1) {
        for (size_t i = 0; i < count; i++) {
            out[i] = 0; /* one outcome: certain, consumes no bits */
        }
        return RNG_OK;
    }
    /* Plan: k = the most outcomes per word with s^k <= limit. */
    uint64_t product = s;
    unsigned k = 1;
    while (k < RNG_BATCH_MAX) {
        uint64_t low;
        if (rng_mul64(product, s, &low) != 0 || low > limit) {
            break;
        }
        product = low;
        k++;
    }
    uint64_t pl = product << (64 - bits);
    size_t done = 0;
    if (void_index >= s) {
        /* Every outcome kept: whole batches straight into out. */
        while (count - done >= k) {
            uint64_t r;
            int status = rng_batch_word(src, product, pl, &r);
            if (status != RNG_OK) {
                return status;
            }
            for (unsigned j = 0; j < k; j++) {
                out[done + j] = (uint8_t)rng_batch_next(&r, s);
            }
            done += k;
        }
    }
    /* Voided outcomes are dropped (the wheel is spun again); the last
     * batch's surplus outcomes are discarded. */
    while (done < count) {
        uint64_t r;
        int status = rng_batch_word(src, product, pl, &r);
        if (status != RNG_OK) {
            return status;
        }
        for (unsigned j = 0; j < k && done < count; j++) {
            uint32_t outcome = rng_batch_next(&r, s);
            if (outcome != void_index) {
                out[done++] = (uint8_t)outcome;
            }
        }
    }
    return src->status;
}
