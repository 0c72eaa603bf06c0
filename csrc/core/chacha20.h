/*
 * chacha20.h -- the ChaCha20 keystream engine (20 rounds).
 *
 * Layout (DJB's original): state words 0-3 constants, 4-11 key, 12-13 a
 * 64-bit block counter (low word first), 14-15 a 64-bit stream id.  This
 * equals RFC 8439 with nonce = 4 zero bytes || stream id (little-endian)
 * while the counter is below 2^32.  The counter wraps modulo 2^64 without
 * touching the stream id.
 *
 * rng_chacha20_blocks is the pure keystream function (dispatched to the
 * AVX-512 path when the CPU has it, else AVX2, else portable C; all give
 * identical bytes).  rng_chacha is the buffered engine that the rest of the library
 * draws from through rng_source (see rng_source.h), in one of two modes:
 *
 *   replay      key = the seed, counter from 0: the output is exactly the
 *               keystream, so any ChaCha20 implementation reproduces it
 *               (docs/audit_contract.md).
 *   production  key from the OS.  Every refill uses a key for one batch of
 *               blocks from counter 0; the first 32 bytes of that batch
 *               become the next key and are never output (fast key
 *               erasure).  After `reseed_interval` bytes of output, and in a
 *               forked child before its first output, the key is XORed
 *               with 32 fresh bytes from the OS.  If the OS refuses, the
 *               engine latches RNG_E_ENTROPY (RNG_E_HEALTH_* if the OS bytes fail
 *               a health test, health.h) and outputs nothing more.
 *               A batch of n blocks outputs 64 * n - 32 bytes (n <= 128 to
 *               refill the buffer, <= 1024 written straight into a bulk
 *               request) and is sized so as not to pass the interval by a
 *               whole block: one OS key outputs at least reseed_interval
 *               and at most reseed_interval + 63 bytes (the interval
 *               rounded up to the engine's granularity, one 64-byte
 *               ChaCha20 block).  Counted are the bytes generated for
 *               output, including any still unread in the buffer.  Every
 *               batch passes the continuous test (continuous.h: no 32-byte
 *               output block equal to the one or two before it) before any of it
 *               is read; a repeat latches RNG_E_CONTINUOUS.
 *
 * No returned output stays in the state: every read zeroes the buffer
 * bytes it takes (the inline word readers store zeros over the word they
 * load; fill wipes what it copies), so buf holds zeros before pos and
 * unread output after it.  With fast key erasure this means a captured
 * state reveals nothing that was ever output.  The key-derived copies the
 * block functions make on the stack are wiped before they return.
 *
 * Engines are not internally locked: one thread at a time (rngcore holds a
 * lock around every call).  A failed engine latches a negative status, in
 * eng->status and in the attached source's status; its word functions then
 * return all-one words (which every bounded-integer routine accepts at once,
 * so no rejection loop can spin) that callers must discard.  On failure,
 * fill leaves all nbytes of its output zero.
 *
 * A failed self-test stops every engine at once, without a check on the
 * fast path: the inline word readers already compare the engine's epoch
 * with the process-wide rng_chacha_epoch (for fork detection), and a failed
 * self-test run bumps that epoch too.  Every engine's next read therefore
 * takes the slow path, whose readiness check sees the failure, latches
 * RNG_E_SELFTEST and wipes key and buffered output, so no buffered word is
 * served after the run returns.  An engine that was alive when a run failed
 * stays failed even if a later run passes; engines made after a passing
 * run work.
 */
#ifndef RNG_CHACHA20_H
#define RNG_CHACHA20_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "byteorder.h"
#include "continuous.h"
#include "rng_source.h"

/* cffi:begin */
/* Blocks per buffered production batch (one key) and per replay refill:
   a batch's continuous test costs four fingerprints, so fewer, larger
   batches cost less (continuous.h). */
#define RNG_CHACHA_BUF_BLOCKS 128
#define RNG_CHACHA_BUF_BYTES 8192
#define RNG_CHACHA_REPLAY 0
#define RNG_CHACHA_PRODUCTION 1
#define RNG_CHACHA_IMPL_PORTABLE 0
#define RNG_CHACHA_IMPL_AVX2 1
#define RNG_CHACHA_IMPL_AVX512 2
#define RNG_CHACHA_DEFAULT_RESEED_INTERVAL 1073741824

typedef struct rng_chacha {
    uint32_t key[8];
    uint64_t counter;          /* replay: block counter of the next block generated */
    uint64_t stream;           /* stream id, state words 14-15 (0 in production) */
    uint8_t buf[8192];         /* RNG_CHACHA_BUF_BYTES: zeros before pos, unread output from pos */
    uint32_t pos;              /* bytes of buf already consumed */
    int status;                /* RNG_OK or a latched negative RNG_E_* */
    int mode;                  /* RNG_CHACHA_REPLAY or RNG_CHACHA_PRODUCTION */
    uint32_t epoch;            /* value of rng_chacha_epoch this state last checked against */
    uint32_t bad_selftest_runs; /* failed self-test runs when this engine was made */
    uint64_t reseed_interval;  /* production: output bytes between OS seedings */
    uint64_t since_reseed;     /* production: output bytes since the last OS seeding */
    uint64_t seedings;         /* production: OS seedings so far (1 after init) */
    uint64_t produced;         /* production: bytes generated for output, less any dropped unread */
    rng_continuous continuous; /* production: no two consecutive 32-byte output blocks equal */
    rng_source *source;        /* attached source, which mirrors latched failures */
} rng_chacha;

/* Keystream for nblocks consecutive blocks from `counter`, on the selected path. */
void rng_chacha20_blocks(const uint32_t key[8], uint64_t counter, uint64_t stream,
                         uint8_t *out, size_t nblocks);
/* The same keystream from the portable C block function only. */
void rng_chacha20_blocks_portable(const uint32_t key[8], uint64_t counter, uint64_t stream,
                                  uint8_t *out, size_t nblocks);
/* The same keystream from the AVX2 path only (every block, any nblocks).
   RNG_E_ARGUMENT (and no output) when this CPU or build has no AVX2. */
int rng_chacha20_blocks_avx2(const uint32_t key[8], uint64_t counter, uint64_t stream,
                             uint8_t *out, size_t nblocks);

/* The same keystream from the AVX-512 path only (every block, any nblocks).
   RNG_E_ARGUMENT (and no output) when this CPU or build has no AVX-512. */
int rng_chacha20_blocks_avx512(const uint32_t key[8], uint64_t counter, uint64_t stream,
                               uint8_t *out, size_t nblocks);

/* 1 when the AVX2 path is compiled in and this CPU supports it. */
int rng_cpu_has_avx2(void);
/* 1 when the AVX-512 path is compiled in and this CPU (and OS) support it;
   such a CPU also has AVX2. */
int rng_cpu_has_avx512(void);
/* Select the path rng_chacha20_blocks uses.  The default is the fastest
   available (AVX-512, then AVX2), unless the environment has
   RNGCERT_FORCE_PORTABLE=1.  RNG_E_ARGUMENT for an unknown or unavailable
   path. */
int rng_chacha_set_impl(int impl);
int rng_chacha_get_impl(void);
/* 1 when the selected path is a vector one (AVX2 or AVX-512): the other
   AVX2 code of the library (shuffle index chains, the continuous test's
   scan) follows this one switch. */
int rng_chacha_uses_avx2(void);
/* "portable", "avx2" or "avx512": the path rng_chacha20_blocks uses now. */
const char *rng_chacha20_impl_name(void);

/* Replay mode: key = seed (32 bytes, little-endian words), counter 0.
   Runs the power-on self-test on first use; RNG_E_SELFTEST if it failed. */
int rng_chacha_init_replay(rng_chacha *eng, const uint8_t seed[32], uint64_t stream);
/* Production mode: key from the OS; reseed after reseed_interval (>= 1)
   bytes of output (at most reseed_interval + 63 bytes per OS key).  RNG_E_ENTROPY, RNG_E_HEALTH_*, RNG_E_SELFTEST, RNG_E_MEMORY or RNG_OK. */
int rng_chacha_init_production(rng_chacha *eng, uint64_t reseed_interval);

/* Copy the next nbytes of output into out.  Returns the engine status; on
   failure all nbytes of out are zero (nothing of the request is left). */
int rng_chacha_fill(rng_chacha *eng, void *out, size_t nbytes);

/* Production mode: key ^= 32 fresh OS bytes now, dropping buffered output
   (a per-game reseed).  RNG_E_ARGUMENT in replay mode. */
int rng_chacha_reseed(rng_chacha *eng);
/* Replay mode: continue from byte `position` of the keystream. */
int rng_chacha_seek(rng_chacha *eng, uint64_t position);
/* Bytes of output consumed so far (mod 2^64): replay, the keystream
   position (where seek resumes); production, the bytes handed out. */
uint64_t rng_chacha_position(const rng_chacha *eng);

/* Point src at this engine; the engine then latches failures into src too. */
void rng_chacha_source(rng_chacha *eng, rng_source *src);

/* Wipe all key material and buffered output; the engine is unusable after
   (status RNG_E_ARGUMENT) and detached from its source. */
void rng_chacha_wipe(rng_chacha *eng);
/* cffi:end */

_Static_assert(RNG_CHACHA_BUF_BYTES == sizeof(((rng_chacha *)0)->buf), "buffer size");
_Static_assert(RNG_CHACHA_BUF_BYTES == 64 * RNG_CHACHA_BUF_BLOCKS, "the buffer is whole blocks");
_Static_assert(RNG_CHACHA_BUF_BLOCKS % 16 == 0, "buffer refills in whole AVX2 and AVX-512 groups");

/* Changes in the child after every fork() and whenever a self-test run
   fails; an engine whose epoch differs must go through the readiness check
   (chacha20.c) before its next output. */
extern uint32_t rng_chacha_epoch;

/* Out-of-line paths of the word readers (refill, fork, failure). */
uint32_t rng_chacha_next32_slow(rng_chacha *eng);
uint64_t rng_chacha_next64_slow(rng_chacha *eng);

/* 1 when the next `n` output bytes can be served from the buffer without
   any check: enough unread bytes and no fork or self-test failure since
   this engine last checked. */
static inline int rng_chacha_fast(const rng_chacha *eng, uint32_t n)
{
    return eng->pos <= RNG_CHACHA_BUF_BYTES - n
           && eng->epoch == __atomic_load_n(&rng_chacha_epoch, __ATOMIC_RELAXED);
}

/* Next 32 bits of output, read little-endian (the next 4 bytes of fill);
   the 4 bytes are zeroed in the buffer as they are read. */
static inline uint32_t rng_chacha_next32(rng_chacha *eng)
{
    if (rng_chacha_fast(eng, 4)) {
        uint8_t *p = eng->buf + eng->pos;
        uint32_t v = rng_load32_le(p);
        memset(p, 0, 4);
        eng->pos += 4;
        return v;
    }
    return rng_chacha_next32_slow(eng);
}

/* Next 64 bits of output, read little-endian (the next 8 bytes of fill);
   the 8 bytes are zeroed in the buffer as they are read. */
static inline uint64_t rng_chacha_next64(rng_chacha *eng)
{
    if (rng_chacha_fast(eng, 8)) {
        uint8_t *p = eng->buf + eng->pos;
        uint64_t v = rng_load64_le(p);
        memset(p, 0, 8);
        eng->pos += 8;
        return v;
    }
    return rng_chacha_next64_slow(eng);
}

#endif
