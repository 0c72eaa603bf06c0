/*
 * faults.h -- the core's one inward seam: fault injection from the test layer.
 *
 * The core holds no fault logic and no test switch.  The test layer
 * (csrc/testing/fault_plans.c, extension rngcore._testing) installs a table of
 * fault functions here; production code never installs one, and the core
 * consults the table only on cold paths (an OS entropy read, a self-test
 * comparison).  The entropy read fault decides how much of a read the
 * operating system "delivers"; the entropy tamper fault rewrites the bytes
 * delivered (stuck, repeating, biased: a broken noise source), which is how
 * the tests show that the SP 800-90B health tests (health.h), which every
 * delivered byte goes through, catch such a source.  The output tamper
 * fault likewise rewrites a batch of production output just before the
 * continuous test (continuous.h) checks it (one pointer load per batch),
 * which is how the tests show that the test stops a stuck engine.  No fault
 * can make the core skip the health tests or the continuous test, or output
 * anything but what passed them.
 */
#ifndef RNG_FAULTS_H
#define RNG_FAULTS_H

#include <stddef.h>
#include <sys/types.h>

/* cffi:begin */
typedef struct rng_faults {
    /* Before each OS entropy read of n bytes.  >= 0: the read delivers
       min(result, n) bytes (0 is a zero-byte read); < 0: the read fails
       with errno = -result (EINTR: an interrupted read).  NULL: no fault. */
    long (*entropy_read)(size_t n);
    /* After each OS entropy read, on the n bytes it delivered (before the
       health tests see them).  NULL: no fault. */
    void (*entropy_tamper)(unsigned char *bytes, size_t n);
    /* Non-zero: the self-test sees one corrupted keystream bit.  NULL: none. */
    int (*selftest_corrupt)(void);
    /* On each batch of n bytes of production output an engine generated,
       before the continuous test sees it.  NULL: no fault. */
    void (*output_tamper)(unsigned char *bytes, size_t n);
} rng_faults;

/* Install a fault table (NULL removes it); it must outlive its installation. */
void rng_faults_install(const rng_faults *faults);
/* cffi:end */

/* getrandom(out, n, 0) as the installed faults let it behave (Linux). */
ssize_t rng_fault_getrandom(void *out, size_t n);
/* getentropy(out, n) as the installed faults let it behave (elsewhere). */
int rng_fault_getentropy(void *out, size_t n);
/* 1 when the installed faults corrupt the self-test. */
int rng_fault_selftest_corrupt(void);
/* A batch of production output as the installed faults rewrite it (if at all). */
void rng_fault_output_tamper(void *bytes, size_t n);

#endif
