/*
 * hmac_drbg.h -- HMAC_DRBG with SHA-256 (NIST SP 800-90A Rev. 1, 10.1.2).
 *
 * The mechanism only: instantiate, reseed and generate on a working state
 * (Key, V, reseed_counter), exactly as the standard's pseudocode, so the
 * CAVP known answers run against these functions directly.  The buffered
 * engine that draws from it (production and replay modes, the rng_source
 * binding) is drbg.h.  SHA-256 (FIPS 180-4) is written here, on two paths
 * giving identical digests: the SHA extensions (SHA-NI) when the CPU has
 * them, else portable C; RNGCERT_FORCE_PORTABLE=1 selects the portable path
 * (the convention of chacha20.h).  Neither has a secret-dependent branch or
 * table index, so HMAC_DRBG is constant-time.
 *
 * Limits (SP 800-90A Table 2, security strength 256): entropy input at
 * least 32 bytes, a nonce of at least 16 bytes (instantiate), at most
 * RNG_DRBG_MAX_REQUEST_BYTES per generate, and generate refuses with
 * RNG_E_EXHAUSTED ("reseed required") once reseed_counter exceeds
 * reseed_interval (at most RNG_DRBG_MAX_RESEED_INTERVAL = 2^48 requests).
 * Every input is at most RNG_DRBG_MAX_INPUT_BYTES.
 */
#ifndef RNG_HMAC_DRBG_H
#define RNG_HMAC_DRBG_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define RNG_DRBG_MAX_RESEED_INTERVAL 281474976710656
#define RNG_DRBG_MAX_REQUEST_BYTES 65536
#define RNG_DRBG_MAX_INPUT_BYTES 4294967295
#define RNG_DRBG_SECURITY_BYTES 32
#define RNG_SHA_IMPL_PORTABLE 0
#define RNG_SHA_IMPL_SHANI 1

typedef struct rng_hmac_drbg {
    uint8_t key[32];
    uint8_t v[32];
    uint64_t reseed_counter;
    uint64_t reseed_interval;  /* generate refuses once reseed_counter exceeds this */
} rng_hmac_drbg;

/* 1 when this CPU has the SHA extensions (and SSE4.1) and the build has the path. */
int rng_cpu_has_shani(void);
/* Select the SHA-256 path (RNG_SHA_IMPL_*); RNG_E_ARGUMENT if unknown or unavailable. */
int rng_sha256_set_impl(int impl);
int rng_sha256_get_impl(void);
/* "portable" or "shani": the path in use now. */
const char *rng_sha256_impl_name(void);

/* SHA-256 and HMAC-SHA-256 of a whole message (for tests and the engine). */
void rng_sha256(const uint8_t *data, size_t n, uint8_t out[32]);
void rng_hmac_sha256(const uint8_t *key, size_t key_len, const uint8_t *data, size_t n, uint8_t out[32]);

/* SP 800-90A 10.1.2.3 with reseed_interval = 2^48.  RNG_E_ARGUMENT when an
   input is too short or too long (nothing is instantiated). */
int rng_hmac_drbg_instantiate(rng_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len,
                              const uint8_t *nonce, size_t nonce_len,
                              const uint8_t *personalization, size_t personalization_len);
/* SP 800-90A 10.1.2.4. */
int rng_hmac_drbg_reseed(rng_hmac_drbg *d, const uint8_t *entropy, size_t entropy_len,
                         const uint8_t *additional, size_t additional_len);
/* SP 800-90A 10.1.2.5: n bytes into out (n <= RNG_DRBG_MAX_REQUEST_BYTES);
   RNG_E_EXHAUSTED when a reseed is required, RNG_E_ARGUMENT for a bad length. */
int rng_hmac_drbg_generate(rng_hmac_drbg *d, uint8_t *out, size_t n,
                           const uint8_t *additional, size_t additional_len);
/* cffi:end */

/* SHA-256 of four messages of exactly 32 bytes each (the digests
   rng_sha256 gives; any may be the same message), each in its one
   compression, the four interleaved: the continuous test's fingerprints
   (continuous.h). */
void rng_sha256_32x4(const uint8_t *const in[4], uint8_t out[4][32]);

#endif
