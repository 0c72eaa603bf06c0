/* coupon.c -- segments of the coupon collector's test (see coupon.h). */
#include "coupon.h"

#include <stdlib.h>

int stat_coupon_segments(const void *values, size_t n, int width, size_t k, int64_t *lengths, size_t max_out,
                         size_t *segments, size_t *consumed)
{
    if (values == NULL || lengths == NULL || segments == NULL || consumed == NULL || k == 0
        || k > STAT_COUPON_MAX_CATEGORIES || (width != 1 && width != 2)) {
        return STAT_E_ARGUMENT;
    }
    /* stamp[c] == segment number + 1 <=> category c was seen in the current segment */
    uint64_t *stamp = calloc(k, sizeof *stamp);
    if (stamp == NULL) {
        return STAT_E_MEMORY;
    }
    const uint8_t *u8 = values;
    const uint16_t *u16 = values;
    uint64_t mark = 1;
    size_t seen = 0, start = 0, out = 0;
    int status = STAT_OK;
    for (size_t i = 0; i < n && out < max_out; i++) {
        size_t c = width == 1 ? u8[i] : u16[i];
        if (c >= k) {
            status = STAT_E_ARGUMENT;
            break;
        }
        if (stamp[c] != mark) {
            stamp[c] = mark;
            if (++seen == k) {
                lengths[out++] = (int64_t)(i + 1 - start);
                start = i + 1;
                seen = 0;
                mark++;
            }
        }
    }
    free(stamp);
    *segments = out;
    *consumed = start;
    return status;
}
