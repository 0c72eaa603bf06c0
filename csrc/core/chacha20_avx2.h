/*
 * chacha20_avx2.h -- ChaCha20 keystream eight blocks at a time with AVX2.
 *
 * Compiled with a per-function target attribute, so the build needs no
 * -mavx2 and runs on any x86-64; rng_cpu_has_avx2() (chacha20.h) says at
 * run time whether this path may be called.  The round loop is GCC/clang
 * inline assembly for x86-64 (see chacha20_avx2.c for why); on other
 * architectures or compilers the path is absent and rng_cpu_has_avx2()
 * returns 0.
 *
 * Same layout and bytes as the portable block function: lane i of a group
 * computes the block with counter + i (64-bit, carrying into word 13).
 */
#ifndef RNG_CHACHA20_AVX2_H
#define RNG_CHACHA20_AVX2_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RNG_HAVE_AVX2_PATH 1
#else
#define RNG_HAVE_AVX2_PATH 0
#endif

/* Keystream of 8 * ngroups blocks from `counter`.  Only call when
   rng_cpu_has_avx2() is 1. */
void rng_chacha20_avx2_groups(const uint32_t key[8], uint64_t counter, uint64_t stream,
                              uint8_t *out, size_t ngroups);

#endif
