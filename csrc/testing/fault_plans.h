/*
 * fault_plans.h -- fault plans for the core's entropy reads and
 * self-test, installed through the core's seam (csrc/core/faults.h).
 *
 * rngcore.testing installs rngtest_faults() once at import; with no plan set
 * every read passes through unchanged.  A plan applies to every thread.
 */
#ifndef RNGTEST_FAULT_PLANS_H
#define RNGTEST_FAULT_PLANS_H

#include <stddef.h>
#include "faults.h"

/* cffi:begin */
#define RNGTEST_READ_PASS 0   /* the OS read as asked */
#define RNGTEST_READ_FAIL 1   /* the read fails (errno EIO) */
#define RNGTEST_READ_ZERO 2   /* the read returns 0 bytes */
#define RNGTEST_READ_SHORT 3  /* the read returns at most `limit` bytes */
#define RNGTEST_READ_EINTR 4  /* the read is interrupted (errno EINTR) */

/* From the read after the next `after` reads on, every OS entropy read
   behaves as `mode` (RNGTEST_READ_*); `limit` is the SHORT read size.
   Resets the read count. */
void rngtest_entropy_plan(int mode, long after, long limit);
/* End the current plan after `count` faulted reads (0, the default of every
   new plan: never); the reads after those pass again. */
void rngtest_entropy_plan_count(long count);
/* OS entropy reads the core has attempted since the last plan was set. */
long rngtest_entropy_reads(void);
/* Shorthand: fail != 0 makes every read fail from now on; 0 passes all. */
void rngtest_entropy_fail(int fail);
#define RNGTEST_TAMPER_NONE 0    /* delivered bytes as the OS gave them */
#define RNGTEST_TAMPER_STUCK 1   /* every byte is `value` (a stuck source) */
#define RNGTEST_TAMPER_REPEAT 2  /* each byte is repeated to `run` bytes (a source repeating its samples) */
#define RNGTEST_TAMPER_BIASED 3  /* two of every three bytes are `value`, the third never is (one value far too common, no run of 3) */

/* From the next `after` delivered bytes on (they pass), rewrite delivered
   entropy as `mode` (RNGTEST_TAMPER_*).  Positions count the bytes
   delivered since this call, across reads.  RNGTEST_TAMPER_NONE ends it. */
void rngtest_entropy_tamper(int mode, int value, long run, long after);
/* Bytes rewritten since the last rngtest_entropy_tamper. */
long rngtest_entropy_tampered(void);
#define RNGTEST_OUTPUT_NONE 0           /* production output as the engine made it */
#define RNGTEST_OUTPUT_REPEAT_INSIDE 1  /* a batch's second block is a copy of its first */
#define RNGTEST_OUTPUT_REPEAT_ACROSS 2  /* a batch's first block is a copy of the previous batch's last */
#define RNGTEST_OUTPUT_ACROSS_2 3       /* a batch's first block is a copy of the previous batch's second to last */
#define RNGTEST_OUTPUT_SECOND_ACROSS 4  /* a batch's second block is a copy of the previous batch's last */
#define RNGTEST_OUTPUT_UNIT_ACROSS 5    /* a batch's first two blocks are copies of the previous batch's last two */

/* After `after` batches of production output pass untouched, rewrite each
   later batch as `mode` (RNGTEST_OUTPUT_*), in blocks of `block` bytes
   (the engine's continuous-test block, continuous.h).  NONE ends it. */
void rngtest_output_tamper(int mode, long block, long after);
/* Batches rewritten since the last rngtest_output_tamper. */
long rngtest_output_tampered(void);
/* While non-zero, every self-test run sees a corrupted keystream bit. */
void rngtest_selftest_fail(int fail);
/* The fault table rngcore.testing installs with rng_faults_install. */
const rng_faults *rngtest_faults(void);
/* cffi:end */

#endif
