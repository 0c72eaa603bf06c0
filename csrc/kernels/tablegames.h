/*
 * tablegames.h -- rounds of wheel and dice games, tallied in C.
 *
 * The outcomes are drawn exactly as the devices draw them: rng_uniform8
 * (csrc/core/devices.h: batched unbiased indices on [0, s), several per 64-bit
 * word, a void section re-spun).  A round is `per_round` consecutive
 * outcomes -- one wheel spin (s = sections, per_round = 1) or a roll of k dice
 * (s = 6, per_round = k) -- identified by its mixed-radix index
 * o_1 s^(k-1) + ... + o_k, so a tally over N rounds consumes the same
 * outcomes as rngcore.devices' draw of N rounds from the same generator.
 *
 * kern_tg_tally counts rounds by index; kern_tg_chain also drives a finite
 * automaton (the craps table's pass line, come bet and Fire Bet state) and
 * counts visits to (state, round) pairs, from which every bet's decisions
 * are read off in Python.
 *
 * kern_tg_rounds draws rounds one at a time, exactly as `rounds` calls of
 * kern_tg_tally with rounds = 1 would (one rng_uniform8 call of per_round
 * outcomes each, so the same output bytes), and reports every round's index
 * and how many output bytes the rounds so far consumed: the journal's
 * position range of each round, for a batch of rounds drawn in one call.
 */
#ifndef KERN_TABLEGAMES_H
#define KERN_TABLEGAMES_H

#include <stddef.h>
#include <stdint.h>
#include "rng_source.h"
#include "devices.h"

/* cffi:begin */
#define KERN_TG_MAX_STATES 65535
#define KERN_TG_MAX_INDEX 65536   /* s^per_round may not exceed this */

/* counts[i] += how many of `rounds` rounds had index i (see above); void_index
 * as rng_uniform8 (>= s: none).  RNG_E_ARGUMENT on s outside 1..256,
 * per_round < 1 or s^per_round > KERN_TG_MAX_INDEX; else the source's status. */
int kern_tg_tally(rng_source *src, uint32_t s, uint32_t per_round, uint32_t void_index, uint64_t rounds,
                  uint64_t *counts, unsigned bits);

/* `rounds` steps of the automaton next[state * m + i] (i = round index,
 * m = s^per_round), from *state (updated): visits[state * m + i] += 1 per
 * step.  RNG_E_ARGUMENT as kern_tg_tally, or if states is outside
 * 1..KERN_TG_MAX_STATES, *state or any next entry >= states. */
int kern_tg_chain(rng_source *src, uint32_t s, uint32_t per_round, uint32_t states, const uint16_t *next,
                  uint64_t rounds, uint64_t *visits, uint32_t *state, unsigned bits);

/* idx[i] = round i's index and ends[i] = output bytes consumed by rounds
 * 0..i, for `rounds` rounds each drawn as kern_tg_tally draws one round.
 * RNG_E_ARGUMENT as kern_tg_tally; else the source's status. */
int kern_tg_rounds(rng_source *src, uint32_t s, uint32_t per_round, uint32_t void_index, uint64_t rounds,
                   uint32_t *idx, uint64_t *ends, unsigned bits);
/* cffi:end */

#endif
