/*
 * entropy.h -- key material from the operating system, and wiping it.
 *
 * rng_entropy_fill asks the kernel (getrandom(2) on Linux, getentropy(3)
 * elsewhere) and fails closed: if the kernel cannot supply every byte it
 * returns RNG_E_ENTROPY and the caller must refuse to produce output.
 * There is deliberately no fallback (no clock, no pid, no /dev/urandom
 * re-try, no user-space pool).
 *
 * Retries are bounded, so a faulty or filtered OS cannot make a caller spin:
 * a short read is continued (it made progress); a read interrupted by a
 * signal (EINTR) is retried at most RNG_ENTROPY_MAX_INTERRUPTS times per
 * request; a read that returns 0 bytes (what a seccomp rule of RET_ERRNO|0
 * produces) is retried at most RNG_ENTROPY_MAX_EMPTY times per request; any
 * other error fails at once.
 *
 * Every byte read passes the SP 800-90B health tests (health.h) first: a
 * read whose bytes (or whose start-up samples) fail one returns
 * RNG_E_HEALTH_RCT or RNG_E_HEALTH_APT instead, with out wiped.
 *
 * The OS calls go through faults.h, the seam the test layer uses to make
 * them fail; the core itself has no test switch.
 */
#ifndef RNG_ENTROPY_H
#define RNG_ENTROPY_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define RNG_ENTROPY_MAX_INTERRUPTS 100
#define RNG_ENTROPY_MAX_EMPTY 4

/* Fill out with n bytes from the OS.  RNG_OK, RNG_E_ENTROPY,
   RNG_E_HEALTH_RCT or RNG_E_HEALTH_APT (out is then all zero). */
int rng_entropy_fill(uint8_t *out, size_t n);

/* Overwrite n bytes at p with zeros in a way the compiler cannot drop. */
void rng_memzero(void *p, size_t n);
/* cffi:end */

#endif
