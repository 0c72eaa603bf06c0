/* health.c -- SP 800-90B 4.4 health tests (Repetition Count, Adaptive
 * Proportion), their cutoffs, and the process-wide tests on OS entropy with
 * start-up testing; see health.h. */
#include "health.h"

#include <pthread.h>
#include <string.h>

#include "entropy.h"

/* ---- cutoffs (no libm in the core: the two functions they need) ---------- */

/* The smallest integer >= x, for 0 <= x < 2^32. */
static uint32_t ceil_u32(double x)
{
    uint32_t n = (uint32_t)x;
    return (double)n < x ? n + 1 : n;
}

/* 2^-h for h >= 0: whole halvings, then exp(-f ln 2) for the fraction f by
   its Taylor series (|f ln 2| < 0.7: 30 terms are far past double precision). */
static double exp2_neg(double h)
{
    uint32_t whole = (uint32_t)h;
    double x = -(h - whole) * 0.69314718055994530942, term = 1.0, sum = 1.0;
    for (int i = 1; i < 30; i++) {
        term *= x / i;
        sum += term;
    }
    for (uint32_t i = 0; i < whole; i++) {
        sum *= 0.5;
    }
    return sum;
}

uint32_t rng_health_rct_cutoff(double h, int alpha_log2)
{
    return 1 + ceil_u32((double)alpha_log2 / h);
}

uint32_t rng_health_apt_cutoff(uint32_t window, double h, int alpha_log2)
{
    if (window == 0 || window > RNG_HEALTH_MAX_WINDOW) {
        return 0;
    }
    /* Binomial(window, p) weights relative to the mode's (1 there), walked
       down and up from it, so nothing overflows; far tails underflow to 0,
       which is far below the criterion's precision. */
    double p = exp2_neg(h), q = 1.0 - p, weight[RNG_HEALTH_MAX_WINDOW + 1], total = 0.0;
    double alpha = exp2_neg((double)alpha_log2);
    uint32_t mode = (uint32_t)((window + 1) * p);
    mode = mode > window ? window : mode;
    weight[mode] = 1.0;
    for (uint32_t k = mode; k > 0; k--) { /* w(k-1) = w(k) k q / ((n-k+1) p) */
        weight[k - 1] = weight[k] * k * q / ((window - k + 1) * p);
    }
    for (uint32_t k = mode; k < window; k++) { /* w(k+1) = w(k) (n-k) p / ((k+1) q) */
        weight[k + 1] = weight[k] * (window - k) * p / ((k + 1) * q);
    }
    for (uint32_t k = 0; k <= window; k++) {
        total += weight[k];
    }
    double cdf = 0.0;
    uint32_t k = 0;
    for (; k < window; k++) {
        cdf += weight[k];
        if (cdf >= (1.0 - alpha) * total) {
            break;
        }
    }
    return 1 + k;
}

/* ---- the tests ----------------------------------------------------------- */

void rng_health_init(rng_health *t, uint32_t rct_cutoff, uint32_t apt_cutoff, uint32_t apt_window)
{
    memset(t, 0, sizeof *t);
    t->rct_cutoff = rct_cutoff;
    t->apt_cutoff = apt_cutoff;
    t->apt_window = apt_window;
}

/* One sample through both tests (SP 800-90B 4.4.1 and 4.4.2 as written:
   A is the run's / window's first sample, B its count).  A test that fails
   starts over at the next sample: a new run, a new window. */
static int step(rng_health *t, uint8_t x)
{
    int failed = RNG_HEALTH_PASS;
    if (t->rct_run > 0 && x == t->rct_value) {
        if (++t->rct_run >= t->rct_cutoff) {
            failed |= RNG_HEALTH_RCT;
            t->rct_run = 0;
        }
    } else {
        t->rct_value = x;
        t->rct_run = 1;
    }
    if (t->apt_seen == 0) {
        t->apt_value = x;
        t->apt_count = 1;
        t->apt_seen = 1;
    } else {
        t->apt_seen++;
        if (x == t->apt_value && ++t->apt_count >= t->apt_cutoff) {
            failed |= RNG_HEALTH_APT;
            t->apt_seen = 0;
        } else if (t->apt_seen == t->apt_window) {
            t->apt_seen = 0;
        }
    }
    t->samples++;
    return failed;
}

int rng_health_feed(rng_health *t, const uint8_t *samples, size_t n)
{
    if (t->failed != RNG_HEALTH_PASS) {
        return t->failed;
    }
    for (size_t i = 0; i < n; i++) {
        int failed = step(t, samples[i]);
        if (failed != RNG_HEALTH_PASS) {
            t->failed = failed;
            t->failed_at = t->samples - 1;
            return failed;
        }
    }
    return RNG_HEALTH_PASS;
}

void rng_health_count(rng_health *t, const uint8_t *samples, size_t n, uint64_t *rct_failures,
                      uint64_t *apt_failures)
{
    for (size_t i = 0; i < n; i++) {
        int failed = step(t, samples[i]);
        *rct_failures += (failed & RNG_HEALTH_RCT) != 0;
        *apt_failures += (failed & RNG_HEALTH_APT) != 0;
    }
}

/* ---- the process-wide tests on OS entropy ---------------------------------- */

static pthread_mutex_t health_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t health_once = PTHREAD_ONCE_INIT;
static rng_health process;      /* every OS byte this process took, in order */
static int startup_due = 1;     /* before the first read, and after a failure */
static uint64_t startups, rct_failures, apt_failures, tested;

static void prepare_fork(void) { pthread_mutex_lock(&health_mutex); }
static void after_fork(void) { pthread_mutex_unlock(&health_mutex); }

/* The cutoffs from H and alpha; fork handlers, so no child inherits the
   lock held by a thread that does not exist there. */
static void health_setup(void)
{
    rng_health_init(&process, rng_health_rct_cutoff(RNG_HEALTH_H_BITS, RNG_HEALTH_ALPHA_LOG2),
                    rng_health_apt_cutoff(RNG_HEALTH_APT_WINDOW, RNG_HEALTH_H_BITS, RNG_HEALTH_ALPHA_LOG2),
                    RNG_HEALTH_APT_WINDOW);
    (void)pthread_atfork(prepare_fork, after_fork, after_fork);
}

void rng_health_lock(void)
{
    pthread_once(&health_once, health_setup);
    pthread_mutex_lock(&health_mutex);
}

void rng_health_unlock(void) { pthread_mutex_unlock(&health_mutex); }

/* A failure: count it, start the tests over and make the next read run a
   start-up test again; the status names the test. */
static int failure(int failed)
{
    int status = failed & RNG_HEALTH_RCT ? RNG_E_HEALTH_RCT : RNG_E_HEALTH_APT;
    rct_failures += (failed & RNG_HEALTH_RCT) != 0;
    apt_failures += (failed & RNG_HEALTH_APT) != 0;
    rng_health_init(&process, process.rct_cutoff, process.apt_cutoff, process.apt_window);
    startup_due = 1;
    return status;
}

int rng_health_check(const uint8_t *bytes, size_t n, int (*startup_read)(uint8_t *out, size_t n))
{
    if (startup_due) {
        uint8_t samples[RNG_HEALTH_STARTUP_SAMPLES];
        int status = startup_read(samples, sizeof samples);
        int failed = status == RNG_OK ? rng_health_feed(&process, samples, sizeof samples) : RNG_HEALTH_PASS;
        rng_memzero(samples, sizeof samples); /* start-up samples are never used */
        if (status != RNG_OK) {
            return status;
        }
        tested += sizeof samples;
        if (failed != RNG_HEALTH_PASS) {
            return failure(failed);
        }
        startup_due = 0;
        startups++;
    }
    tested += n;
    int failed = rng_health_feed(&process, bytes, n);
    return failed == RNG_HEALTH_PASS ? RNG_OK : failure(failed);
}

/* Readouts, under the lock so a reader sees whole counts. */
static uint64_t read_locked(const uint64_t *value)
{
    rng_health_lock();
    uint64_t v = *value;
    rng_health_unlock();
    return v;
}

uint32_t rng_health_cutoff(int test)
{
    rng_health_lock();
    uint32_t cutoff = test == RNG_HEALTH_RCT ? process.rct_cutoff : test == RNG_HEALTH_APT ? process.apt_cutoff : 0;
    rng_health_unlock();
    return cutoff;
}

uint64_t rng_health_startups(void) { return read_locked(&startups); }

uint64_t rng_health_alarms(int test)
{
    return read_locked(test == RNG_HEALTH_RCT ? &rct_failures : &apt_failures);
}

uint64_t rng_health_samples(void) { return read_locked(&tested); }
