/*
 * stud_classes.h -- pay-table games on one five-card hand (000 別表第1 第3 7,
 * 8: Mississippi Stud, Let It Ride): how every completion of the cards seen
 * so far ends, counted in C.
 *
 * A completed hand's class is its category (poker_eval.h, value >> 26),
 * except one pair, which is split by the pair's rank: class
 * KERN_STUD_PAIR_CLASS + rank (rank 0 = 2 .. 12 = A), since these games pay
 * pairs by rank.  For every set of `known` cards of a 52-card deck
 * (lexicographic order of the sorted card indices), the classes of its
 * C(52 - known, 5 - known) completions are counted; the pay tables and the
 * decisions are applied to these counts in Python.
 */
#ifndef KERN_STUD_CLASSES_H
#define KERN_STUD_CLASSES_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_STUD_PAIR_CLASS 11
#define KERN_STUD_CLASSES 24

/* out[i * KERN_STUD_CLASSES + class] = completions of known-card set i in
 * each class, i over the C(52, known) sets.  RNG_E_ARGUMENT unless
 * 2 <= known <= 5. */
int kern_stud_classes(uint32_t known, uint32_t *out);
/* cffi:end */

#endif
