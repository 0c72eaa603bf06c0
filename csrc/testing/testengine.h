/*
 * testengine.h -- a tiny, fully known rng_source for exhaustive proofs.
 *
 * Drawing code (bounded integers, shuffles, dice, wheels, game kernels)
 * takes an rng_source *, so it can be run on a source whose every output is
 * known in advance, and its result counted over ALL possible inputs instead
 * of sampled.  A test engine is a finite list of w-bit words, read in one of
 * two layouts:
 *
 *   byte stream   (the core's proofs, tests/test_core_bias_proof.py)
 *                 next32 / next64 / fill read one byte stream, as rng_source.h
 *                 requires of a real source: 4 / 8 bytes little-endian, or n
 *                 bytes.  The stream is either
 *                   enumerate: the little-endian encodings of the W-bit words
 *                     0, 1, ..., 2^W - 1 (W = 8, 16, 24 or 32), each exactly
 *                     once, so a rng_bounded_maxW routine meets every word once;
 *                   replay: the bytes of a caller-owned buffer.
 *   left-aligned  (the devices' and games' proofs, tests/test_devices_exhaustive.py)
 *                 replay a caller-owned list of w-bit words (1 <= w <= 64):
 *                 each next64 returns the next word y left-aligned, y << (64 - w),
 *                 which is how the batched index code of shuffle.h runs on
 *                 w-bit words without a separate w-bit build (see "Reduced word
 *                 width" there); next32 returns the top half of one such word.
 *                 fill fails with RNG_E_ARGUMENT: the code under these proofs
 *                 reads words only, and a byte read would leave the proof.
 *
 * Reading past the end latches RNG_E_EXHAUSTED (in the engine and in the
 * attached source) and the missing bytes / words read as all ones (accepted
 * at once by every bounded routine, so no rejection loop spins): a proof can
 * tell "finished within these words" from "needed more".  Buffers must
 * outlive the engine.
 *
 * The proof driver rngtest_bounded_histogram is here because it is test
 * code: it counts the outputs of the shipped bounded-integer routines
 * (bounded.h) over the whole stream.
 */
#ifndef RNGTEST_ENGINE_H
#define RNGTEST_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
typedef struct rngtest_engine {
    const uint8_t *data;   /* byte replay: the bytes; else NULL */
    const uint64_t *words; /* left-aligned replay: the words; else NULL */
    uint64_t length;       /* units in the stream: bytes, or words when left-aligned */
    uint64_t offset;       /* units consumed so far */
    int width;             /* enumerate / left-aligned: word width in bits; byte replay: 0 */
    int aligned;           /* 1: left-aligned words; 0: byte stream */
    int status;            /* RNG_OK, RNG_E_EXHAUSTED, or RNG_E_ARGUMENT */
    rng_source *source;    /* attached source, which mirrors the status */
} rngtest_engine;

/* Byte stream, replay: data[0 .. nbytes). */
int rngtest_engine_init(rngtest_engine *eng, const uint8_t *data, size_t nbytes);
/* Byte stream, enumerate: every `width`-bit word once (width 8, 16, 24 or 32). */
int rngtest_engine_init_enumerate(rngtest_engine *eng, int width);
/* Left-aligned: words[0 .. count) of `bits` bits each (1..64); RNG_E_ARGUMENT
   if bits is out of range or a word does not fit. */
int rngtest_engine_init_words(rngtest_engine *eng, const uint64_t *words, size_t count, int bits);
/* Point src at this engine (after one of the inits). */
void rngtest_engine_source(rngtest_engine *eng, rng_source *src);

/* The exhaustive bias proof.  Runs the width-bit bounded routine for
   [0, max] (width 8, 16, 32 or 64; scalar when batch == 0, else the batch
   routine) on src until src fails, counting each value produced before the
   failure in counts[0 .. max] (zeroed first).  *produced gets the number
   of values counted.  RNG_E_ARGUMENT for a bad width, or max == 0 (which
   consumes nothing, so would never end), or max too large to count.
   batch_size: values requested per batch call (batch mode). */
int rngtest_bounded_histogram(rng_source *src, int width, uint64_t max, int batch,
                              size_t batch_size, uint64_t *counts, uint64_t *produced);
/* cffi:end */

#endif
