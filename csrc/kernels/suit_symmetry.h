/*
 * suit_symmetry.h -- the suit permutations that map a (possibly reduced)
 * deck onto itself: hands equal up to such a permutation have equal counts,
 * so the exact poker enumerations count one hand of each orbit.
 */
#ifndef KERN_SUIT_SYMMETRY_H
#define KERN_SUIT_SYMMETRY_H

#include <stdint.h>

/* maps[g][c] = the image of card c under the g-th permutation of the four
 * suits that maps the n cards of `deck` onto themselves; returns how many
 * there are (the identity first, so at least 1). */
static inline unsigned kern_suit_symmetries(const uint8_t *deck, uint32_t n, uint8_t maps[24][52])
{
    static const uint8_t PERMS[24][4] = {
        {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
        {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
        {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
        {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0}};
    uint64_t in = 0;
    for (uint32_t i = 0; i < n; i++) {
        in |= 1ull << deck[i];
    }
    unsigned count = 0;
    for (unsigned g = 0; g < 24; g++) {
        uint64_t image = 0;
        for (unsigned c = 0; c < 52; c++) {
            maps[count][c] = (uint8_t)(PERMS[g][c / 13] * 13 + c % 13);
        }
        for (uint32_t i = 0; i < n; i++) {
            image |= 1ull << maps[count][deck[i]];
        }
        count += image == in;
    }
    return count;
}

#endif
