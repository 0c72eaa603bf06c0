/*
 * chacha20_selftest.h -- the power-on self-test of the ChaCha20 engine.
 *
 * The ten RFC 8439 known-answer vectors (the same records as
 * tests/vectors/chacha20_rfc8439.txt, checked equal by the tests) run on
 * every keystream path this CPU has: the portable block function, the
 * AVX2 path with the vector's block placed in every lane of an 8-block group,
 * and the AVX-512 path likewise in every lane of a 16-block group.
 * The test runs once, at the first engine initialisation; every engine
 * refuses output (RNG_E_SELFTEST) unless the last run passed, and an engine
 * that was alive when a run failed refuses for good (chacha20.h says how
 * the fast path learns of it without a check of its own).
 *
 * RFC 8439 uses a 32-bit counter and a 96-bit nonce (state words 12 and
 * 13-15); our layout is a 64-bit counter (words 12-13) and a 64-bit stream
 * (words 14-15).  The words are the same, so a vector maps as
 *     counter64 = counter | nonce_word0 << 32,
 *     stream    = nonce_word1 | nonce_word2 << 32
 * (nonce words read little-endian).
 */
#ifndef RNG_CHACHA20_SELFTEST_H
#define RNG_CHACHA20_SELFTEST_H

#include "rng_source.h"

/* cffi:begin */
#define RNG_KAT_KEY 0
#define RNG_KAT_NONCE 1
#define RNG_KAT_PLAINTEXT 2
#define RNG_KAT_CIPHERTEXT 3

/* Run the self-test if it has not run yet; RNG_OK or RNG_E_SELFTEST. */
int rng_chacha_selftest(void);
/* Run the self-test again now (on the paths available now). */
int rng_chacha_selftest_run(void);
/* 1 when the last run passed. */
int rng_chacha_selftest_passed(void);
/* Failed runs so far in this process; an engine made before a failed run
   refuses output for good. */
uint32_t rng_chacha_selftest_bad_runs(void);

/* The embedded vectors: count, and field (RNG_KAT_*) of vector i as hex,
   or NULL when out of range; rng_chacha_kat_counter gives COUNTER. */
int rng_chacha_kat_count(void);
const char *rng_chacha_kat_field(int index, int field);
long long rng_chacha_kat_counter(int index);
/* cffi:end */

#endif
