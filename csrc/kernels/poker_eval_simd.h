/*
 * poker_eval_simd.h -- the best five of 5..7 cards, sixteen hands at a time
 * in AVX-512 registers, giving exactly the values of the portable lookup
 * (poker_eval_lut.h), whose tables it reads.
 *
 * Why: the portable loop spends most of its time fetching three table
 * entries per card; here one byte permute turns sixteen hands' cards into
 * ranks and suits at once, a 16-entry register permute adds each card's 5^rank and
 * suit counter, the perfect hash is the same 32-bit arithmetic in sixteen
 * lanes, and two gathers read the displacement and the value.  Hands with
 * a flush (about 3 in 100) are finished by the portable code.
 */
#ifndef KERN_POKER_EVAL_SIMD_H
#define KERN_POKER_EVAL_SIMD_H

#include <stdint.h>

/* cffi:begin */
/* Code paths of kern_pk_rank's best five (RNGCERT_FORCE_PORTABLE=1 selects path 0). */
#define KERN_PK_IMPL_PORTABLE 0
#define KERN_PK_IMPL_AVX512 1

/* The path in use (chosen at first use: the fastest this CPU has). */
int kern_pk_get_impl(void);
/* Selects a path; RNG_E_ARGUMENT if unknown or this CPU lacks it. */
int kern_pk_set_impl(int impl);
/* 1 if this CPU (and build) has the AVX-512 path. */
int kern_pk_cpu_has_avx512(void);
/* cffi:end */

/* out[i] = the best-five value of hand i (per_hand 5..7 cards); RNG_E_ARGUMENT
 * at the first block holding a byte that is no card (>= 52) or a card twice
 * in one hand.  The lookup tables must be ready.  Only with kern_pk_cpu_has_avx512(). */
int kern_pk_rank_best5_avx512(const uint8_t *cards, uint32_t per_hand, uint64_t hands, uint32_t *out);

#endif
