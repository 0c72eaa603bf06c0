/* chacha20.c -- portable ChaCha20 block function, path dispatch, and the
 * buffered engine (replay and production modes; see chacha20.h). */
#if defined(__linux__)
#define _GNU_SOURCE 1
#else
#define _DEFAULT_SOURCE 1
#endif

#include "chacha20.h"

#include <pthread.h>
#include <stdlib.h>

#include "chacha20_avx2.h"
#include "chacha20_avx512.h"
#include "chacha20_selftest.h"
#include "dispatch.h"
#include "entropy.h"
#include "outbuf.h"

_Static_assert(RNG_CHACHA_IMPL_PORTABLE == 0, "the forced portable path is path 0 (dispatch.h)");

/* ---- portable block function ------------------------------------------ */

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
#define QR(a, b, c, d)                         \
    do {                                       \
        a += b; d ^= a; d = ROTL32(d, 16);     \
        c += d; b ^= c; b = ROTL32(b, 12);     \
        a += b; d ^= a; d = ROTL32(d, 8);      \
        c += d; b ^= c; b = ROTL32(b, 7);      \
    } while (0)

/* One block of the input state `in` to out; x is the caller's scratch. */
static void chacha20_block_portable(const uint32_t in[16], uint32_t x[16], uint8_t out[64])
{
    memcpy(x, in, 16 * sizeof x[0]);
    for (int i = 0; i < 10; i++) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) {
        rng_store32_le(out + 4 * i, x[i] + in[i]);
    }
}

void rng_chacha20_blocks_portable(const uint32_t key[8], uint64_t counter, uint64_t stream,
                                  uint8_t *out, size_t nblocks)
{
    uint32_t in[16] = {
        0x61707865u, 0x3320646eu, 0x79622d32u, 0x6b206574u,
        key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
        0, 0, (uint32_t)stream, (uint32_t)(stream >> 32),
    };
    uint32_t x[16];
    for (size_t i = 0; i < nblocks; i++) {
        in[12] = (uint32_t)(counter + i);
        in[13] = (uint32_t)((counter + i) >> 32);
        chacha20_block_portable(in, x, out + 64 * i);
    }
    /* Both hold the key (x: the rounds' state, which with the output gives
       the input back); neither may outlive the call. */
    rng_memzero(in, sizeof in);
    rng_memzero(x, sizeof x);
}

typedef void (*group_function)(const uint32_t key[8], uint64_t counter, uint64_t stream,
                               uint8_t *out, size_t ngroups);

/* nblocks blocks from whole groups of `size` blocks; a last part group of
   at least `min_tail` blocks is made whole in a scratch group and cut
   (a group costs about as much as size / 4 portable blocks), a shorter
   one comes from the portable block function. */
static void blocks_in_groups(group_function groups, size_t size, size_t min_tail, const uint32_t key[8],
                             uint64_t counter, uint64_t stream, uint8_t *out, size_t nblocks)
{
    size_t whole = nblocks / size;
    groups(key, counter, stream, out, whole);
    counter += size * whole;
    out += 64 * size * whole;
    nblocks -= size * whole;
    if (nblocks >= min_tail && nblocks > 0) {
        uint8_t group[64 * RNG_CHACHA_AVX512_GROUP];
        groups(key, counter, stream, group, 1);
        memcpy(out, group, 64 * nblocks);
        rng_memzero(group, sizeof group);
    } else if (nblocks > 0) {
        rng_chacha20_blocks_portable(key, counter, stream, out, nblocks);
    }
}

/* ---- the paths ---------------------------------------------------------- */

/* One row per path, indexed by RNG_CHACHA_IMPL_*: the portable block
   function is a path whose group is one block. */
typedef struct {
    const char *name;
    int (*available)(void); /* 1 when this build and CPU can run the path */
    group_function groups;
    size_t size; /* blocks per group */
} chacha_path;

static int always_available(void)
{
    return 1;
}

static const chacha_path PATHS[] = {
    [RNG_CHACHA_IMPL_PORTABLE] = {"portable", always_available, rng_chacha20_blocks_portable, 1},
    [RNG_CHACHA_IMPL_AVX2] = {"avx2", rng_cpu_has_avx2, rng_chacha20_avx2_groups, 8},
    [RNG_CHACHA_IMPL_AVX512] = {"avx512", rng_cpu_has_avx512, rng_chacha20_avx512_groups,
                                RNG_CHACHA_AVX512_GROUP},
};
#define NPATHS (sizeof PATHS / sizeof PATHS[0])

/* nblocks blocks on path impl; a last part group of at least min_tail
   blocks is made on the path too, a shorter one by the portable path. */
static void path_blocks(int impl, size_t min_tail, const uint32_t key[8], uint64_t counter, uint64_t stream,
                        uint8_t *out, size_t nblocks)
{
    const chacha_path *path = &PATHS[impl];
    blocks_in_groups(path->groups, path->size, min_tail, key, counter, stream, out, nblocks);
}

/* A forced path makes every block itself (min_tail 1), so the known-answer
   tests reach its tail handling too. */
static int forced_path_blocks(int impl, const uint32_t key[8], uint64_t counter, uint64_t stream,
                              uint8_t *out, size_t nblocks)
{
    if (!PATHS[impl].available()) {
        return RNG_E_ARGUMENT;
    }
    path_blocks(impl, 1, key, counter, stream, out, nblocks);
    return RNG_OK;
}

int rng_chacha20_blocks_avx2(const uint32_t key[8], uint64_t counter, uint64_t stream,
                             uint8_t *out, size_t nblocks)
{
    return forced_path_blocks(RNG_CHACHA_IMPL_AVX2, key, counter, stream, out, nblocks);
}

int rng_chacha20_blocks_avx512(const uint32_t key[8], uint64_t counter, uint64_t stream,
                               uint8_t *out, size_t nblocks)
{
    return forced_path_blocks(RNG_CHACHA_IMPL_AVX512, key, counter, stream, out, nblocks);
}

/* ---- path selection ---------------------------------------------------- */

static int chacha_impl = -1; /* -1 until first use, then RNG_CHACHA_IMPL_* */

/* The last available row: the paths are listed slowest first. */
static int best_impl(void)
{
    int impl = (int)NPATHS - 1;
    while (!PATHS[impl].available()) {
        impl--;
    }
    return impl;
}

int rng_chacha_get_impl(void)
{
    return rng_dispatch_get(&chacha_impl, best_impl);
}

int rng_chacha_uses_avx2(void)
{
    return rng_chacha_get_impl() != RNG_CHACHA_IMPL_PORTABLE;
}

int rng_chacha_set_impl(int impl)
{
    if (impl < 0 || impl >= (int)NPATHS || !PATHS[impl].available()) {
        return RNG_E_ARGUMENT;
    }
    __atomic_store_n(&chacha_impl, impl, __ATOMIC_RELAXED);
    return RNG_OK;
}

const char *rng_chacha20_impl_name(void)
{
    return PATHS[rng_chacha_get_impl()].name;
}

/* A last part group shorter than a quarter group is cheaper as portable
   blocks (see blocks_in_groups). */
void rng_chacha20_blocks(const uint32_t key[8], uint64_t counter, uint64_t stream,
                         uint8_t *out, size_t nblocks)
{
    int impl = rng_chacha_get_impl();
    path_blocks(impl, PATHS[impl].size / 4, key, counter, stream, out, nblocks);
}

/* ---- fork and self-test detection ------------------------------------- */

/* Bumped by the fork handler below and by a failed self-test run
   (chacha20_selftest.c); the inline readers compare it (chacha20.h). */
uint32_t rng_chacha_epoch = 0;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static int atfork_status = RNG_OK;

static void after_fork_in_child(void)
{
    __atomic_add_fetch(&rng_chacha_epoch, 1, __ATOMIC_SEQ_CST);
}

static void register_atfork(void)
{
    if (pthread_atfork(NULL, NULL, after_fork_in_child) != 0) {
        atfork_status = RNG_E_MEMORY;
    }
}

/* ---- the buffered engine ----------------------------------------------- */

/* Latch a failure: wipe key and buffer so nothing more can be output. */
/* Drop the unread buffered output (production: it was counted as produced
   but is never handed out, so the position stays the bytes handed out). */
static void drop_buffer(rng_chacha *eng)
{
    if (eng->mode == RNG_CHACHA_PRODUCTION) {
        eng->produced -= RNG_CHACHA_BUF_BYTES - eng->pos;
    }
    rng_memzero(eng->buf, sizeof eng->buf);
    eng->pos = RNG_CHACHA_BUF_BYTES;
}

static int fail(rng_chacha *eng, int status)
{
    rng_memzero(eng->key, sizeof eng->key);
    drop_buffer(eng);
    eng->status = status;
    if (eng->source != NULL) {
        eng->source->status = status;
    }
    return status;
}

/* Production: key ^= 32 fresh OS bytes; drop anything buffered. */
static int reseed(rng_chacha *eng)
{
    uint8_t fresh[32];
    int status = rng_entropy_fill(fresh, sizeof fresh);
    if (status != RNG_OK) {
        rng_memzero(fresh, sizeof fresh);
        return fail(eng, status); /* no entropy, or entropy that failed a health test */
    }
    for (int i = 0; i < 8; i++) {
        eng->key[i] ^= rng_load32_le(fresh + 4 * i);
    }
    rng_memzero(fresh, sizeof fresh);
    drop_buffer(eng);
    eng->since_reseed = 0;
    eng->seedings++;
    eng->epoch = __atomic_load_n(&rng_chacha_epoch, __ATOMIC_SEQ_CST);
    return RNG_OK;
}

/* Checks due before any output: a latched failure; the self-test (failed
   now, or failed in any run since this engine was made); and a fork
   (production reseeds; replay is copied as-is and just adopts the child's
   epoch).  Every self-test failure also moves the epoch, so the inline
   readers come here before serving another buffered word (chacha20.h). */
static int ready(rng_chacha *eng)
{
    if (eng->status != RNG_OK) {
        return eng->status;
    }
    if (!rng_chacha_selftest_passed() || eng->bad_selftest_runs != rng_chacha_selftest_bad_runs()) {
        return fail(eng, RNG_E_SELFTEST);
    }
    uint32_t epoch = __atomic_load_n(&rng_chacha_epoch, __ATOMIC_SEQ_CST);
    if (eng->epoch != epoch) {
        if (eng->mode == RNG_CHACHA_PRODUCTION) {
            return reseed(eng);
        }
        eng->epoch = epoch;
    }
    return RNG_OK;
}

/* Production: reseed first when reseed_interval bytes have been output
   since the last seeding, then size the next batch: at most `cap` blocks,
   and no more than the interval's remaining bytes need.  A batch of n
   blocks outputs 64 * n - 32 bytes, so the smallest n that reaches the
   interval overshoots it by less than one 64-byte block: one OS key
   outputs at most reseed_interval + 63 bytes (chacha20.h). */
static int next_batch(rng_chacha *eng, size_t cap, size_t *nblocks)
{
    if (eng->since_reseed >= eng->reseed_interval) {
        int status = reseed(eng);
        if (status != RNG_OK) {
            return status;
        }
    }
    /* left >= 1; n = ceil((left + 32) / 64), written without overflow. */
    uint64_t left = eng->reseed_interval - eng->since_reseed;
    uint64_t need = left / 64 + (left % 64 > 32 ? 2 : 1);
    *nblocks = need < cap ? (size_t)need : cap;
    return RNG_OK;
}

/* Production: the key of a batch of nblocks blocks has made them, and
   their first 32 bytes (at keystream) become the next key.  Those bytes
   are wiped here, so they are never output; the batch's other
   64 * nblocks - 32 bytes are counted as output. */
static void take_key(rng_chacha *eng, uint8_t *keystream, size_t nblocks)
{
    for (int i = 0; i < 8; i++) {
        eng->key[i] = rng_load32_le(keystream + 4 * i);
    }
    rng_memzero(keystream, 32);
    eng->since_reseed += 64 * nblocks - 32;
    eng->produced += 64 * nblocks - 32;
}

/* Production: one key, one batch.  The key makes max(nblocks, 16) blocks
   from counter 0 (the first 16 as one head, a whole AVX-512 group or two
   AVX2 groups, so every block is on the fast path); the first 32 bytes
   become the next key and are never output, the next 64 * nblocks - 32
   bytes go to out (nblocks >= 1).  The caller runs the continuous test on
   them before any can be read. */
#define HEAD_BLOCKS RNG_CHACHA_AVX512_GROUP
static void production_batch(rng_chacha *eng, uint8_t *out, size_t nblocks)
{
    uint8_t head[64 * HEAD_BLOCKS];
    size_t in_head = nblocks < HEAD_BLOCKS ? nblocks : HEAD_BLOCKS;
    rng_chacha20_blocks(eng->key, 0, eng->stream, head, HEAD_BLOCKS);
    if (nblocks > HEAD_BLOCKS) {
        rng_chacha20_blocks(eng->key, HEAD_BLOCKS, eng->stream, out + sizeof head - 32, nblocks - HEAD_BLOCKS);
    }
    take_key(eng, head, nblocks);
    memcpy(out, head + 32, 64 * in_head - 32);
    rng_memzero(head, sizeof head);
}

/* Refill the buffer; afterwards bytes [pos, BUF) are fresh output. */
static int refill(rng_chacha *eng)
{
    int status = ready(eng);
    if (status != RNG_OK) {
        return status;
    }
    if (eng->mode == RNG_CHACHA_PRODUCTION) {
        /* The batch's output fills the end of buf: buf[32 .. BUF) for a full
           batch, less when the reseed interval is nearly spent. */
        size_t nblocks;
        status = next_batch(eng, RNG_CHACHA_BUF_BLOCKS, &nblocks);
        if (status != RNG_OK) {
            return status;
        }
        uint32_t pos = (uint32_t)(RNG_CHACHA_BUF_BYTES - (64 * nblocks - 32));
        if (nblocks == RNG_CHACHA_BUF_BLOCKS) {
            /* A full batch is the whole buffer's keystream: make it in place,
               its first 32 bytes (pos = 32) the next key (no copy). */
            rng_chacha20_blocks(eng->key, 0, eng->stream, eng->buf, nblocks);
            take_key(eng, eng->buf, nblocks);
        } else {
            rng_memzero(eng->buf, pos); /* no earlier output stays in the state */
            production_batch(eng, eng->buf + pos, nblocks);
        }
        eng->pos = pos;
        status = rng_continuous_check(&eng->continuous, eng->buf + pos, RNG_CHACHA_BUF_BYTES - pos);
        return status == RNG_OK ? RNG_OK : fail(eng, status);
    }
    rng_chacha20_blocks(eng->key, eng->counter, eng->stream, eng->buf, RNG_CHACHA_BUF_BLOCKS);
    eng->counter += RNG_CHACHA_BUF_BLOCKS;
    eng->pos = 0;
    return RNG_OK;
}

/* Production requests of at least this many bytes bypass the buffer. */
#define BULK_MIN_BYTES RNG_CHACHA_BUF_BYTES
/* Blocks per key in a bulk production request (64 KiB). */
#define BULK_BLOCKS 1024

/* rng_chacha_fill without the wipe on failure. */
static int fill_output(rng_chacha *eng, uint8_t *dst, size_t nbytes)
{
    int status = ready(eng);
    if (status != RNG_OK) {
        return status;
    }
    /* Buffered bytes first, so the output order is the keystream order. */
    rng_outbuf_drain(eng->buf, RNG_CHACHA_BUF_BYTES, &eng->pos, &dst, &nbytes);

    /* Then whole blocks straight into dst, without a copy. */
    if (eng->mode == RNG_CHACHA_REPLAY) {
        size_t whole = nbytes / 64;
        rng_chacha20_blocks(eng->key, eng->counter, eng->stream, dst, whole);
        eng->counter += whole;
        dst += 64 * whole;
        nbytes -= 64 * whole;
    } else {
        uint8_t *bulk = dst; /* the batches written here, one contiguous run */
        while (nbytes >= BULK_MIN_BYTES) {
            size_t fit = (nbytes + 32) / 64; /* 64 * fit - 32 <= nbytes */
            size_t nblocks;
            status = next_batch(eng, fit < BULK_BLOCKS ? fit : BULK_BLOCKS, &nblocks);
            if (status != RNG_OK) {
                return status;
            }
            production_batch(eng, dst, nblocks);
            dst += 64 * nblocks - 32;
            nbytes -= 64 * nblocks - 32;
        }
        /* The continuous test once over the run: inside it, batch borders are compared
           byte for byte.  On failure rng_chacha_fill zeroes all of the request. */
        status = rng_continuous_check(&eng->continuous, bulk, (size_t)(dst - bulk));
        if (status != RNG_OK) {
            return fail(eng, status);
        }
    }

    /* The tail through the buffer. */
    while (nbytes > 0) {
        if (eng->pos == RNG_CHACHA_BUF_BYTES) {
            status = refill(eng);
            if (status != RNG_OK) {
                return status;
            }
        }
        rng_outbuf_drain(eng->buf, RNG_CHACHA_BUF_BYTES, &eng->pos, &dst, &nbytes);
    }
    return eng->status;
}

/* On failure the whole of out is zeroed, so a caller's buffer never keeps
   part of a request that raised. */
int rng_chacha_fill(rng_chacha *eng, void *out, size_t nbytes)
{
    int status = fill_output(eng, out, nbytes);
    if (status != RNG_OK) {
        memset(out, 0, nbytes);
    }
    return status;
}

uint32_t rng_chacha_next32_slow(rng_chacha *eng)
{
    uint8_t b[4];
    if (rng_chacha_fill(eng, b, sizeof b) != RNG_OK) {
        return UINT32_MAX;
    }
    return rng_load32_le(b);
}

uint64_t rng_chacha_next64_slow(rng_chacha *eng)
{
    uint8_t b[8];
    if (rng_chacha_fill(eng, b, sizeof b) != RNG_OK) {
        return UINT64_MAX;
    }
    return rng_load64_le(b);
}

/* Common start of both modes: empty buffer, self-test, fork handler. */
static int init_common(rng_chacha *eng, int mode)
{
    memset(eng, 0, sizeof *eng);
    eng->mode = mode;
    eng->pos = RNG_CHACHA_BUF_BYTES;
    rng_continuous_init(&eng->continuous); /* a batch outputs 64 n - 32 bytes: whole 32-byte blocks */
    /* Read before the self-test state, so a run failing in between is
       caught at the first output. */
    eng->epoch = __atomic_load_n(&rng_chacha_epoch, __ATOMIC_SEQ_CST);
    eng->bad_selftest_runs = rng_chacha_selftest_bad_runs();
    pthread_once(&atfork_once, register_atfork);
    if (atfork_status != RNG_OK) {
        return fail(eng, atfork_status);
    }
    if (rng_chacha_selftest() != RNG_OK) {
        return fail(eng, RNG_E_SELFTEST);
    }
    return RNG_OK;
}

int rng_chacha_init_replay(rng_chacha *eng, const uint8_t seed[32], uint64_t stream)
{
    int status = init_common(eng, RNG_CHACHA_REPLAY);
    if (status != RNG_OK) {
        return status;
    }
    for (int i = 0; i < 8; i++) {
        eng->key[i] = rng_load32_le(seed + 4 * i);
    }
    eng->stream = stream;
    return RNG_OK;
}

int rng_chacha_init_production(rng_chacha *eng, uint64_t reseed_interval)
{
    int status = init_common(eng, RNG_CHACHA_PRODUCTION);
    if (status != RNG_OK) {
        return status;
    }
    if (reseed_interval == 0) {
        return fail(eng, RNG_E_ARGUMENT);
    }
    eng->reseed_interval = reseed_interval;
    return reseed(eng); /* key = 0 ^ 32 OS bytes */
}

int rng_chacha_reseed(rng_chacha *eng)
{
    if (eng->mode != RNG_CHACHA_PRODUCTION) {
        return RNG_E_ARGUMENT;
    }
    int status = ready(eng);
    return status != RNG_OK ? status : reseed(eng);
}

int rng_chacha_seek(rng_chacha *eng, uint64_t position)
{
    if (eng->mode != RNG_CHACHA_REPLAY) {
        return RNG_E_ARGUMENT;
    }
    int status = ready(eng);
    if (status != RNG_OK) {
        return status;
    }
    eng->counter = position / 64;
    rng_chacha20_blocks(eng->key, eng->counter, eng->stream, eng->buf, RNG_CHACHA_BUF_BLOCKS);
    eng->counter += RNG_CHACHA_BUF_BLOCKS;
    eng->pos = (uint32_t)(position % 64);
    memset(eng->buf, 0, eng->pos); /* before pos the buffer is zeros */
    return RNG_OK;
}

uint64_t rng_chacha_position(const rng_chacha *eng)
{
    uint64_t generated = eng->mode == RNG_CHACHA_PRODUCTION ? eng->produced : eng->counter * 64;
    return generated - (RNG_CHACHA_BUF_BYTES - eng->pos);
}

static uint32_t source_next32(void *state) { return rng_chacha_next32(state); }
static uint64_t source_next64(void *state) { return rng_chacha_next64(state); }
static int source_fill(void *state, void *out, size_t n) { return rng_chacha_fill(state, out, n); }

/* count next64 words in one fill: the keystream bytes read little-endian
 * (a plain copy on little-endian hosts).  A failed engine's words are all
 * ones, as next64's are. */
static int source_words64(void *state, uint64_t *out, size_t count)
{
    int status = rng_chacha_fill(state, out, count * sizeof *out);
    if (status != RNG_OK) {
        memset(out, 0xff, count * sizeof *out);
        return status;
    }
#if !RNG_LITTLE_ENDIAN_HOST
    for (size_t i = 0; i < count; i++) {
        out[i] = rng_load64_le((const uint8_t *)(out + i));
    }
#endif
    return RNG_OK;
}

void rng_chacha_source(rng_chacha *eng, rng_source *src)
{
    rng_source_bind(src, eng, source_next32, source_next64, source_fill, source_words64, eng->status);
    eng->source = src;
}

void rng_chacha_wipe(rng_chacha *eng)
{
    eng->source = NULL; /* the source may already be gone */
    fail(eng, RNG_E_ARGUMENT);
    eng->counter = 0;
    eng->stream = 0;
}
