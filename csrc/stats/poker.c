/* poker.c -- distinct values per hand of the poker test (see poker.h). */
#include "poker.h"

#define STAT_POKER_LOOP(type)                                                                 \
    do {                                                                                      \
        const type *x = values;                                                               \
        for (size_t h = 0; h < hands; h++) {                                                  \
            const type *hand = x + h * t;                                                     \
            size_t distinct = 0;                                                              \
            for (size_t j = 0; j < t; j++) {                                                  \
                if (hand[j] >= k) {                                                           \
                    return STAT_E_ARGUMENT;                                                   \
                }                                                                             \
                size_t i = 0;                                                                 \
                while (i < j && hand[i] != hand[j]) {                                         \
                    i++;                                                                      \
                }                                                                             \
                distinct += i == j;                                                           \
            }                                                                                 \
            counts[distinct - 1 < cells - 1 ? distinct - 1 : cells - 1]++;                    \
        }                                                                                     \
    } while (0)

int stat_poker_tally(const void *values, size_t hands, size_t t, int width, size_t k, int64_t *counts,
                     size_t cells)
{
    if (values == NULL || counts == NULL || t == 0 || t > STAT_POKER_MAX_HAND || cells == 0) {
        return STAT_E_ARGUMENT;
    }
    switch (width) {
    case 1:
        STAT_POKER_LOOP(uint8_t);
        break;
    case 2:
        STAT_POKER_LOOP(uint16_t);
        break;
    default:
        return STAT_E_ARGUMENT;
    }
    return STAT_OK;
}
