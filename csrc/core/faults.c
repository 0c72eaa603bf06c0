/* faults.c -- the OS entropy calls and the self-test check, through the
   fault table the test layer may install (faults.h). */
#if defined(__linux__)
#define _GNU_SOURCE 1
#else
#define _DEFAULT_SOURCE 1
#endif

#include "faults.h"

#include <errno.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

static const rng_faults *installed = NULL;

void rng_faults_install(const rng_faults *faults)
{
    __atomic_store_n(&installed, faults, __ATOMIC_SEQ_CST);
}

/* How much of an n-byte read the faults let through: n with no fault,
   else the fault's verdict (negative: fail with errno = -verdict). */
static long fault_verdict(size_t n)
{
    const rng_faults *faults = __atomic_load_n(&installed, __ATOMIC_SEQ_CST);
    if (faults == NULL || faults->entropy_read == NULL) {
        return (long)n;
    }
    long verdict = faults->entropy_read(n);
    return verdict >= 0 && (size_t)verdict > n ? (long)n : verdict;
}

/* The delivered bytes, as the tamper fault rewrites them (if installed). */
static void tamper(void *out, ssize_t got)
{
    const rng_faults *faults = __atomic_load_n(&installed, __ATOMIC_SEQ_CST);
    if (got > 0 && faults != NULL && faults->entropy_tamper != NULL) {
        faults->entropy_tamper(out, (size_t)got);
    }
}

#if defined(__linux__)
ssize_t rng_fault_getrandom(void *out, size_t n)
{
    long verdict = fault_verdict(n);
    if (verdict < 0) {
        errno = (int)-verdict;
        return -1;
    }
    if (verdict == 0) {
        return 0;
    }
    ssize_t got = getrandom(out, (size_t)verdict, 0);
    tamper(out, got);
    return got;
}
#else
int rng_fault_getentropy(void *out, size_t n)
{
    long verdict = fault_verdict(n);
    if (verdict < 0 || (size_t)verdict < n) {
        errno = verdict < 0 ? (int)-verdict : EIO;
        return -1; /* getentropy has no short reads: anything less fails */
    }
    int status = getentropy(out, n);
    tamper(out, status == 0 ? (ssize_t)n : 0);
    return status;
}
#endif

int rng_fault_selftest_corrupt(void)
{
    const rng_faults *faults = __atomic_load_n(&installed, __ATOMIC_SEQ_CST);
    return faults != NULL && faults->selftest_corrupt != NULL && faults->selftest_corrupt() != 0;
}

void rng_fault_output_tamper(void *bytes, size_t n)
{
    const rng_faults *faults = __atomic_load_n(&installed, __ATOMIC_RELAXED);
    if (faults != NULL && faults->output_tamper != NULL) {
        faults->output_tamper(bytes, n);
    }
}
