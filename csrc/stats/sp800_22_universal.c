/* sp800_22_universal.c -- Maurer's distances with a last-seen table (see sp800_22_universal.h). */
#include "sp800_22_universal.h"

#include <stdlib.h>

int stat_sp800_universal_distances(const uint8_t *bits, unsigned l, size_t q, size_t k, int64_t *distances)
{
    if (l < 1 || l > STAT_SP800_MAX_UNIVERSAL_BLOCK || bits == NULL || (k > 0 && distances == NULL)) {
        return STAT_E_ARGUMENT;
    }
    int64_t *last = calloc((size_t)1 << l, sizeof *last);
    if (last == NULL) {
        return STAT_E_MEMORY;
    }
    const uint8_t *s = bits;
    for (size_t i = 1; i <= q + k; i++) {
        uint32_t v = 0;
        for (unsigned b = 0; b < l; b++) {
            v = (v << 1) | (s[b] & 1u);
        }
        s += l;
        if (i > q) {
            distances[i - q - 1] = (int64_t)i - last[v];
        }
        last[v] = (int64_t)i;
    }
    free(last);
    return STAT_OK;
}
