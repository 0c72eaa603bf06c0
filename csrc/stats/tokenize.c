/*
 * tokenize.c -- see tokenize.h.
 *
 * The vocabulary is an open-addressing hash table (FNV-1a, linear probing,
 * at most half full) over a pool of spellings; a capture has a few dozen
 * distinct spellings, so every lookup is one probe and one short memcmp.
 * Spellings of one or two bytes (a wheel's index or pocket, a die face: most
 * values of most captures) are also kept in direct tables indexed by their
 * bytes, so they cost one load and no hash: at 20 M values/s the hash and
 * the memcmp were half the kernel's time.
 *
 * Bytes are classified by one table (byte_class) rather than by chains of
 * comparisons: the line scan and the value scan each test one bit per byte.
 */
#include "tokenize.h"

#include <stdlib.h>
#include <string.h>

#define DIRECT (256 + 256 * 256)

struct stat_vocab {
    size_t slots;      /* power of two, at least twice capacity */
    size_t capacity;
    size_t used;
    int32_t *slot;     /* entry index, or -1 for an empty slot */
    int32_t *direct;   /* entry of a 1-byte spelling at [b], of a 2-byte one at [256 + 256 b0 + b1]; -1 none */
    uint8_t *text;     /* entry i's spelling at text[i * STAT_VOCAB_TOKEN] */
    uint8_t *length;
    uint16_t *id;
};

static uint64_t fnv1a(const uint8_t *p, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

stat_vocab *stat_vocab_new(size_t capacity)
{
    if (capacity == 0 || capacity > (1u << 20))
        return NULL;
    stat_vocab *v = calloc(1, sizeof *v);
    if (v == NULL)
        return NULL;
    size_t slots = 16;
    while (slots < 2 * capacity)
        slots <<= 1;
    v->slots = slots;
    v->capacity = capacity;
    v->slot = malloc(slots * sizeof *v->slot);
    v->text = malloc(capacity * STAT_VOCAB_TOKEN);
    v->length = malloc(capacity);
    v->id = malloc(capacity * sizeof *v->id);
    v->direct = malloc(DIRECT * sizeof *v->direct);
    if (v->slot == NULL || v->text == NULL || v->length == NULL || v->id == NULL || v->direct == NULL) {
        stat_vocab_free(v);
        return NULL;
    }
    for (size_t i = 0; i < slots; i++)
        v->slot[i] = -1;
    for (size_t i = 0; i < DIRECT; i++)
        v->direct[i] = -1;
    return v;
}

void stat_vocab_free(stat_vocab *vocab)
{
    if (vocab == NULL)
        return;
    free(vocab->slot);
    free(vocab->text);
    free(vocab->length);
    free(vocab->id);
    free(vocab->direct);
    free(vocab);
}

/* The slot holding `token`, or the empty slot where it would go. */
static size_t probe(const stat_vocab *v, const uint8_t *token, size_t len)
{
    size_t mask = v->slots - 1, at = (size_t)fnv1a(token, len) & mask;
    for (;;) {
        int32_t e = v->slot[at];
        if (e < 0 || (v->length[e] == len && memcmp(v->text + (size_t)e * STAT_VOCAB_TOKEN, token, len) == 0))
            return at;
        at = (at + 1) & mask;
    }
}

int stat_vocab_add(stat_vocab *vocab, const uint8_t *token, size_t len, uint16_t id)
{
    if (vocab == NULL || (token == NULL && len > 0) || len > STAT_VOCAB_TOKEN)
        return STAT_SCAN_ERROR;
    size_t at = probe(vocab, token, len);
    if (vocab->slot[at] >= 0)
        return STAT_SCAN_DONE;
    if (vocab->used == vocab->capacity)
        return STAT_SCAN_FULL;
    size_t e = vocab->used++;
    if (len)
        memcpy(vocab->text + e * STAT_VOCAB_TOKEN, token, len);
    vocab->length[e] = (uint8_t)len;
    vocab->id[e] = id;
    vocab->slot[at] = (int32_t)e;
    if (len == 1)
        vocab->direct[token[0]] = (int32_t)e;
    else if (len == 2)
        vocab->direct[256 + 256 * (size_t)token[0] + token[1]] = (int32_t)e;
    return STAT_SCAN_DONE;
}

/* The entry of `token`, or -1. */
static inline int32_t lookup(const stat_vocab *v, const uint8_t *token, size_t len)
{
    if (len == 1)
        return v->direct[token[0]];
    if (len == 2)
        return v->direct[256 + 256 * (size_t)token[0] + token[1]];
    return v->slot[probe(v, token, len)];
}

/* Byte classes.  White space is str.isspace() on ASCII: \t \n \v \f \r, \x1c-\x1f, space;
   a separator is white space, ',' or ';'; a line ends at \n or \r; bytes >= 0x80 are not ASCII. */
enum { SPACE = 1, SEPARATOR = 2, LINE_END = 4, HIGH = 8 };

#define WS (SPACE | SEPARATOR)
static const uint8_t byte_class[256] = {
    ['\t'] = WS, ['\n'] = WS | LINE_END, ['\v'] = WS, ['\f'] = WS, ['\r'] = WS | LINE_END,
    [0x1c] = WS, [0x1d] = WS, [0x1e] = WS, [0x1f] = WS, [' '] = WS, [','] = SEPARATOR, [';'] = SEPARATOR,
#define H8(b) [b] = HIGH, [b + 1] = HIGH, [b + 2] = HIGH, [b + 3] = HIGH, \
              [b + 4] = HIGH, [b + 5] = HIGH, [b + 6] = HIGH, [b + 7] = HIGH
    H8(0x80), H8(0x88), H8(0x90), H8(0x98), H8(0xa0), H8(0xa8), H8(0xb0), H8(0xb8),
    H8(0xc0), H8(0xc8), H8(0xd0), H8(0xd8), H8(0xe0), H8(0xe8), H8(0xf0), H8(0xf8),
#undef H8
};
#undef WS

static inline int is_space(uint8_t c)
{
    return byte_class[c] & SPACE;
}

static inline int is_separator(uint8_t c)
{
    return byte_class[c] & SEPARATOR;
}

/* Read one line's values into out; 1 when the kernel reads the line, 0 when Python must. */
static int line_values(const stat_vocab *v, const uint8_t *p, const uint8_t *end, size_t width,
                       uint16_t *out, size_t *values)
{
    size_t count = 0;
    while (p < end) {
        while (p < end && is_separator(*p))
            p++;
        if (p == end)
            break;
        const uint8_t *a = p;
        while (p < end && !is_separator(*p))
            p++;
        const uint8_t *b = p;
        while (a < b && *a == '"')
            a++;
        while (b > a && b[-1] == '"')
            b--;
        while (a < b && *a == '\'')
            a++;
        while (b > a && b[-1] == '\'')
            b--;
        size_t len = (size_t)(b - a);
        if (count == width || len > STAT_VOCAB_TOKEN)
            return 0;
        int32_t e = lookup(v, a, len);
        if (e < 0)
            return 0;
        out[count++] = v->id[e];
    }
    *values = count;
    return count == width;
}

int stat_scan_lines(const stat_vocab *vocab, const uint8_t *buf, size_t len, int final, size_t width,
                    size_t max_rows, size_t max_line, uint16_t *out, stat_scan *scan)
{
    if (vocab == NULL || scan == NULL || width == 0 || (buf == NULL && len > 0) || (out == NULL && max_rows > 0))
        return STAT_SCAN_ERROR;
    size_t pos = 0, rows = 0;
    uint64_t line = scan->line;
    int status = STAT_SCAN_DONE;
    while (pos < len && rows < max_rows) {
        const uint8_t *start = buf + pos, *p = start, *stop = buf + len;
        if (width == 1) {
            /* The common line, one plain value and its terminator, read in one scan; any other
               line (spaces, quotes, a comment, a "\r" that may start "\r\n") takes the general path.
               Kept beside the general path because it pays: a 10^7-line CSV of roulette indices is
               checked and read at 25-28 M values/s of CPU time with it, 19 M without (the general
               path's three scans of each line), under the 20 M/s the capture reader must reach. */
            while (p < stop && !(byte_class[*p] & (SEPARATOR | LINE_END | HIGH)))
                p++;
            size_t n = (size_t)(p - start);
            if (p < stop && n && n <= STAT_VOCAB_TOKEN && n + 1 <= max_line
                    && (*p == '\n' || (*p == '\r' && p + 1 < stop))
                    && *start != '#' && *start != '"' && *start != '\'' && p[-1] != '"' && p[-1] != '\'') {
                int32_t e = lookup(vocab, start, n);
                if (e >= 0) {
                    out[rows++] = vocab->id[e];
                    scan->last_row_line = ++line;
                    pos += n + ((*p == '\r' && p[1] == '\n') ? 2 : 1);
                    continue;
                }
            }
            p = start;
        }
        int ascii = 1;
        while (p < stop && !(byte_class[*p] & (LINE_END | HIGH)))
            p++;
        if (p < stop && (byte_class[*p] & HIGH)) {  /* (rare: the line goes to Python) */
            ascii = 0;
            while (p < stop && *p != '\n' && *p != '\r')
                p++;
        }
        size_t next = (size_t)(p - buf);
        int terminated = p < stop;
        if (!terminated && !final)
            break;                  /* a partial line: the caller brings the rest */
        if (terminated) {
            if (*p == '\r' && p + 1 == stop && !final)
                break;              /* "\r" or "\r\n"? the next buffer says */
            next += (*p == '\r' && p + 1 < stop && p[1] == '\n') ? 2 : 1;
        }
        if (!ascii || (size_t)(p - start) + (size_t)terminated > max_line) {
            status = STAT_SCAN_SLOW;
            break;
        }
        const uint8_t *q = start;
        while (q < p && is_space(*q))
            q++;
        if (q < p && *q != '#') {   /* an outcome row (blank and comment lines are read past) */
            size_t values = 0;
            if (!line_values(vocab, q, p, width, out + rows * width, &values)) {
                status = STAT_SCAN_SLOW;
                break;
            }
            rows++;
            scan->last_row_line = line + 1;
        }
        line++;
        pos = next;
    }
    scan->consumed = pos;
    scan->line = line;
    scan->rows = rows;
    return status;
}
