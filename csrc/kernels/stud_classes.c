/*
 * stud_classes.c -- the classes of every completion (stud_classes.h).
 */
#include <string.h>
#include "stud_classes.h"
#include "poker_eval.h"

static inline unsigned class_of(uint32_t value)
{
    uint32_t category = value >> 26;
    if (category == KERN_PK_PAIR) {
        return KERN_STUD_PAIR_CLASS + (31 - __builtin_clz((value >> 13) & KERN_PK_RANKS));
    }
    return category;
}

/* Count the classes of every completion of (word, suits) by `left` more
 * cards, each completion once (its own cards taken in increasing order). */
static void complete(uint64_t word, uint32_t suits, unsigned from, unsigned left, uint32_t *row)
{
    for (unsigned c = from; c + left <= 52; c++) {
        uint64_t bit = kern_pk_card_bit[c];
        if (word & bit) {
            continue;
        }
        if (left == 1) {
            row[class_of(kern_pk_value(word | bit, suits + kern_pk_suit_one[c]))]++;
        } else {
            complete(word | bit, suits + kern_pk_suit_one[c], c + 1, left - 1, row);
        }
    }
}

static void sets_from(unsigned from, unsigned left, unsigned known, uint64_t word, uint32_t suits, uint32_t **out)
{
    if (left == 0) {
        memset(*out, 0, KERN_STUD_CLASSES * sizeof **out);
        if (known == 5) {
            (*out)[class_of(kern_pk_value(word, suits))]++;
        } else {
            complete(word, suits, 0, 5 - known, *out);
        }
        *out += KERN_STUD_CLASSES;
        return;
    }
    for (unsigned c = from; c + left <= 52; c++) {
        sets_from(c + 1, left - 1, known, word | kern_pk_card_bit[c], suits + kern_pk_suit_one[c], out);
    }
}

int kern_stud_classes(uint32_t known, uint32_t *out)
{
    if (known < 2 || known > 5) {
        return RNG_E_ARGUMENT;
    }
    sets_from(0, known, known, 0, 0, &out);
    return RNG_OK;
}
