/*
 * three_card.c -- customer-versus-dealer counts over every deal (three_card.h).
 */
#include <string.h>
#include "three_card.h"

static int three_cards(uint64_t set)
{
    if (set >> 52) {
        return 0;
    }
    unsigned n = 0;
    for (; set; set &= set - 1) {
        n++;
    }
    return n == 3;
}

int kern_tcp_versus(const uint32_t *values, const uint64_t *sets, uint32_t hands, uint32_t qualify, uint64_t *out)
{
    if (hands == 0 || hands > KERN_TCP_HANDS) {
        return RNG_E_ARGUMENT;
    }
    for (uint32_t i = 0; i < hands; i++) {
        if (!three_cards(sets[i])) {
            return RNG_E_ARGUMENT;
        }
    }
    memset(out, 0, (size_t)hands * KERN_TCP_CLASSES * sizeof *out);
    for (uint32_t i = 0; i < hands; i++) {
        uint64_t mine = sets[i], tally[KERN_TCP_CLASSES] = {0, 0, 0, 0};
        uint32_t v = values[i];
        for (uint32_t j = 0; j < hands; j++) {
            if (sets[j] & mine) {
                continue; /* shares a card: not a deal */
            }
            uint32_t d = values[j];
            /* branch-free: 0 if not qualified, else 1 + (v <= d) + (v < d) */
            unsigned cls = (d >= qualify) * (1u + (v <= d) + (v < d));
            tally[cls]++;
        }
        memcpy(out + (size_t)i * KERN_TCP_CLASSES, tally, sizeof tally);
    }
    return RNG_OK;
}
