/* fault_plans.c -- the fault plans of fault_plans.h. */
#include "fault_plans.h"

#include <errno.h>
#include <string.h>

static int plan_mode = RNGTEST_READ_PASS;
static long plan_after = 0;
static long plan_limit = 0;
static long plan_count = 0; /* faulted reads before the plan ends; 0: never */
static long reads_seen = 0;
static int selftest_corrupt = 0;

void rngtest_entropy_plan(int mode, long after, long limit)
{
    __atomic_store_n(&plan_mode, RNGTEST_READ_PASS, __ATOMIC_SEQ_CST);
    __atomic_store_n(&reads_seen, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&plan_after, after, __ATOMIC_SEQ_CST);
    __atomic_store_n(&plan_limit, limit, __ATOMIC_SEQ_CST);
    __atomic_store_n(&plan_count, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&plan_mode, mode, __ATOMIC_SEQ_CST);
}

void rngtest_entropy_plan_count(long count)
{
    __atomic_store_n(&plan_count, count, __ATOMIC_SEQ_CST);
}

long rngtest_entropy_reads(void)
{
    return __atomic_load_n(&reads_seen, __ATOMIC_SEQ_CST);
}

void rngtest_entropy_fail(int fail)
{
    rngtest_entropy_plan(fail ? RNGTEST_READ_FAIL : RNGTEST_READ_PASS, 0, 0);
}

void rngtest_selftest_fail(int fail)
{
    __atomic_store_n(&selftest_corrupt, fail != 0, __ATOMIC_SEQ_CST);
}

static long entropy_read(size_t n)
{
    long seen = __atomic_fetch_add(&reads_seen, 1, __ATOMIC_SEQ_CST);
    int mode = __atomic_load_n(&plan_mode, __ATOMIC_SEQ_CST);
    long after = __atomic_load_n(&plan_after, __ATOMIC_SEQ_CST);
    long count = __atomic_load_n(&plan_count, __ATOMIC_SEQ_CST);
    if (mode == RNGTEST_READ_PASS || seen < after || (count > 0 && seen >= after + count)) {
        return (long)n;
    }
    switch (mode) {
    case RNGTEST_READ_FAIL: return -EIO;
    case RNGTEST_READ_ZERO: return 0;
    case RNGTEST_READ_SHORT: return __atomic_load_n(&plan_limit, __ATOMIC_SEQ_CST);
    case RNGTEST_READ_EINTR: return -EINTR;
    default: return (long)n;
    }
}

static int selftest_corrupt_now(void)
{
    return __atomic_load_n(&selftest_corrupt, __ATOMIC_SEQ_CST);
}

/* Tamper plans.  The core calls the tamper fault under its health lock,
   so these need no atomics of their own beyond the plan switch. */
static int tamper_mode = RNGTEST_TAMPER_NONE;
static int tamper_value = 0;
static long tamper_run = 1;
static long tamper_after = 0;
static long tamper_pos = 0;  /* bytes delivered since the plan was set */
static long tampered = 0;
static unsigned char last_byte = 0;

void rngtest_entropy_tamper(int mode, int value, long run, long after)
{
    __atomic_store_n(&tamper_mode, RNGTEST_TAMPER_NONE, __ATOMIC_SEQ_CST);
    tamper_value = value & 0xff;
    tamper_run = run > 0 ? run : 1;
    tamper_after = after;
    tamper_pos = 0;
    tampered = 0;
    __atomic_store_n(&tamper_mode, mode, __ATOMIC_SEQ_CST);
}

long rngtest_entropy_tampered(void)
{
    return __atomic_load_n(&tampered, __ATOMIC_SEQ_CST);
}

static void entropy_tamper(unsigned char *bytes, size_t n)
{
    int mode = __atomic_load_n(&tamper_mode, __ATOMIC_SEQ_CST);
    for (size_t i = 0; i < n && mode != RNGTEST_TAMPER_NONE; i++, tamper_pos++) {
        if (tamper_pos < tamper_after) {
            continue;
        }
        long k = tamper_pos - tamper_after;
        unsigned char value = (unsigned char)tamper_value;
        switch (mode) {
        case RNGTEST_TAMPER_STUCK: bytes[i] = value; break;
        case RNGTEST_TAMPER_REPEAT:
            if (k % tamper_run != 0) {
                bytes[i] = last_byte;
            }
            break;
        case RNGTEST_TAMPER_BIASED:
            /* value, value, other: never three in a row (the RCT stays quiet), and
               since 3 does not divide the window every other window starts on value. */
            bytes[i] = k % 3 != 2 ? value : bytes[i] == value ? (unsigned char)(value ^ 1) : bytes[i];
            break;
        default: break;
        }
        last_byte = bytes[i];
        __atomic_add_fetch(&tampered, 1, __ATOMIC_SEQ_CST);
    }
}

/* Output plans.  Engines are used one thread at a time (rngcore's lock), and
   the tests that set a plan draw from one engine, so the plan switch is the
   only atomic. */
typedef struct output_plan {
    int mode;        /* RNGTEST_OUTPUT_* (the switch, read atomically) */
    size_t block;    /* bytes per block */
    long after;      /* batches that pass first */
    long batches;    /* batches seen since the plan was set */
    long tampered;   /* batches rewritten */
    int two_kept;    /* the batches seen so far held two blocks or more */
} output_plan;

static output_plan plan_out = {RNGTEST_OUTPUT_NONE, 32, 0, 0, 0, 0};
/* The last two blocks before this batch (the previous batch's last two, or
   its one block and the block before it), for the ACROSS plans. */
static unsigned char output_last[64], output_before[64];

void rngtest_output_tamper(int mode, long block, long after)
{
    __atomic_store_n(&plan_out.mode, RNGTEST_OUTPUT_NONE, __ATOMIC_SEQ_CST);
    size_t size = block > 0 && block <= (long)sizeof output_last ? (size_t)block : 32;
    plan_out = (output_plan){RNGTEST_OUTPUT_NONE, size, after, 0, 0, 0};
    __atomic_store_n(&plan_out.mode, mode, __ATOMIC_SEQ_CST);
}

long rngtest_output_tampered(void)
{
    return __atomic_load_n(&plan_out.tampered, __ATOMIC_SEQ_CST);
}

static void output_tamper(unsigned char *bytes, size_t n)
{
    int mode = __atomic_load_n(&plan_out.mode, __ATOMIC_SEQ_CST);
    size_t b = plan_out.block, count = n / b;
    if (mode == RNGTEST_OUTPUT_NONE || count == 0) {
        return;
    }
    long seen = plan_out.batches++; /* batches before this one */
    if (seen >= plan_out.after) {
        int two = count >= 2, prior = seen >= 1, prior2 = seen >= 2 || plan_out.two_kept;
        if (mode == RNGTEST_OUTPUT_REPEAT_INSIDE && two) {
            memcpy(bytes + b, bytes, b);
            plan_out.tampered++;
        } else if (mode == RNGTEST_OUTPUT_REPEAT_ACROSS && prior) {
            memcpy(bytes, output_last, b);
            plan_out.tampered++;
        } else if (mode == RNGTEST_OUTPUT_ACROSS_2 && prior2) {
            memcpy(bytes, output_before, b);
            plan_out.tampered++;
        } else if (mode == RNGTEST_OUTPUT_SECOND_ACROSS && prior && two) {
            memcpy(bytes + b, output_last, b);
            plan_out.tampered++;
        } else if (mode == RNGTEST_OUTPUT_UNIT_ACROSS && prior2 && two) {
            memcpy(bytes, output_before, b);
            memcpy(bytes + b, output_last, b);
            plan_out.tampered++;
        }
    }
    if (count >= 2) {
        memcpy(output_before, bytes + (count - 2) * b, b);
    } else {
        memcpy(output_before, output_last, b);
    }
    memcpy(output_last, bytes + (count - 1) * b, b);
    plan_out.two_kept = seen >= 1 || count >= 2;
}

static const rng_faults FAULTS = {entropy_read, entropy_tamper, selftest_corrupt_now, output_tamper};

const rng_faults *rngtest_faults(void)
{
    return &FAULTS;
}
