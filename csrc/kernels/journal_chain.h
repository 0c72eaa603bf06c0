/*
 * journal_chain.h -- the round journal's hash chain over many records in one call.
 *
 * harness/rounds/journal.py defines the chain: record seq's hash is the
 * lowercase hex SHA-256 of  prev "\n" decimal(seq) "\n" body  (UTF-8), prev
 * being the hash of the record before it.  The journal chains a window of
 * rounds at once; done record by record in Python, the formatting, the hash
 * object and the hex digest of each record cost more than everything else
 * a journaled round does.  Here the records' bodies arrive as one buffer, each
 * body ended by one NUL (canonical JSON never holds a raw NUL: it writes
 * \u0000), and the hashes leave as one buffer of 64 hex digits each.  The
 * digest is the core's own SHA-256 (kern_core->sha256); tests/ compare the
 * chain with hashlib's record by record.
 */
#ifndef KERN_JOURNAL_CHAIN_H
#define KERN_JOURNAL_CHAIN_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
/* Chain the n records whose bodies fill bodies[0 .. len) (each ended by one
 * NUL) onto tip (64 hex digits, the hash before the first), numbering them
 * seq0, seq0 + 1, ...; their hashes go to out (64 * n hex digits, no NULs).
 * RNG_E_ARGUMENT (out untouched) if the buffer does not hold exactly n
 * NUL-ended bodies or seq0 + n overflows; RNG_E_MEMORY if no scratch memory. */
int kern_journal_chain(const char *bodies, size_t len, size_t n, uint64_t seq0, const char *tip, char *out);
/* cffi:end */

#endif
