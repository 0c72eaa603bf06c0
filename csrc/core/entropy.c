/* entropy.c -- OS entropy that fails closed with bounded retries and
   passes the SP 800-90B health tests (health.h), and a memzero that sticks.  The OS calls themselves are in faults.c (the test
   layer's seam). */
#include "entropy.h"
#include "faults.h"
#include "health.h"

#include <errno.h>
#include <string.h>
#include <sys/types.h>

/* One OS read of up to n bytes: the count delivered (0 is possible), or -1
   with errno set. */
static ssize_t os_read(uint8_t *out, size_t n)
{
#if defined(__linux__)
    /* flags = 0: block until the kernel pool is initialised, then never block. */
    return rng_fault_getrandom(out, n);
#else
    /* getentropy delivers all or nothing, at most 256 bytes per call. */
    size_t take = n < 256 ? n : 256;
    return rng_fault_getentropy(out, take) == 0 ? (ssize_t)take : -1;
#endif
}

/* n bytes from the OS, before the health tests. */
static int os_fill(uint8_t *out, size_t n)
{
    /* A read may deliver fewer bytes than asked (continue: it made
       progress), be interrupted, or deliver none; the last two are retried
       a bounded number of times, so no OS behaviour can make this spin. */
    int interrupts = 0, empties = 0;
    while (n > 0) {
        ssize_t got = os_read(out, n);
        if (got < 0) {
            if (errno == EINTR && ++interrupts <= RNG_ENTROPY_MAX_INTERRUPTS) {
                continue;
            }
            return RNG_E_ENTROPY;
        }
        if (got == 0) {
            if (++empties <= RNG_ENTROPY_MAX_EMPTY) {
                continue;
            }
            return RNG_E_ENTROPY;
        }
        if ((size_t)got > n) {
            return RNG_E_ENTROPY; /* a kernel claiming more than asked is not trusted */
        }
        out += got;
        n -= (size_t)got;
    }
    return RNG_OK;
}

int rng_entropy_fill(uint8_t *out, size_t n)
{
    /* Read and test under one lock, so the tests see the OS's bytes in the
       order it delivered them (one continuous sample stream). */
    rng_health_lock();
    int status = os_fill(out, n);
    if (status == RNG_OK) {
        status = rng_health_check(out, n, os_fill);
    }
    rng_health_unlock();
    if (status != RNG_OK) {
        rng_memzero(out, n); /* nothing of a failed read is used */
    }
    return status;
}

void rng_memzero(void *p, size_t n)
{
    memset(p, 0, n);
    /* The empty asm claims to read p's memory, so the memset is not dead. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
