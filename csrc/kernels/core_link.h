/*
 * core_link.h -- the kernels' link to the core's draws (core_api.h).
 *
 * harness._kernels binds the table once, at import, before any kernel runs;
 * kernels then call kern_core->shuffle16 and kern_core->uniform8.
 */
#ifndef KERN_CORE_LINK_H
#define KERN_CORE_LINK_H

#include "core_api.h"

/* cffi:begin */
/* Bind the kernels to the core's table.  RNG_E_ARGUMENT (and nothing bound)
   for a NULL table or one of another shape. */
int kern_bind_core(const rng_core_api *api);
/* cffi:end */

extern const rng_core_api *kern_core;

#endif
