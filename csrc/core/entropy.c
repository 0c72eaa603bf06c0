/* entropy.c -- OS entropy that fails closed, and a memzero that sticks. */
#if defined(__linux__)
#define _GNU_SOURCE 1
#else
#define _DEFAULT_SOURCE 1
#endif

#include "entropy.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

static int entropy_fail_injected = 0;

void rng_test_entropy_fail(int fail)
{
    __atomic_store_n(&entropy_fail_injected, fail != 0, __ATOMIC_SEQ_CST);
}

int rng_entropy_fill(uint8_t *out, size_t n)
{
    if (__atomic_load_n(&entropy_fail_injected, __ATOMIC_SEQ_CST)) {
        return RNG_E_ENTROPY;
    }
#if defined(__linux__)
    /* flags = 0: block until the kernel pool is initialised, then never
       block; a call may return fewer bytes or be interrupted, so loop. */
    while (n > 0) {
        ssize_t got = getrandom(out, n, 0);
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
        if (getentropy(out, take) != 0) {
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
