/* chacha20_selftest.c -- RFC 8439 known answers on every keystream path. */
#include "chacha20_selftest.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "byteorder.h"
#include "chacha20.h"
#include "chacha20_avx2.h"
#include "chacha20_avx512.h"
#include "entropy.h"
#include "faults.h"

typedef struct kat {
    const char *key;
    const char *nonce;
    long long counter;
    const char *plaintext;
    const char *ciphertext;
} kat;

/* Copied verbatim from /work/shared/vectors/chacha20_rfc8439.txt (extracted
   from RFC 8439 sections 2.3.2, 2.4.2, A.1, A.2); tests/test_core_kat.py
   checks this table equals tests/vectors/chacha20_rfc8439.txt field by field. */
static const kat KATS[] = {
    /* COUNT 0: RFC 8439 section 2.3.2 (block function) */
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "000000090000004a00000000", 1,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2"
         "b5129cd1de164eb9cbd083e8a2503c4e"},
    /* COUNT 1: RFC 8439 section 2.4.2 (encryption, "sunscreen") */
    {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
     "000000000000004a00000000", 1,
     "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f66202739393a20496620492063"
         "6f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220746865206675747572652c2073756e73"
         "637265656e20776f756c642062652069742e",
     "6e2e359a2568f98041ba0728dd0d6981e97e7aec1d4360c20a27afccfd9fae0bf91b65c5524733ab8f593dabcd62b357"
         "1639d624e65152ab8f530c359f0861d807ca0dbf500d6a6156a38e088a22b65e52bc514d16ccf806818ce91ab7793736"
         "5af90bbf74a35be6b40b8eedf2785e42874d"},
    /* COUNT 2: RFC 8439 Appendix A.1 block function test vector #1 */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 0,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a37"
         "6a43b8f41518a11cc387b669b2ee6586"},
    /* COUNT 3: RFC 8439 Appendix A.1 block function test vector #2 */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 1,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed29b721769ce64e43d57133b074d839d5"
         "31ed1f28510afb45ace10a1f4b794d6f"},
    /* COUNT 4: RFC 8439 Appendix A.1 block function test vector #3 */
    {"0000000000000000000000000000000000000000000000000000000000000001",
     "000000000000000000000000", 1,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a8eca00bbb4a73bdad192b5c42f73f2fd"
         "4e273644c8b36125a64addeb006c13a0"},
    /* COUNT 5: RFC 8439 Appendix A.1 block function test vector #4 */
    {"00ff000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 2,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "72d54dfbf12ec44b362692df94137f328fea8da73990265ec1bbbea1ae9af0ca13b25aa26cb4a648cb9b9d1be65b2c09"
         "24a66c54d545ec1b7374f4872e99f096"},
    /* COUNT 6: RFC 8439 Appendix A.1 block function test vector #5 */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000002", 0,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "c2c64d378cd536374ae204b9ef933fcd1a8b2288b3dfa49672ab765b54ee27c78a970e0e955c14f3a88e741b97c286f7"
         "5f8fc299e8148362fa198a39531bed6d"},
    /* COUNT 7: RFC 8439 Appendix A.2 encryption test vector #1 */
    {"0000000000000000000000000000000000000000000000000000000000000000",
     "000000000000000000000000", 0,
     "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
         "00000000000000000000000000000000",
     "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d7724e03fb8d84a37"
         "6a43b8f41518a11cc387b669b2ee6586"},
    /* COUNT 8: RFC 8439 Appendix A.2 encryption test vector #2 */
    {"0000000000000000000000000000000000000000000000000000000000000001",
     "000000000000000000000002", 1,
     "416e79207375626d697373696f6e20746f20746865204945544620696e74656e6465642062792074686520436f6e7472"
         "696275746f7220666f72207075626c69636174696f6e20617320616c6c206f722070617274206f6620616e2049455446"
         "20496e7465726e65742d4472616674206f722052464320616e6420616e792073746174656d656e74206d616465207769"
         "7468696e2074686520636f6e74657874206f6620616e204945544620616374697669747920697320636f6e7369646572"
         "656420616e20224945544620436f6e747269627574696f6e222e20537563682073746174656d656e747320696e636c75"
         "6465206f72616c2073746174656d656e747320696e20494554462073657373696f6e732c2061732077656c6c20617320"
         "7772697474656e20616e6420656c656374726f6e696320636f6d6d756e69636174696f6e73206d61646520617420616e"
         "792074696d65206f7220706c6163652c207768696368206172652061646472657373656420746f",
     "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec2a97948bd3722915c8f3d337f7d37005"
         "0e9e96d647b7c39f56e031ca5eb6250d4042e02785ececfa4b4bb5e8ead0440e20b6e8db09d881a7c6132f420e527950"
         "42bdfa7773d8a9051447b3291ce1411c680465552aa6c405b7764d5e87bea85ad00f8449ed8f72d0d662ab052691ca66"
         "424bc86d2df80ea41f43abf937d3259dc4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b"
         "0871cdac638939e25e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6ccc3aaf9f3979c92b3720fc88dc95ed84"
         "a1be059c6499b9fda236e7e818b04b0bc39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80ef2554d7189c411f"
         "5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e698ced759c3ff9b6477338f3da4f9cd85"
         "14ea9982ccafb341b2384dd902f3d1ab7ac61dd29c6f21ba5b862f3730e37cfdc4fd806c22f221"},
    /* COUNT 9: RFC 8439 Appendix A.2 encryption test vector #3 */
    {"1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
     "000000000000000000000002", 42,
     "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a446964206779726520616e64"
         "2067696d626c6520696e2074686520776162653a0a416c6c206d696d737920776572652074686520626f726f676f7665"
         "732c0a416e6420746865206d6f6d65207261746873206f757467726162652e",
     "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf166d3df2d721caf9b21e5fb14c616871"
         "fd84c54f9d65b283196c7fe4f60553ebf39c6402c42234e32a356b3e764312a61a5532055716ead6962568f87d3f3f77"
         "04c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36757a797ac188d1"},
};

#define KAT_COUNT ((int)(sizeof KATS / sizeof KATS[0]))
#define KAT_MAX_BYTES 512 /* longest vector is 375 bytes: 6 blocks */

static int selftest_state = 0;      /* 0 not run, 1 passed, -1 failed */
static uint32_t selftest_failures = 0; /* failed runs so far */

int rng_chacha_kat_count(void)
{
    return KAT_COUNT;
}

const char *rng_chacha_kat_field(int index, int field)
{
    if (index < 0 || index >= KAT_COUNT) {
        return NULL;
    }
    switch (field) {
    case RNG_KAT_KEY: return KATS[index].key;
    case RNG_KAT_NONCE: return KATS[index].nonce;
    case RNG_KAT_PLAINTEXT: return KATS[index].plaintext;
    case RNG_KAT_CIPHERTEXT: return KATS[index].ciphertext;
    default: return NULL;
    }
}

long long rng_chacha_kat_counter(int index)
{
    return (index < 0 || index >= KAT_COUNT) ? -1 : KATS[index].counter;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decode hex into out (capacity cap); the byte count, or -1 if malformed. */
static int unhex(const char *hex, uint8_t *out, size_t cap)
{
    size_t len = strlen(hex);
    if (len % 2 != 0 || len / 2 > cap) {
        return -1;
    }
    for (size_t i = 0; i < len / 2; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return -1;
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return (int)(len / 2);
}

/* plaintext XOR keystream == ciphertext over n bytes (the injected fault
   flips one keystream bit first). */
static int matches(const uint8_t *pt, const uint8_t *ks, const uint8_t *ct, int n)
{
    uint8_t diff = rng_fault_selftest_corrupt() ? 1 : 0;
    for (int i = 0; i < n; i++) {
        diff |= (uint8_t)((pt[i] ^ ks[i]) ^ ct[i]);
    }
    return diff == 0;
}

static int check_vector(const kat *v)
{
    uint8_t key_bytes[32], nonce[12], pt[KAT_MAX_BYTES], ct[KAT_MAX_BYTES];
    uint8_t ks[RNG_CHACHA_AVX512_GROUP * 64];
    uint32_t key[8];
    if (unhex(v->key, key_bytes, 32) != 32 || unhex(v->nonce, nonce, 12) != 12) {
        return 0;
    }
    int n = unhex(v->plaintext, pt, sizeof pt);
    if (n <= 0 || unhex(v->ciphertext, ct, sizeof ct) != n || v->counter < 0 || v->counter > 0xffffffffLL) {
        return 0;
    }
    for (int i = 0; i < 8; i++) {
        key[i] = rng_load32_le(key_bytes + 4 * i);
    }
    uint64_t counter = (uint64_t)v->counter | ((uint64_t)rng_load32_le(nonce) << 32);
    uint64_t stream = (uint64_t)rng_load32_le(nonce + 4) | ((uint64_t)rng_load32_le(nonce + 8) << 32);
    int nblocks = (n + 63) / 64;
    if (nblocks > 8) {
        return 0;
    }

    rng_chacha20_blocks_portable(key, counter, stream, ks, (size_t)nblocks);
    int ok = matches(pt, ks, ct, n);

    if (rng_cpu_has_avx2()) {
        /* Start the group `lane` blocks early so the vector's first block is
           computed in that lane; this also crosses word 12 -> 13 carries and
           the 2^64 wrap for vectors with a small counter. */
        for (int lane = 0; lane + nblocks <= 8; lane++) {
            rng_chacha20_avx2_groups(key, counter - (uint64_t)lane, stream, ks, 1);
            ok &= matches(pt, ks + 64 * lane, ct, n);
        }
    }
    if (rng_cpu_has_avx512()) {
        for (int lane = 0; lane + nblocks <= RNG_CHACHA_AVX512_GROUP; lane++) {
            rng_chacha20_avx512_groups(key, counter - (uint64_t)lane, stream, ks, 1);
            ok &= matches(pt, ks + 64 * lane, ct, n);
        }
    }
    rng_memzero(ks, sizeof ks);
    return ok;
}

int rng_chacha_selftest_run(void)
{
    int ok = KAT_COUNT == 10;
    for (int i = 0; i < KAT_COUNT; i++) {
        ok &= check_vector(&KATS[i]);
    }
    if (!ok) {
        /* Count the failure, then move the engines' epoch: every engine's
           next read takes the slow path and refuses (chacha20.h). */
        __atomic_add_fetch(&selftest_failures, 1, __ATOMIC_SEQ_CST);
        __atomic_store_n(&selftest_state, -1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&rng_chacha_epoch, 1, __ATOMIC_SEQ_CST);
        return RNG_E_SELFTEST;
    }
    __atomic_store_n(&selftest_state, 1, __ATOMIC_SEQ_CST);
    return RNG_OK;
}

int rng_chacha_selftest(void)
{
    int state = __atomic_load_n(&selftest_state, __ATOMIC_SEQ_CST);
    if (state == 0) {
        return rng_chacha_selftest_run();
    }
    return state == 1 ? RNG_OK : RNG_E_SELFTEST;
}

int rng_chacha_selftest_passed(void)
{
    return __atomic_load_n(&selftest_state, __ATOMIC_RELAXED) == 1;
}

uint32_t rng_chacha_selftest_bad_runs(void)
{
    return __atomic_load_n(&selftest_failures, __ATOMIC_SEQ_CST);
}
