/*
 * pai_gow.h -- Pai Gow tiles (000 別表第1 第9): exact counts over every deal.
 *
 * Hands are the distinct 4-tile hands of the 32-tile set, numbered 0..H-1 by
 * harness.games.pai_gow.all_hands(); a tile is its row 1..21 in the 1-2
 * table.  A two-tile hand's strength is one integer key (the combination's
 * rank, then the strongest tile; harness.games.pai_gow.hand_key): the
 * customer's hand beats the dealer's only with a strictly larger key (equal
 * goes to the dealer, 9-2).  The customer wins when both hands win, loses
 * when both lose, and pushes otherwise.  Outcome classes: 0 win, 1 push,
 * 2 lose.
 */
#ifndef KERN_PAI_GOW_H
#define KERN_PAI_GOW_H

#include <stdint.h>
#include "rng_source.h"

/* cffi:begin */
#define KERN_PG_ROWS 22          /* rows 1..21; index 0 unused */
#define KERN_PG_MAX_HANDS 8192

/* For every customer hand i and each of its three settings s, the number of
 * dealer tile sets (4 physical tiles of the 28 left after the customer's)
 * giving each outcome: out[(i * 3 + s) * 3 + class].  tiles[i * 4 ..] are the
 * hand's rows (sorted); dealer[j * 2 ..] the (high, low) keys of hand j set
 * by the house way; settings[(i * 3 + s) * 2 ..] the keys of setting s;
 * copies[row] the tiles of each row in the set.  RNG_E_ARGUMENT on a bad
 * count or row. */
int kern_pg_setting_counts(uint32_t hands, const uint8_t *tiles, const uint32_t *dealer, const uint32_t *settings,
                           const uint8_t *copies, uint64_t *out);

/* Every deal of the set, one physical tile at a time: the customer's 4 of
 * the n = set_size tiles (set[k] = row of tile k, rows nondecreasing) and the
 * dealer's 4 of the other n - 4, C(n,4) C(n-4,4) deals.  index[key] is the
 * hand number of sorted rows a <= b <= c <= d, key = ((a*22+b)*22+c)*22+d;
 * customer[i * 2 ..] the keys of the customer's setting of hand i.
 * out[class] += deals.  RNG_E_ARGUMENT on n outside 8..32, unsorted rows or
 * a hand not in the index. */
int kern_pg_enumerate(const uint8_t *set, uint32_t set_size, const uint16_t *index, uint32_t hands,
                      const uint32_t *dealer, const uint32_t *customer, uint64_t *out);
/* cffi:end */

#endif
