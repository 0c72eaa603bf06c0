/*
 * testengine.h -- a tiny, fully known rng_source for exhaustive proofs.
 *
 * Drawing code (bounded integers, shuffles, ...) takes an rng_source *, so
 * it can be run on a source whose every output is known in advance, and
 * its result counted over ALL possible inputs instead of sampled.  The test
 * engine is a finite byte stream, in one of two modes:
 *
 *   enumerate   the little-endian encodings of the W-bit words
 *               0, 1, ..., 2^W - 1 (W = 8, 16, 24 or 32), each exactly once:
 *               a rng_bounded_maxW routine reading it meets every word once.
 *   replay      the bytes of a caller-owned buffer (must outlive the engine).
 *
 * next32 / next64 / fill read the same byte stream (4 / 8 bytes little-endian,
 * or n bytes).  Reading past the end latches RNG_E_EXHAUSTED (in the engine
 * and in the attached source); the missing bytes read as 0xff.
 *
 * The proof driver rng_proof_bounded_histogram is here because it is test
 * code: it counts the outputs of the shipped bounded-integer routines
 * (bounded.h) over the whole stream.
 */
#ifndef RNG_TESTENGINE_H
#define RNG_TESTENGINE_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
typedef struct rng_testengine {
    const uint8_t *data;   /* replay mode: the bytes; NULL when enumerating */
    uint64_t length;       /* bytes in the stream */
    uint64_t offset;       /* bytes consumed so far */
    int width;             /* enumerate mode: word width in bits; 0 in replay mode */
    int status;            /* RNG_OK or RNG_E_EXHAUSTED */
    rng_source *source;    /* attached source, which mirrors the status */
} rng_testengine;

/* Replay mode over data[0 .. nbytes). */
int rng_testengine_init(rng_testengine *eng, const uint8_t *data, size_t nbytes);
/* Enumerate mode: every `width`-bit word once (width 8, 16, 24 or 32). */
int rng_testengine_init_enumerate(rng_testengine *eng, int width);
/* Point src at this engine. */
void rng_testengine_source(rng_testengine *eng, rng_source *src);

/* The exhaustive bias proof.  Runs the width-bit bounded routine for
   [0, max] (width 8, 16, 32 or 64; scalar when batch == 0, else the batch
   routine) on src until src fails, counting each value produced before the
   failure in counts[0 .. max] (zeroed first).  *produced gets the number
   of values counted.  RNG_E_ARGUMENT for a bad width, or max == 0 (which
   consumes nothing, so would never end), or max too large to count.
   batch_size: values requested per batch call (batch mode). */
int rng_proof_bounded_histogram(rng_source *src, int width, uint64_t max, int batch,
                                size_t batch_size, uint64_t *counts, uint64_t *produced);
/* cffi:end */

#endif
