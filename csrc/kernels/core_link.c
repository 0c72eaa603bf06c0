/* core_link.c -- the bound core table (core_link.h). */
#include "core_link.h"

const rng_core_api *kern_core = NULL;

int kern_bind_core(const rng_core_api *api)
{
    if (api == NULL || api->size != sizeof(rng_core_api)) {
        return RNG_E_ARGUMENT;
    }
    kern_core = api;
    return RNG_OK;
}
