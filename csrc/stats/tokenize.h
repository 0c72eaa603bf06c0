/*
 * tokenize.h -- the fast path of the text capture reader (stats/io.py, stats/_text_scan.py).
 *
 * A text capture is one outcome per line, its values separated by commas,
 * semicolons or white space.  stat_scan_lines reads whole lines of a buffer
 * and turns each value into the id the reader gave that spelling
 * (stat_vocab_add), so that counting 10^9 outcomes never builds a Python
 * string.  It handles only the plain case: an ASCII line no longer than the
 * limit whose values are all known spellings, exactly `width` of them (or a
 * blank or comment line).  At any other line it stops and says where: the
 * reader's Python code reads that one line (a first spelling to classify, a
 * non-ASCII line, an error to name with its line number) and calls again
 * after it.  So every message and every decision stays in Python, and the
 * kernel cannot disagree with it on what a line means.
 *
 * Lines end at "\n", "\r\n" or "\r" (Python's universal newlines).  White
 * space is the ASCII set str.isspace() takes: \t \n \v \f \r \x1c-\x1f and
 * space.  A value is a maximal run of other bytes, minus leading and
 * trailing '"', then leading and trailing '\''; as Python's
 * v.strip('"').strip("'").
 */
#ifndef STAT_TOKENIZE_H
#define STAT_TOKENIZE_H

#include <stddef.h>
#include <stdint.h>

/* cffi:begin */
#define STAT_SCAN_DONE 0     /* every whole line of the buffer read, or max_rows rows made */
#define STAT_SCAN_SLOW 1     /* stopped before a line the kernel does not read (scan->consumed is its start) */
#define STAT_SCAN_FULL 2     /* stat_vocab_add: the vocabulary is full (the reader goes on in Python) */
#define STAT_SCAN_ERROR -3   /* bad arguments */
#define STAT_VOCAB_TOKEN 64  /* longest spelling kept (the reader's MAX_TOKEN) */

typedef struct stat_vocab stat_vocab;

typedef struct {
    size_t consumed;        /* bytes of the buffer read: whole lines, terminators included */
    uint64_t line;          /* lines read so far (in: before the buffer; out: after the lines read) */
    size_t rows;            /* outcome rows made (their ids are out[0 .. rows * width - 1]) */
    uint64_t last_row_line; /* line number (1-based) of the last row made; unchanged when none */
} stat_scan;

/* A vocabulary of at most `capacity` spellings (NULL when out of memory). */
stat_vocab *stat_vocab_new(size_t capacity);
void stat_vocab_free(stat_vocab *vocab);
/* Learn `token` (len bytes, at most STAT_VOCAB_TOKEN) as `id`; STAT_SCAN_FULL when full,
   STAT_SCAN_ERROR for a bad length, else STAT_SCAN_DONE (an already-known spelling keeps its id). */
int stat_vocab_add(stat_vocab *vocab, const uint8_t *token, size_t len, uint16_t id);

/* Read whole lines of buf[0 .. len - 1] (the last one may lack its terminator only when
   `final`), making at most max_rows rows of `width` ids into out.  Lines whose content,
   terminator counted as one character, is longer than max_line stop the scan, as do
   non-ASCII lines, values of unknown spelling and rows of another width. */
int stat_scan_lines(const stat_vocab *vocab, const uint8_t *buf, size_t len, int final, size_t width,
                    size_t max_rows, size_t max_line, uint16_t *out, stat_scan *scan);
/* cffi:end */

#endif
