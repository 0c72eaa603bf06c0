/*
 * sp800_22_runs.h -- the runs of ones inside each block, for two NIST SP 800-22
 * Rev. 1a tests (stats/nist_longest_run.py, stats/nist_overlapping.py).
 *
 * One pass over each block with the length r of the current run of ones
 * (r = r + 1 on a one, 0 on a zero, branch-free): the longest run of the block
 * is the largest r (§2.4), and the overlapping occurrences of the template of
 * m ones (§2.8) are the positions where r >= m, since a run of r >= m ones
 * holds r - m + 1 of them.  Only counts, exactly; the statistics stay in
 * Python.  Bits are one byte each (0 or 1), as numpy's unpackbits gives them.
 */
#ifndef STAT_SP800_22_RUNS_H
#define STAT_SP800_22_RUNS_H

#include <stddef.h>
#include <stdint.h>

/* cffi:begin */
/* For each block j < blocks of bits[j * size .. j * size + size - 1]:
 * longest[j] = its longest run of ones, windows[j] = how many of its windows of
 * m consecutive bits are all ones (runs do not cross blocks).  STAT_E_ARGUMENT
 * on m == 0 or NULL pointers with blocks > 0; else STAT_OK. */
int stat_sp800_block_runs(const uint8_t *bits, size_t blocks, size_t size, unsigned m, int64_t *longest,
                          int64_t *windows);
/* cffi:end */

#endif
