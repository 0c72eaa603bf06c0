/*
 * chacha20_avx512.h -- ChaCha20 keystream sixteen blocks at a time with AVX-512.
 *
 * Needs AVX-512 F and BW.  Compiled with a per-function target attribute
 * (no -mavx512f for the build), like the AVX2 path; rng_cpu_has_avx512() (chacha20.h) says at run
 * time whether this path may be called.  Absent, and rng_cpu_has_avx512()
 * 0, on other architectures or compilers.
 *
 * Same layout and bytes as the portable block function: lane i of a group
 * computes the block with counter + i (64-bit, carrying into word 13).
 */
#ifndef RNG_CHACHA20_AVX512_H
#define RNG_CHACHA20_AVX512_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RNG_HAVE_AVX512_PATH 1
#else
#define RNG_HAVE_AVX512_PATH 0
#endif

/* Blocks per AVX-512 group. */
#define RNG_CHACHA_AVX512_GROUP 16

/* Keystream of 16 * ngroups blocks from `counter`.  Only call when
   rng_cpu_has_avx512() is 1. */
void rng_chacha20_avx512_groups(const uint32_t key[8], uint64_t counter, uint64_t stream,
                                uint8_t *out, size_t ngroups);

#endif
