/* fault_plans.c -- the fault plans of fault_plans.h. */
#include "fault_plans.h"

#include <errno.h>

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

static const rng_faults FAULTS = {entropy_read, selftest_corrupt_now};

const rng_faults *rngtest_faults(void)
{
    return &FAULTS;
}
