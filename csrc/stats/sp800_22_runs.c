/* sp800_22_runs.c -- runs of ones per block (see sp800_22_runs.h). */
#include "sp800_22_runs.h"

#include "sp800_22.h"

int stat_sp800_block_runs(const uint8_t *bits, size_t blocks, size_t size, unsigned m, int64_t *longest,
                          int64_t *windows)
{
    if (m == 0 || (blocks > 0 && (bits == NULL || longest == NULL || windows == NULL))) {
        return STAT_E_ARGUMENT;
    }
    for (size_t j = 0; j < blocks; j++) {
        const uint8_t *s = bits + j * size;
        uint64_t run = 0, best = 0, count = 0;
        for (size_t i = 0; i < size; i++) {
            run = (run + 1) & (0 - (uint64_t)(s[i] & 1u)); /* a zero resets the run */
            best = run > best ? run : best;
            count += run >= m;
        }
        longest[j] = (int64_t)best;
        windows[j] = (int64_t)count;
    }
    return STAT_OK;
}
