/*
 * rng_source.h -- the one seam between a source of random bits and the code
 * that draws outcomes from it (bounded integers, shuffles, dice, wheels).
 *
 * The drawing side sees only this struct of function pointers, in the
 * spirit of numpy's bitgen_t.  That lets the same drawing code run on the
 * ChaCha20 engine in production and on a tiny enumerable test engine in the
 * exhaustive no-bias proofs.
 *
 * Contract:
 *   next32 / next64 return uniformly distributed words.  They read the same
 *   byte stream as fill: next32 is the next 4 bytes and next64 the next 8
 *   bytes, little-endian (so the audit contract can state consumption in
 *   bytes, whatever mix of calls drew them).
 *   words64 writes the next `count` words, exactly the values `count` calls
 *   of next64 would return, and returns the status.  It exists for speed: a
 *   shuffle reads its ~60 words in one call (one refill check, one copy)
 *   instead of ~60 indirect calls.
 *   fill writes `nbytes` uniformly distributed bytes and returns RNG_OK or
 *   a negative RNG_E* status.  A source that has failed (for example, the
 *   OS refused entropy at a reseed) latches `status` to a negative value and
 *   keeps it; callers check `status` after a batch and discard the output.
 *   A failed source's next32 / next64 return all-one words, which every
 *   bounded-integer routine accepts at once, so no rejection loop can spin.
 *   (One deliberate exception: the test engine's left-aligned layout,
 *   testengine.h, feeds reduced-width words to code that reads next64 only.)
 */
#ifndef RNG_SOURCE_H
#define RNG_SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* cffi:begin */
#define RNG_OK 0
#define RNG_E_ENTROPY -1     /* the operating system could not supply entropy */
#define RNG_E_SELFTEST -2    /* power-on self-test failed; output refused */
#define RNG_E_ARGUMENT -3    /* an argument was out of range */
#define RNG_E_EXHAUSTED -4   /* a finite source (test engine) ran out */
#define RNG_E_MEMORY -5      /* allocation failed */
#define RNG_E_HEALTH_RCT -6  /* OS entropy failed the SP 800-90B Repetition Count Test (health.h) */
#define RNG_E_HEALTH_APT -7  /* OS entropy failed the SP 800-90B Adaptive Proportion Test */
#define RNG_E_CONTINUOUS -8  /* two consecutive production output blocks were equal (continuous.h) */

typedef struct rng_source {
    void *state;
    uint32_t (*next32)(void *state);
    uint64_t (*next64)(void *state);
    int (*fill)(void *state, void *out, size_t nbytes);
    int (*words64)(void *state, uint64_t *out, size_t count);
    int status;
} rng_source;
/* cffi:end */

/* Point src at an implementation: every field set at once, so no source is
 * ever left with a stale function pointer or status. */
static inline void rng_source_bind(rng_source *src, void *state, uint32_t (*next32)(void *state),
                                   uint64_t (*next64)(void *state),
                                   int (*fill)(void *state, void *out, size_t nbytes),
                                   int (*words64)(void *state, uint64_t *out, size_t count),
                                   int status)
{
    src->state = state;
    src->next32 = next32;
    src->next64 = next64;
    src->fill = fill;
    src->words64 = words64;
    src->status = status;
}

/* words64 from a byte fill: `status` is what filling `out` with 8 * count
 * bytes returned.  On failure the words are all ones (as next64's); on a
 * big-endian host the little-endian bytes are turned into words. */
static inline int rng_source_words_from_fill(int status, uint64_t *out, size_t count)
{
    if (status != RNG_OK) {
        memset(out, 0xff, count * sizeof *out);
        return status;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (size_t i = 0; i < count; i++) {
        out[i] = __builtin_bswap64(out[i]);
    }
#endif
    return RNG_OK;
}

#endif
