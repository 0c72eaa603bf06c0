/* entropy.c -- OS entropy that fails closed, and a memzero that sticks.
   The OS calls themselves are in faults.c (the test layer's seam). */
#include "entropy.h"
#include "faults.h"

#include <errno.h>
#include <string.h>

int rng_entropy_fill(uint8_t *out, size_t n)
{
#if defined(__linux__)
    /* flags = 0: block until the kernel pool is initialised, then never
       block; a call may return fewer bytes or be interrupted, so loop. */
    while (n > 0) {
        ssize_t got = rng_fault_getrandom(out, n);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            return RNG_E_ENTROPY;
        }
        out += got;
        n -= (size_t)got;
    }
    return RNG_OK;
#else
    /* getentropy returns at most 256 bytes per call. */
    while (n > 0) {
        size_t take = n < 256 ? n : 256;
        if (rng_fault_getentropy(out, take) != 0) {
            return RNG_E_ENTROPY;
        }
        out += take;
        n -= take;
    }
    return RNG_OK;
#endif
}

void rng_memzero(void *p, size_t n)
{
    memset(p, 0, n);
    /* The empty asm claims to read p's memory, so the memset is not dead. */
    __asm__ __volatile__("" : : "r"(p) : "memory");
}
