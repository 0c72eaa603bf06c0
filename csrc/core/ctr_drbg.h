/*
 * ctr_drbg.h -- CTR_DRBG with AES-256 (NIST SP 800-90A Rev. 1, 10.2), and
 * the AES block cipher it runs on (FIPS 197; CTR mode as SP 800-38A).
 *
 * AES has two paths giving identical bytes, chosen at run time:
 *   vaes      VAES on 256-bit registers (sixteen counter blocks in flight,
 *             two per instruction), when the CPU has VAES and AVX2;
 *   aesni     the AES-NI instructions (eight counter blocks in flight), when
 *             the CPU has them (VAES's key schedule and single blocks too);
 *   portable  a bitsliced C implementation: 64 bytes (four blocks) are
 *             transposed into eight bit planes and the S-box is computed as
 *             GF(2^8) inversion (x^254 by 4 multiplications and 7 squarings
 *             of planes) plus the affine map.  There is no table indexed by
 *             a secret and no secret-dependent branch, so it is
 *             constant-time (no cache-timing leak of the key or state).
 * The default is the fastest available (vaes, aesni, portable), unless the environment has
 * RNGCERT_FORCE_PORTABLE=1 (the convention of chacha20.h: exactly "1";
 * any other value leaves the default).
 *
 * The mechanism (instantiate, reseed, generate) follows the standard's
 * pseudocode with keylen 256, blocklen 128, seedlen 384 and ctr_len =
 * blocklen (V is one 128-bit big-endian counter), with the derivation
 * function (Block_Cipher_df, 10.3.2, df = 1) or without it (df = 0: entropy
 * input of exactly 48 bytes, personalization and additional input of at
 * most 48 bytes, zero-padded).  Limits as hmac_drbg.h.
 */
#ifndef RNG_CTR_DRBG_H
#define RNG_CTR_DRBG_H

#include <stddef.h>
#include <stdint.h>
#include "hmac_drbg.h"
#include "rng_source.h"

/* cffi:begin */
#define RNG_AES_IMPL_PORTABLE 0
#define RNG_AES_IMPL_AESNI 1
#define RNG_AES_IMPL_VAES 2
#define RNG_CTR_DRBG_SEEDLEN 48

typedef struct rng_aes_key {
    uint8_t round_keys[240];   /* 4 * (rounds + 1) words, FIPS 197 byte order */
    int rounds;                /* 10, 12 or 14 */
} rng_aes_key;

typedef struct rng_ctr_drbg {
    rng_aes_key key;           /* the working state's Key, expanded */
    uint8_t v[16];
    uint64_t reseed_counter;
    uint64_t reseed_interval;  /* generate refuses once reseed_counter exceeds this */
    int df;                    /* 1: derivation function; 0: none */
} rng_ctr_drbg;

/* 1 when this CPU has AES-NI (and SSE4.1) and the build has the path. */
int rng_cpu_has_aesni(void);
/* 1 when it also has VAES and AVX2 (AES rounds on two blocks per instruction). */
int rng_cpu_has_vaes(void);
/* Select the AES path (RNG_AES_IMPL_*); RNG_E_ARGUMENT if unknown or unavailable. */
int rng_aes_set_impl(int impl);
int rng_aes_get_impl(void);
/* "portable", "aesni" or "vaes": the path in use now. */
const char *rng_aes_impl_name(void);

/* AES-CTR keystream (SP 800-38A): nblocks blocks E(K, counter + i), the
   counter a 128-bit big-endian integer; key_len 16, 24 or 32.  RNG_OK or
   RNG_E_ARGUMENT. */
int rng_aes_ctr(const uint8_t *key, size_t key_len, const uint8_t counter[16], uint8_t *out, size_t nblocks);

int rng_ctr_drbg_instantiate(rng_ctr_drbg *d, int df, const uint8_t *entropy, size_t entropy_len,
                             const uint8_t *nonce, size_t nonce_len,
                             const uint8_t *personalization, size_t personalization_len);
int rng_ctr_drbg_reseed(rng_ctr_drbg *d, const uint8_t *entropy, size_t entropy_len,
                        const uint8_t *additional, size_t additional_len);
int rng_ctr_drbg_generate(rng_ctr_drbg *d, uint8_t *out, size_t n,
                          const uint8_t *additional, size_t additional_len);
/* cffi:end */

#endif
