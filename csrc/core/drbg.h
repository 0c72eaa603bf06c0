/*
 * drbg.h -- the buffered engine over an SP 800-90A DRBG mechanism
 * (HMAC_DRBG SHA-256, hmac_drbg.h; CTR_DRBG AES-256 with or without the
 * derivation function, ctr_drbg.h), drawn from through rng_source.
 *
 * Output.  The engine's byte stream is the concatenation of Generate
 * requests of exactly RNG_DRBG_REQUEST_BYTES bytes each, with no
 * additional input, whatever sizes the callers read: a request is either
 * written straight into a caller's buffer or buffered, and buffered bytes
 * are zeroed as they are read (no returned output stays in the state).
 *
 *   replay      instantiate(entropy, nonce, personalization) as given,
 *               then Generate(RNG_DRBG_REQUEST_BYTES) again and again, so
 *               any SP 800-90A implementation reproduces the stream.  After
 *               reseed_interval requests a reseed is required and there is
 *               no entropy to give it: the engine latches RNG_E_EXHAUSTED.
 *   production  entropy input (and nonce) from the OS at the security
 *               strength's amounts (32 bytes, 48 without the df; nonce 16
 *               bytes), reseeded from the OS when the reseed counter
 *               passes reseed_interval requests, before every request under
 *               prediction resistance, on rng_drbg_reseed, and in a forked
 *               child before its first output.  An OS failure latches
 *               RNG_E_ENTROPY (RNG_E_HEALTH_* when its bytes fail an SP 800-90B
 *               health test, health.h); there is no fallback.  Every
 *               request passes the continuous test (continuous.h: no two
 *               consecutive 32-byte output blocks equal) before any of it
 *               is read; a repeat latches RNG_E_CONTINUOUS.
 *
 * Failures latch in the engine and its source (all-one words, zeroed fill
 * output, as chacha20.h).  The power-on self-test (below) runs at the first
 * initialisation; every read checks one epoch, moved by a fork and by a
 * failed self-test run, so an engine alive at a failed run refuses output
 * for good.  Engines are not internally locked (rngcore holds a lock).
 */
#ifndef RNG_DRBG_H
#define RNG_DRBG_H

#include <stddef.h>
#include <stdint.h>
#include "continuous.h"
#include "ctr_drbg.h"
#include "hmac_drbg.h"
#include "rng_source.h"

/* cffi:begin */
#define RNG_DRBG_HMAC_SHA256 0
#define RNG_DRBG_CTR_AES256 1
#define RNG_DRBG_CTR_AES256_NO_DF 2
#define RNG_DRBG_REPLAY 0
#define RNG_DRBG_PRODUCTION 1
#define RNG_DRBG_REQUEST_BYTES 4096
#define RNG_DRBG_DEFAULT_RESEED_INTERVAL 262144

typedef union rng_drbg_working {
    rng_hmac_drbg hmac;
    rng_ctr_drbg ctr;
} rng_drbg_working;

typedef struct rng_drbg {
    rng_drbg_working w;        /* the mechanism's working state */
    uint8_t buf[4096];         /* RNG_DRBG_REQUEST_BYTES: zeros before pos, unread output after */
    uint32_t pos;
    int mechanism;             /* RNG_DRBG_HMAC_SHA256, ... */
    int mode;                  /* RNG_DRBG_REPLAY or RNG_DRBG_PRODUCTION */
    int status;                /* RNG_OK or a latched negative RNG_E_* */
    int prediction_resistance; /* production: reseed from the OS before every request */
    uint32_t epoch;            /* drbg.c's epoch when last checked (fork, failed self-test) */
    uint32_t bad_selftest_runs; /* failed self-test runs when this engine was made */
    uint64_t requests;         /* Generate requests made for output */
    uint64_t produced;         /* bytes generated for output, less any dropped unread */
    uint64_t seedings;         /* production: instantiate + reseeds from the OS */
    rng_continuous continuous; /* production: no two consecutive 32-byte output blocks equal */
    rng_source *source;
} rng_drbg;

/* Replay: instantiate with the given inputs; reseed_interval in requests
   (1 .. RNG_DRBG_MAX_RESEED_INTERVAL).  RNG_E_ARGUMENT, RNG_E_SELFTEST or RNG_OK. */
int rng_drbg_init_replay(rng_drbg *eng, int mechanism, const uint8_t *entropy, size_t entropy_len,
                         const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *personalization, size_t personalization_len, uint64_t reseed_interval);
/* Production: entropy and nonce from the OS. */
int rng_drbg_init_production(rng_drbg *eng, int mechanism, const uint8_t *personalization,
                             size_t personalization_len, uint64_t reseed_interval, int prediction_resistance);
/* Production: reseed from the OS now (with optional additional input),
   dropping buffered output.  RNG_E_ARGUMENT in replay mode. */
int rng_drbg_reseed(rng_drbg *eng, const uint8_t *additional, size_t additional_len);
/* The next nbytes of output; on failure all of out is zero. */
int rng_drbg_fill(rng_drbg *eng, void *out, size_t nbytes);
/* Bytes of output handed out so far. */
uint64_t rng_drbg_position(const rng_drbg *eng);
/* The mechanism's reseed counter (requests since the last (re)seeding, plus 1). */
uint64_t rng_drbg_reseed_counter(const rng_drbg *eng);
void rng_drbg_source(rng_drbg *eng, rng_source *src);
void rng_drbg_wipe(rng_drbg *eng);

/* Power-on self-test: one CAVP case per mechanism and the SP 800-38A
   AES-256 CTR vector, on every AES and SHA-256 path this CPU has. */
int rng_drbg_selftest(void);
int rng_drbg_selftest_run(void);
int rng_drbg_selftest_passed(void);
/* cffi:end */

#endif
