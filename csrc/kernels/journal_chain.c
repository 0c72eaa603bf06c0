/* journal_chain.c -- the round journal's hash chain (journal_chain.h). */
#include "journal_chain.h"

#include <stdlib.h>
#include <string.h>

#include "core_link.h"

#define HASH_HEX 64
#define SEQ_DIGITS 20 /* UINT64_MAX has 20 decimal digits */

static const char HEX[] = "0123456789abcdef";

/* The decimal digits of v at p (no NUL); their count. */
static size_t put_decimal(char *p, uint64_t v)
{
    char digits[SEQ_DIGITS];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++) {
        p[i] = digits[n - 1 - i];
    }
    return n;
}

int kern_journal_chain(const char *bodies, size_t len, size_t n, uint64_t seq0, const char *tip, char *out)
{
    if (bodies == NULL || tip == NULL || out == NULL || kern_core == NULL || seq0 > UINT64_MAX - n) {
        return RNG_E_ARGUMENT;
    }
    /* Check the framing first, so that a bad buffer leaves out untouched. */
    size_t ends = 0;
    for (size_t i = 0; i < len; i++) {
        ends += bodies[i] == '\0';
    }
    if (ends != n || (len && bodies[len - 1] != '\0')) {
        return RNG_E_ARGUMENT;
    }
    /* One message buffer, as long as the longest message can be: prev, seq, two newlines, a body. */
    char *message = malloc(HASH_HEX + SEQ_DIGITS + 2 + len + 1);
    if (message == NULL) {
        return RNG_E_MEMORY;
    }
    memcpy(message, tip, HASH_HEX);
    const char *body = bodies;
    uint8_t digest[32];
    for (size_t i = 0; i < n; i++) {
        size_t body_len = strlen(body);
        size_t at = HASH_HEX;
        message[at++] = '\n';
        at += put_decimal(message + at, seq0 + i);
        message[at++] = '\n';
        memcpy(message + at, body, body_len);
        kern_core->sha256((const uint8_t *)message, at + body_len, digest);
        char *hex = out + (size_t)HASH_HEX * i;
        for (size_t b = 0; b < 32; b++) {
            hex[2 * b] = HEX[digest[b] >> 4];
            hex[2 * b + 1] = HEX[digest[b] & 15];
        }
        memcpy(message, hex, HASH_HEX); /* the next record's prev */
        body += body_len + 1;
    }
    free(message);
    return RNG_OK;
}
