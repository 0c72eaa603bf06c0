/* drbg.c -- the buffered SP 800-90A engine (modes, reseeding, fork and
 * self-test latches, the rng_source binding) and its power-on self-test;
 * see drbg.h. */
#include "drbg.h"

#include <pthread.h>
#include <string.h>

#include "byteorder.h"
#include "entropy.h"
#include "faults.h"
#include "outbuf.h"

#define REQUEST RNG_DRBG_REQUEST_BYTES

_Static_assert(REQUEST == sizeof(((rng_drbg *)0)->buf), "buffer size");
_Static_assert(REQUEST <= RNG_DRBG_MAX_REQUEST_BYTES, "a request within SP 800-90A's limit");

/* ---- the mechanisms ------------------------------------------------------------- */

static int is_ctr(int mechanism) { return mechanism != RNG_DRBG_HMAC_SHA256; }

/* Entropy input and nonce amounts for production (security strength 256). */
static size_t entropy_bytes(int mechanism)
{
    return mechanism == RNG_DRBG_CTR_AES256_NO_DF ? RNG_CTR_DRBG_SEEDLEN : RNG_DRBG_SECURITY_BYTES;
}

static size_t nonce_bytes(int mechanism)
{
    return mechanism == RNG_DRBG_CTR_AES256_NO_DF ? 0 : RNG_DRBG_SECURITY_BYTES / 2;
}

static int mech_instantiate(rng_drbg_working *w, int mechanism, const uint8_t *e, size_t en,
                            const uint8_t *n, size_t nn, const uint8_t *p, size_t pn)
{
    if (mechanism == RNG_DRBG_HMAC_SHA256) {
        return rng_hmac_drbg_instantiate(&w->hmac, e, en, n, nn, p, pn);
    }
    return rng_ctr_drbg_instantiate(&w->ctr, mechanism == RNG_DRBG_CTR_AES256, e, en, n, nn, p, pn);
}

static int mech_reseed(rng_drbg_working *w, int mechanism, const uint8_t *e, size_t en,
                       const uint8_t *a, size_t an)
{
    return is_ctr(mechanism) ? rng_ctr_drbg_reseed(&w->ctr, e, en, a, an)
                             : rng_hmac_drbg_reseed(&w->hmac, e, en, a, an);
}

static int mech_generate(rng_drbg_working *w, int mechanism, uint8_t *out, size_t n)
{
    return is_ctr(mechanism) ? rng_ctr_drbg_generate(&w->ctr, out, n, NULL, 0)
                             : rng_hmac_drbg_generate(&w->hmac, out, n, NULL, 0);
}

static uint64_t *mech_interval(rng_drbg_working *w, int mechanism)
{
    return is_ctr(mechanism) ? &w->ctr.reseed_interval : &w->hmac.reseed_interval;
}

/* ---- fork and self-test epoch ------------------------------------------------------ */

/* Moved in a forked child and by every failed self-test run. */
static uint32_t drbg_epoch = 0;
static uint32_t bad_runs = 0;
static int selftest_state = 0; /* 0 not run, 1 passed, -1 failed */
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static int atfork_status = RNG_OK;

static void after_fork_in_child(void) { __atomic_add_fetch(&drbg_epoch, 1, __ATOMIC_SEQ_CST); }

static void register_atfork(void)
{
    if (pthread_atfork(NULL, NULL, after_fork_in_child) != 0) {
        atfork_status = RNG_E_MEMORY;
    }
}

/* ---- the engine ----------------------------------------------------------------- */

static int fail(rng_drbg *eng, int status)
{
    rng_memzero(&eng->w, sizeof eng->w);
    rng_memzero(eng->buf, sizeof eng->buf);
    eng->pos = REQUEST;
    eng->status = status;
    if (eng->source != NULL) {
        eng->source->status = status;
    }
    return status;
}

/* Drop unread buffered output (a reseed, a fork): it is never handed out,
   so the position stays the bytes handed out. */
static void drop_buffer(rng_drbg *eng)
{
    eng->produced -= REQUEST - eng->pos;
    rng_memzero(eng->buf, sizeof eng->buf);
    eng->pos = REQUEST;
}

/* Production: reseed from the OS with optional additional input. */
static int reseed_from_os(rng_drbg *eng, const uint8_t *additional, size_t additional_len)
{
    uint8_t fresh[RNG_CTR_DRBG_SEEDLEN];
    size_t n = entropy_bytes(eng->mechanism);
    int status = rng_entropy_fill(fresh, n);
    if (status != RNG_OK) {
        rng_memzero(fresh, sizeof fresh);
        return fail(eng, status); /* no entropy, or entropy that failed a health test */
    }
    status = mech_reseed(&eng->w, eng->mechanism, fresh, n, additional, additional_len);
    rng_memzero(fresh, sizeof fresh);
    if (status != RNG_OK) {
        return status; /* a bad additional input: the engine stays as it was */
    }
    eng->seedings++;
    return RNG_OK;
}

/* Checks before any output: a latched failure, the self-test, a fork. */
static int ready(rng_drbg *eng)
{
    if (eng->status != RNG_OK) {
        return eng->status;
    }
    uint32_t epoch = __atomic_load_n(&drbg_epoch, __ATOMIC_SEQ_CST);
    if (eng->epoch != epoch) {
        if (__atomic_load_n(&selftest_state, __ATOMIC_SEQ_CST) != 1
            || eng->bad_selftest_runs != __atomic_load_n(&bad_runs, __ATOMIC_SEQ_CST)) {
            return fail(eng, RNG_E_SELFTEST);
        }
        eng->epoch = epoch;
        if (eng->mode == RNG_DRBG_PRODUCTION) { /* a forked child: never the parent's stream */
            drop_buffer(eng);
            int status = reseed_from_os(eng, NULL, 0);
            if (status != RNG_OK) {
                return status;
            }
        }
    }
    return RNG_OK;
}

/* Production: the continuous test on n freshly generated bytes at out
   (whole requests, not yet handed out); a repeat latches the engine closed. */
static int check_output(rng_drbg *eng, uint8_t *out, size_t n)
{
    if (eng->mode != RNG_DRBG_PRODUCTION || n == 0) {
        return RNG_OK;
    }
    int status = rng_continuous_check(&eng->continuous, out, n);
    return status == RNG_OK ? RNG_OK : fail(eng, status);
}

/* One Generate request of REQUEST bytes into out (the caller runs the
   continuous test on it before any of it can be read). */
static int request(rng_drbg *eng, uint8_t *out)
{
    int status;
    if (eng->mode == RNG_DRBG_PRODUCTION && eng->prediction_resistance) {
        status = reseed_from_os(eng, NULL, 0);
        if (status != RNG_OK) {
            return status;
        }
    }
    status = mech_generate(&eng->w, eng->mechanism, out, REQUEST);
    if (status == RNG_E_EXHAUSTED && eng->mode == RNG_DRBG_PRODUCTION) {
        status = reseed_from_os(eng, NULL, 0); /* the reseed counter passed the interval */
        if (status == RNG_OK) {
            status = mech_generate(&eng->w, eng->mechanism, out, REQUEST);
        }
    }
    if (status != RNG_OK) {
        return fail(eng, status);
    }
    eng->requests++;
    eng->produced += REQUEST;
    return RNG_OK;
}

static int fill_output(rng_drbg *eng, uint8_t *dst, size_t nbytes)
{
    int status = ready(eng);
    if (status != RNG_OK) {
        return status;
    }
    rng_outbuf_drain(eng->buf, REQUEST, &eng->pos, &dst, &nbytes);
    uint8_t *bulk = dst; /* whole requests straight into dst, one contiguous run */
    for (; nbytes >= REQUEST; dst += REQUEST, nbytes -= REQUEST) {
        status = request(eng, dst);
        if (status != RNG_OK) {
            return status;
        }
    }
    status = check_output(eng, bulk, (size_t)(dst - bulk)); /* once over the run */
    if (status != RNG_OK) {
        return status;
    }
    if (nbytes > 0) {
        status = request(eng, eng->buf);
        if (status == RNG_OK) {
            status = check_output(eng, eng->buf, REQUEST);
        }
        if (status != RNG_OK) {
            return status;
        }
        eng->pos = 0;
        rng_outbuf_take(eng->buf, REQUEST, &eng->pos, dst, nbytes);
    }
    return RNG_OK;
}

int rng_drbg_fill(rng_drbg *eng, void *out, size_t nbytes)
{
    int status = fill_output(eng, out, nbytes);
    if (status != RNG_OK) {
        memset(out, 0, nbytes);
    }
    return status;
}

static int init_common(rng_drbg *eng, int mechanism, int mode, uint64_t reseed_interval)
{
    memset(eng, 0, sizeof *eng);
    eng->pos = REQUEST;
    eng->mechanism = mechanism;
    eng->mode = mode;
    rng_continuous_init(&eng->continuous);
    /* Read before the self-test, so a run failing in between is caught. */
    eng->epoch = __atomic_load_n(&drbg_epoch, __ATOMIC_SEQ_CST);
    eng->bad_selftest_runs = __atomic_load_n(&bad_runs, __ATOMIC_SEQ_CST);
    pthread_once(&atfork_once, register_atfork);
    if (atfork_status != RNG_OK) {
        return fail(eng, atfork_status);
    }
    if (mechanism < RNG_DRBG_HMAC_SHA256 || mechanism > RNG_DRBG_CTR_AES256_NO_DF || reseed_interval == 0
        || reseed_interval > RNG_DRBG_MAX_RESEED_INTERVAL) {
        return fail(eng, RNG_E_ARGUMENT);
    }
    if (rng_drbg_selftest() != RNG_OK) {
        return fail(eng, RNG_E_SELFTEST);
    }
    return RNG_OK;
}

int rng_drbg_init_replay(rng_drbg *eng, int mechanism, const uint8_t *entropy, size_t entropy_len,
                         const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *personalization, size_t personalization_len, uint64_t reseed_interval)
{
    int status = init_common(eng, mechanism, RNG_DRBG_REPLAY, reseed_interval);
    if (status == RNG_OK) {
        status = mech_instantiate(&eng->w, mechanism, entropy, entropy_len, nonce, nonce_len, personalization,
                                  personalization_len);
    }
    if (status != RNG_OK) {
        return fail(eng, status);
    }
    *mech_interval(&eng->w, mechanism) = reseed_interval;
    return RNG_OK;
}

int rng_drbg_init_production(rng_drbg *eng, int mechanism, const uint8_t *personalization,
                             size_t personalization_len, uint64_t reseed_interval, int prediction_resistance)
{
    int status = init_common(eng, mechanism, RNG_DRBG_PRODUCTION, reseed_interval);
    if (status != RNG_OK) {
        return status;
    }
    eng->prediction_resistance = prediction_resistance ? 1 : 0;
    uint8_t fresh[RNG_CTR_DRBG_SEEDLEN + 16];
    size_t en = entropy_bytes(mechanism), nn = nonce_bytes(mechanism);
    status = rng_entropy_fill(fresh, en + nn);
    if (status != RNG_OK) {
        rng_memzero(fresh, sizeof fresh);
        return fail(eng, status);
    }
    status = mech_instantiate(&eng->w, mechanism, fresh, en, fresh + en, nn, personalization, personalization_len);
    rng_memzero(fresh, sizeof fresh);
    if (status != RNG_OK) {
        return fail(eng, status);
    }
    *mech_interval(&eng->w, mechanism) = reseed_interval;
    eng->seedings = 1;
    return RNG_OK;
}

int rng_drbg_reseed(rng_drbg *eng, const uint8_t *additional, size_t additional_len)
{
    if (eng->mode != RNG_DRBG_PRODUCTION) {
        return RNG_E_ARGUMENT;
    }
    int status = ready(eng);
    if (status != RNG_OK) {
        return status;
    }
    drop_buffer(eng); /* nothing generated before the reseed is handed out after it */
    return reseed_from_os(eng, additional, additional_len);
}

uint64_t rng_drbg_position(const rng_drbg *eng)
{
    return eng->produced - (REQUEST - eng->pos);
}

uint64_t rng_drbg_reseed_counter(const rng_drbg *eng)
{
    return is_ctr(eng->mechanism) ? eng->w.ctr.reseed_counter : eng->w.hmac.reseed_counter;
}

/* ---- rng_source ---------------------------------------------------------------- */

/* The next n (4 or 8) bytes into b: from the buffer when no check is due
   (enough unread bytes, no fork or failed self-test since the last
   check), else through fill and its checks. */
static int take_word(rng_drbg *eng, uint8_t *b, uint32_t n)
{
    if (eng->pos <= REQUEST - n && eng->epoch == __atomic_load_n(&drbg_epoch, __ATOMIC_RELAXED)) {
        rng_outbuf_take(eng->buf, REQUEST, &eng->pos, b, n);
        return RNG_OK;
    }
    return rng_drbg_fill(eng, b, n);
}

static uint32_t source_next32(void *state)
{
    uint8_t b[4];
    return take_word(state, b, 4) == RNG_OK ? rng_load32_le(b) : UINT32_MAX;
}

static uint64_t source_next64(void *state)
{
    uint8_t b[8];
    return take_word(state, b, 8) == RNG_OK ? rng_load64_le(b) : UINT64_MAX;
}

/* count next64 words in one fill (all ones on failure, as next64's). */
static int source_words64(void *state, uint64_t *out, size_t count)
{
    return rng_source_words_from_fill(rng_drbg_fill(state, out, count * sizeof *out), out, count);
}

static int source_fill(void *state, void *out, size_t n) { return rng_drbg_fill(state, out, n); }

void rng_drbg_source(rng_drbg *eng, rng_source *src)
{
    rng_source_bind(src, eng, source_next32, source_next64, source_fill, source_words64, eng->status);
    eng->source = src;
}

void rng_drbg_wipe(rng_drbg *eng)
{
    eng->source = NULL;
    fail(eng, RNG_E_ARGUMENT);
}

/* ---- power-on self-test ---------------------------------------------------------- */

/* COUNT 0 of the first section of each no_reseed CAVP file (CAVS 14.3,
   tests/vectors/); instantiate, generate twice, compare the second. */
typedef struct drbg_kat {
    int mechanism;
    const char *entropy, *nonce, *returned;
} drbg_kat;

static const drbg_kat DRBG_KATS[] = {
    {RNG_DRBG_HMAC_SHA256, "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488",
     "659ba96c601dc69fc902940805ec0ca8",
     "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89d54fbb978a15b5c443c9ec21036d2460"
     "b6f73ebad0dc2aba6e624abf07745bc107694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
     "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8"},
    {RNG_DRBG_CTR_AES256, "36401940fa8b1fba91a1661f211d78a0b9389a74e5bccfece8d766af1a6d3b14",
     "496f25b0f1301b4f501be30380a137eb",
     "5862eb38bd558dd978a696e6df164782ddd887e7e9a6c9f3f1fbafb78941b535a64912dfd224c6dc7454e5250b3d9716"
     "5e16260c2faf1cc7735cb75fb4f07e1d"},
    {RNG_DRBG_CTR_AES256_NO_DF,
     "df5d73faa468649edda33b5cca79b0b05600419ccb7a879ddfec9db32ee494e5531b51de16a30f769262474c73bec010", "",
     "d1c07cd95af8a7f11012c84ce48bb8cb87189e99d40fccb1771c619bdf82ab2280b1dc2f2581f39164f7ac0c510494b3"
     "a43c41b7db17514c87b107ae793e01c5"},
};

/* SP 800-38A F.5.5 (CTR-AES256.Encrypt): the keystream blocks. */
static const char AES_KEY[] = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4";
static const char AES_COUNTER[] = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
static const char AES_KEYSTREAM[] = "0bdf7df1591716335e9a8b15c860c5025a6e699d536119065433863c8f657b94"
                                    "1bc12c9c01610d5d0d8bd6a3378eca622956e1c8693536b1bee99c73a31576b6";

static size_t unhex(const char *hex, uint8_t *out)
{
    size_t n = strlen(hex) / 2;
    for (size_t i = 0; i < n; i++) {
        uint8_t byte = 0;
        for (int j = 0; j < 2; j++) {
            char c = hex[2 * i + j];
            byte = (uint8_t)(byte << 4 | (c <= '9' ? c - '0' : c - 'a' + 10));
        }
        out[i] = byte;
    }
    return n;
}

/* Equal, unless the test layer corrupts the self-test. */
static int same(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t diff = rng_fault_selftest_corrupt() ? 1 : 0;
    for (size_t i = 0; i < n; i++) {
        diff |= a[i] ^ b[i];
    }
    return diff == 0;
}

static int kats_pass(void)
{
    uint8_t e[64], n[16], want[128], got[128];
    int ok = 1;
    for (size_t i = 0; i < sizeof DRBG_KATS / sizeof DRBG_KATS[0]; i++) {
        const drbg_kat *k = &DRBG_KATS[i];
        rng_drbg_working w;
        size_t en = unhex(k->entropy, e), nn = unhex(k->nonce, n), len = unhex(k->returned, want);
        int status = mech_instantiate(&w, k->mechanism, e, en, n, nn, NULL, 0);
        status |= mech_generate(&w, k->mechanism, got, len);
        status |= mech_generate(&w, k->mechanism, got, len);
        ok &= status == RNG_OK && same(got, want, len);
        rng_memzero(&w, sizeof w);
    }
    uint8_t key[32], counter[16];
    unhex(AES_KEY, key);
    unhex(AES_COUNTER, counter);
    unhex(AES_KEYSTREAM, want);
    ok &= rng_aes_ctr(key, 32, counter, got, 4) == RNG_OK && same(got, want, 64);
    return ok;
}

int rng_drbg_selftest_run(void)
{
    /* Every AES and SHA-256 path this CPU has, then back to the selected ones. */
    int aes = rng_aes_get_impl(), sha = rng_sha256_get_impl(), ok = 1;
    for (int s = RNG_SHA_IMPL_PORTABLE; s <= RNG_SHA_IMPL_SHANI; s++) {
        for (int a = RNG_AES_IMPL_PORTABLE; a <= RNG_AES_IMPL_VAES; a++) {
            if (rng_sha256_set_impl(s) == RNG_OK && rng_aes_set_impl(a) == RNG_OK) {
                ok &= kats_pass();
            }
        }
    }
    rng_aes_set_impl(aes);
    rng_sha256_set_impl(sha);
    if (!ok) {
        __atomic_add_fetch(&bad_runs, 1, __ATOMIC_SEQ_CST);
        __atomic_store_n(&selftest_state, -1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&drbg_epoch, 1, __ATOMIC_SEQ_CST); /* every live engine rechecks, then fails */
        return RNG_E_SELFTEST;
    }
    __atomic_store_n(&selftest_state, 1, __ATOMIC_SEQ_CST);
    return RNG_OK;
}

static pthread_once_t selftest_once = PTHREAD_ONCE_INIT;

static void selftest_first(void) { (void)rng_drbg_selftest_run(); }

int rng_drbg_selftest(void)
{
    pthread_once(&selftest_once, selftest_first);
    return __atomic_load_n(&selftest_state, __ATOMIC_SEQ_CST) == 1 ? RNG_OK : RNG_E_SELFTEST;
}

int rng_drbg_selftest_passed(void) { return __atomic_load_n(&selftest_state, __ATOMIC_SEQ_CST) == 1; }
