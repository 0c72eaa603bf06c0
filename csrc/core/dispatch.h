/*
 * dispatch.h -- choosing an algorithm's code path once, the same way for
 * every algorithm (ChaCha20, AES, SHA-256).
 *
 * The fastest path this CPU has is chosen at first use, unless the
 * environment has RNGCERT_FORCE_PORTABLE=1 (exactly "1"; any other value
 * leaves the default), which selects the portable C path: path 0 of every
 * algorithm.  Every path gives the same bytes; the tests force each one.
 */
#ifndef RNG_DISPATCH_H
#define RNG_DISPATCH_H

#include <stdlib.h>
#include <string.h>

/* 1 when the environment forces the portable paths. */
static inline int rng_force_portable(void)
{
    const char *force = getenv("RNGCERT_FORCE_PORTABLE");
    return force != NULL && strcmp(force, "1") == 0;
}

/* The path in *impl (-1 until first use), chosen then as best() or, when
   forced, 0 (portable). */
static inline int rng_dispatch_get(int *impl, int (*best)(void))
{
    int chosen = __atomic_load_n(impl, __ATOMIC_RELAXED);
    if (chosen < 0) {
        chosen = rng_force_portable() ? 0 : best();
        __atomic_store_n(impl, chosen, __ATOMIC_RELAXED);
    }
    return chosen;
}

#endif
