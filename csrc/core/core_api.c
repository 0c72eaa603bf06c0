/* core_api.c -- the table of core_api.h. */
#include "core_api.h"

#include "devices.h"
#include "draws.h"
#include "hmac_drbg.h"
#include "shuffle.h"

static const rng_core_api TABLE = {
    sizeof(rng_core_api),
    rng_shuffle16,
    rng_uniform8,
    rng_draw_bounded32,
    rng_batch_limit,
    rng_sha256,
};

const rng_core_api *rng_core_api_table(void)
{
    return &TABLE;
}
