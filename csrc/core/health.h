/*
 * health.h -- SP 800-90B section 4.4 health tests on the entropy the
 * engines take from the operating system.
 *
 * The samples are the bytes the OS delivers (8-bit samples), with a claimed
 * min-entropy of H = RNG_HEALTH_H_BITS bits per sample (full entropy: the
 * engines' entropy amounts count 8 bits per byte, and CTR_DRBG without the
 * derivation function requires full-entropy input) and a false-positive
 * probability alpha = 2^-RNG_HEALTH_ALPHA_LOG2 = 2^-20, SP 800-90B's
 * recommended value.  The cutoffs come from the standard's formulas:
 *
 *   Repetition Count Test (4.4.1)    C = 1 + ceil(-log2(alpha) / H)
 *       = 1 + ceil(20 / 8) = 4: four identical consecutive samples fail.
 *   Adaptive Proportion Test (4.4.2) C = 1 + CRITBINOM(W, 2^-H, 1 - alpha),
 *       W = 512 (non-binary samples) = 13: a window of 512 samples in which
 *       the first sample occurs 13 times or more fails.
 *
 * rng_health_rct_cutoff and rng_health_apt_cutoff compute them for any H
 * (the tests check them against the standard's Table 2).
 *
 * rng_health_feed runs both tests over a sample stream on an explicit
 * state; the process-wide state behind rng_health_check (entropy.c calls it
 * on every OS read) is one continuous stream of every byte the OS has
 * delivered to this process.  Start-up testing (4.3): before the first
 * entropy read is used, and again after any failure, 1,024 samples are
 * taken from the OS, tested and discarded.  A failure makes the entropy
 * read return RNG_E_HEALTH_RCT or RNG_E_HEALTH_APT (naming the test; the
 * bytes are wiped); the engine that asked latches it and outputs nothing
 * more.  The next read by anyone starts
 * over with a fresh start-up test.
 */
#ifndef RNG_HEALTH_H
#define RNG_HEALTH_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define RNG_HEALTH_H_BITS 8
#define RNG_HEALTH_ALPHA_LOG2 20
#define RNG_HEALTH_APT_WINDOW 512
#define RNG_HEALTH_STARTUP_SAMPLES 1024
#define RNG_HEALTH_PASS 0
#define RNG_HEALTH_RCT 1  /* bit: the Repetition Count Test failed */
#define RNG_HEALTH_APT 2  /* bit: the Adaptive Proportion Test failed */
#define RNG_HEALTH_MAX_WINDOW 4096

typedef struct rng_health {
    uint32_t rct_cutoff;  /* identical consecutive samples that fail */
    uint32_t apt_cutoff;  /* occurrences of a window's first sample that fail */
    uint32_t apt_window;  /* samples per window */
    uint32_t rct_run;     /* length of the current run of rct_value */
    uint32_t apt_count;   /* occurrences of apt_value in the window so far */
    uint32_t apt_seen;    /* samples of the window so far (0: a new window starts) */
    uint8_t rct_value;
    uint8_t apt_value;
    uint64_t samples;     /* samples fed so far */
    int failed;           /* RNG_HEALTH_PASS, or the test that failed (latched) */
    uint64_t failed_at;   /* index of the sample at which it failed */
} rng_health;

/* SP 800-90B 4.4.1: 1 + ceil(alpha_log2 / h) for alpha = 2^-alpha_log2. */
uint32_t rng_health_rct_cutoff(double h, int alpha_log2);
/* SP 800-90B 4.4.2: 1 + CRITBINOM(window, 2^-h, 1 - 2^-alpha_log2), CRITBINOM
   being the smallest k whose binomial CDF reaches the criterion; 0 for a
   window outside 1 .. RNG_HEALTH_MAX_WINDOW. */
uint32_t rng_health_apt_cutoff(uint32_t window, double h, int alpha_log2);

/* A fresh state with the given cutoffs (no samples yet). */
void rng_health_init(rng_health *t, uint32_t rct_cutoff, uint32_t apt_cutoff, uint32_t apt_window);
/* Feed n samples; stops at the first failure.  RNG_HEALTH_PASS, or the
   tests that failed at that sample (RNG_HEALTH_RCT | RNG_HEALTH_APT bits;
   also latched in t->failed, with the sample's index in t->failed_at).  A
   state that has failed fails every later feed at once. */
int rng_health_feed(rng_health *t, const uint8_t *samples, size_t n);
/* Feed n samples, counting failures instead of stopping: after each one the
   tests start over (a new run, a new window) at the next sample.  For the
   false-positive rate on good data. */
void rng_health_count(rng_health *t, const uint8_t *samples, size_t n, uint64_t *rct_failures,
                      uint64_t *apt_failures);

/* The process-wide tests' readouts: their cutoff (test RNG_HEALTH_RCT or
   RNG_HEALTH_APT), start-up tests passed, alarms (failures) of a test, OS
   samples tested (start-up samples included). */
uint32_t rng_health_cutoff(int test);
uint64_t rng_health_startups(void);
uint64_t rng_health_alarms(int test);
uint64_t rng_health_samples(void);
/* cffi:end */

/* Start-up test when due, then test the n bytes just read from the OS
   (entropy.c calls it with the health lock held).  RNG_OK,
   RNG_E_HEALTH_RCT or RNG_E_HEALTH_APT, or what `startup_read` (which takes
   start-up samples from the OS) returned. */
int rng_health_check(const uint8_t *bytes, size_t n, int (*startup_read)(uint8_t *out, size_t n));
/* The health lock, held around an OS read and its check. */
void rng_health_lock(void);
void rng_health_unlock(void);

#endif
