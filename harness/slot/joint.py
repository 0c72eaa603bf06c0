"""Joint figures of all paylines and the scatter count in one spin, exactly.

Paylines share reel stops, so the total line win of a spin, whether any line
wins, and whether a combination appears on *at least one* line are not sums
over lines: they need the joint structure.  A full cycle has
``L_1 × ... × L_R`` stop combinations (10**10 for five 100-stop reels), too
many to visit one by one.  This module computes the needed figures exactly
by dynamic programming over reels.

State.  Read the reels left to right.  After ``r`` reels each payline is in
a state of its automaton (:mod:`harness.slot.lines`).  A line whose state is
*done* has its final pay and class whatever the later reels show.  The
*configuration* after ``r`` reels is the multiset of ``(rows of the line on
reels r+1..R, automaton state)`` over the lines still alive: two lines with
the same remaining rows and the same state behave identically from here on,
so they merge (with a multiplicity).  Everything the remaining reels can
still change is a function of the configuration alone.

Suffix summaries.  For a configuration at depth ``r``, sum over the
``L_{r+1} × ... × L_R`` combinations of the remaining reels, split by the
scatters ``s`` those reels show and whether the progressive combination
appears (``p``):

* ``C[s, p]``  the number of combinations,
* ``S1[s, p]`` the sum of the line pay still to come (multiple of the bet per line),
* ``S2[s, p]`` the sum of its square,
* ``Z[s]``     combinations in which no line pays and no progressive shows,
* ``U[c][s]``  combinations in which line class ``c`` is paid on at least one line.

Recurrence.  The stops of reel ``r+1`` that show the same symbols in the rows
of the alive lines, and the same number of scatters in the whole column,
lead to the same next configuration with the same immediate effect (line
pay ``d``, classes paid, progressive): they form one *group*, taken once and
weighted by its size ``n``.  A group moves ``(C, S1, S2)`` of its next
configuration to ``(n C, n (S1 + d C), n (S2 + 2 d S1 + d² C))`` (the pay
still to come grows by ``d`` on every combination), keeps ``Z`` only when
``d = 0`` and no progressive appears, and sets ``U[c] = C`` for the classes
it pays.  The empty configuration's summary is known in closed form: only
the scatter count of the remaining reels varies (a convolution).  Summaries
are memoised per configuration, so each distinct configuration is expanded
once.  Every stop combination is counted exactly once with an exact integer
weight, so the result is exact (the tests compare it with brute force).

:func:`joint_moments` runs the C kernel (``csrc/kernels/slot.c``) when rngcore's
extension is available, and the same algorithm in Python otherwise.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from harness.slot.lines import LineAutomaton
from harness.slot.reelset import ReelSet

try:
    from harness.slot import native
except ImportError:  # rngcore's extension cannot be loaded (a stale build): Python runs the programme
    native = None

MAX_CLASSES = 256  # class sets are 256-bit masks in the C kernel
MAX_WEIGHT = 2**63  # C kernel: counts and first moments are 64-bit


@dataclasses.dataclass(frozen=True)
class JointMoments:
    """Exact joint figures of one stage over its full cycle.

    Indices: ``k`` scatters in the window, ``p`` progressive combination on
    some line (0/1).  Line pays are multiples of the bet per line.

    Attributes
    ----------
    cycle : int
        Stop combinations in the cycle.
    count, line_sum, line_sq : list[list[int]]
        ``[k][p]``: combinations, sum of total line pay, sum of its square.
    no_line_win : list[int]
        ``[k]``: combinations with no line paid and no progressive.
    class_scatter : list[list[int]]
        ``[c][k]``: combinations with line class ``c`` paid on at least one line.
    engine : str
        ``"c"`` or ``"python"``.
    """

    cycle: int
    count: list[list[int]]
    line_sum: list[list[int]]
    line_sq: list[list[int]]
    no_line_win: list[int]
    class_scatter: list[list[int]]
    engine: str

    def check(self) -> None:
        """Every stop combination must be counted exactly once."""
        counted = sum(sum(row) for row in self.count)
        if counted != self.cycle:
            raise AssertionError(f"joint enumeration counted {counted} combinations, cycle is {self.cycle}")


@dataclasses.dataclass(frozen=True)
class LineSuffixes:
    """Lines grouped by their remaining rows at each depth.

    ``ids[r][line]`` names the tuple of the line's rows on reels ``r..R-1``;
    ``row[r][i]`` is the row of suffix ``i`` on reel ``r`` and ``next[r][i]``
    its id at depth ``r + 1``.
    """

    ids: list[list[int]]
    row: list[list[int]]
    next: list[list[int]]

    @classmethod
    def of(cls, paylines, reels: int) -> "LineSuffixes":
        ids, keys = [], []
        for r in range(reels + 1):
            table: dict[tuple[int, ...], int] = {}
            ids.append([table.setdefault(tuple(line[r:]), len(table)) for line in paylines])
            keys.append(list(table))
        row = [[key[0] for key in keys[r]] for r in range(reels)]
        nxt = []
        for r in range(reels):
            out = [0] * len(keys[r])
            for line in range(len(paylines)):
                out[ids[r][line]] = ids[r + 1][line]
            nxt.append(out)
        return cls(ids=ids, row=row, next=nxt)


def group_tables(reels: ReelSet, progress: Callable[[int], None] | None = None) -> list[list[list[tuple[int, int, int]]]]:
    """``out[r][mask]``: the groups of reel r's stops for the rows in ``mask``.

    Each group is ``(representative stop, scatters in the column, stops)``;
    stops are grouped when they show the same symbols in the rows of
    ``mask`` and the same number of scatters in the column.  ``progress(n)``
    is told of every ``n = stops x 2**rows`` table entries of a reel done
    (the units of :func:`harness.slot.limits.estimate`).
    """
    out = []
    for window, scat in zip(reels.windows, reels.scatters):
        if progress is not None:
            progress(len(window) << reels.rows)
        per_mask: list[list[tuple[int, int, int]]] = [[]]
        for mask in range(1, 1 << reels.rows):
            cols = [h for h in range(reels.rows) if mask >> h & 1]
            keys = np.concatenate([window[:, cols], scat[:, None]], axis=1)
            _, first, counts = np.unique(keys, axis=0, return_index=True, return_counts=True)
            order = np.argsort(first)
            per_mask.append([(int(first[i]), int(scat[first[i]]), int(counts[i])) for i in order])
        out.append(per_mask)
    return out


def check_size(reels: ReelSet, automaton: LineAutomaton, n_lines: int) -> None:
    """Refuse models whose counts would overflow the C kernel's 64-bit integers."""
    max_line_total = n_lines * int(automaton.pay.max(initial=0))
    if reels.cycle * max(1, max_line_total) >= MAX_WEIGHT:
        raise ValueError(
            f"cycle of {reels.cycle} stop combinations times the largest total line pay "
            f"({max_line_total}) exceeds 2**63; exact joint counts need 64-bit weights"
        )
    if len(automaton.classes) > MAX_CLASSES:
        raise ValueError(f"{len(automaton.classes)} line combinations exceed the supported {MAX_CLASSES}")


def joint_moments(reels: ReelSet, automaton: LineAutomaton, paylines, *, engine: str = "auto",
                  progress: Callable[[int], None] | None = None) -> JointMoments:
    """Exact joint figures of one stage (see the module docstring).

    Parameters
    ----------
    engine : {"auto", "c", "python"}
        ``auto`` uses the C kernel when rngcore's extension can be imported.
    progress : callable, optional
        ``progress(n)`` for work done: the stage's table entries as the
        tables are built (:func:`group_tables`), then as many again when the
        programme has run.
    """
    if engine not in ("auto", "c", "python"):
        raise ValueError(f"engine must be one of 'auto', 'c', 'python', got {engine!r}")
    if engine == "c" and native is None:
        raise ImportError("rngcore's C extension cannot be loaded, so engine='c' is unavailable")
    if engine == "python" or native is None or automaton.done[0]:
        # (done[0]: no line can ever pay, so there is nothing for the C kernel to do)
        result = joint_moments_python(reels, automaton, paylines, progress=progress)
    else:
        check_size(reels, automaton, len(paylines))
        figures = native.joint_figures_c(reels, automaton, paylines, group_tables(reels, progress),
                                         LineSuffixes.of(paylines, reels.reels))
        result = JointMoments(cycle=reels.cycle, engine="c", **figures)
    result.check()
    if progress is not None:
        progress(sum(reels.lengths) << reels.rows)
    return result


class _Summary:
    """Suffix summary of one configuration (see module docstring); index 2*s + p."""

    __slots__ = ("C", "S1", "S2", "Z", "U")

    def __init__(self, width: int):
        self.C = [0] * (2 * width)
        self.S1 = [0] * (2 * width)
        self.S2 = [0] * (2 * width)
        self.Z = [0] * width
        self.U: dict[int, list[int]] = {}

    def absorb(self, child: "_Summary", n: int, sc: int, d: int, dp: int, db: int) -> None:
        """Add ``n`` stops leading to ``child`` with ``sc`` scatters, immediate line pay
        ``d``, progressive ``dp`` and paid classes ``db`` (the recurrence of the docstring)."""
        self._shift_moments(child, n, sc, d, dp)
        if d == 0 and not dp:
            for s, z in enumerate(child.Z):
                if z:
                    self.Z[s + sc] += n * z
        self._shift_classes(child, n, sc, db)

    def _shift_moments(self, child: "_Summary", n: int, sc: int, d: int, dp: int) -> None:
        C, S1, S2 = self.C, self.S1, self.S2
        for idx, c in enumerate(child.C):
            if not c:
                continue
            s, p = divmod(idx, 2)
            t = 2 * (s + sc) + (p | dp)
            s1 = child.S1[idx]
            C[t] += n * c
            S1[t] += n * (s1 + d * c)
            S2[t] += n * (child.S2[idx] + 2 * d * s1 + d * d * c)

    def _shift_classes(self, child: "_Summary", n: int, sc: int, db: int) -> None:
        bits = db
        while bits:  # classes paid by this reel: every combination below pays them
            low = bits & -bits
            c = low.bit_length() - 1
            row = self.U.setdefault(c, [0] * len(self.Z))
            for s in range(len(child.Z)):
                both = child.C[2 * s] + child.C[2 * s + 1]
                if both:
                    row[s + sc] += n * both
            bits ^= low
        for c, urow in child.U.items():  # classes paid further right
            if db >> c & 1:
                continue
            row = self.U.setdefault(c, [0] * len(self.Z))
            for s, u in enumerate(urow):
                if u:
                    row[s + sc] += n * u


class _Programme:
    """The dynamic programme of the module docstring, in Python (reference and fallback)."""

    def __init__(self, reels: ReelSet, automaton: LineAutomaton, paylines, progress=None):
        self.R, self.H = reels.reels, reels.rows
        self.M = reels.column_max  # summaries at depth r span scatter cells 0 .. (R - r) M
        self.delta = automaton.delta.tolist()
        self.done = automaton.done.tolist()
        self.pay = automaton.pay.tolist()
        self.cls = automaton.cls.tolist()
        self.prog = automaton.prog.tolist()
        self.groups = group_tables(reels, progress)
        self.windows = [w.tolist() for w in reels.windows]
        self.suf = LineSuffixes.of(paylines, self.R)
        self.n_lines = len(paylines)
        self.memo: list[dict[tuple, _Summary]] = [dict() for _ in range(self.R + 1)]
        self.dead = [self._dead(r, counts) for r, counts in enumerate(reels.suffix_scatter_counts)]

    def _new(self, width: int) -> _Summary:
        """An empty summary spanning ``width`` scatter cells (the capped programme keeps distributions)."""
        return _Summary(width)

    def _dead(self, r: int, scatter_counts: list[int]) -> _Summary:
        """The empty configuration at depth ``r``: only the scatters still vary."""
        s = _Summary((self.R - r) * self.M + 1)
        for k, n in enumerate(scatter_counts):
            s.C[2 * k] = n
            s.Z[k] = n
        return s

    def root(self) -> _Summary:
        done, pay, cls, prog = self.done, self.pay, self.cls, self.prog
        if done[0]:  # no line can ever pay: all final before reel 1
            root = self._new(self.R * self.M + 1)
            db = (1 << cls[0]) if cls[0] >= 0 else 0
            root.absorb(self.dead[0], 1, 0, pay[0] * self.n_lines, prog[0], db)
            return root
        start: dict[tuple[int, int], int] = {}
        for sid in self.suf.ids[0]:
            start[(sid, 0)] = start.get((sid, 0), 0) + 1
        return self.summary(0, tuple(sorted((a, b, m) for (a, b), m in start.items())))

    def summary(self, r: int, config: tuple) -> _Summary:
        """The suffix summary of ``config`` at depth ``r`` (memoised)."""
        if not config:
            return self.dead[r]
        found = self.memo[r].get(config)
        if found is not None:
            return found
        out = self._new((self.R - r) * self.M + 1)
        mask = 0
        for i, _, _ in config:
            mask |= 1 << self.suf.row[r][i]
        for rep, sc, n in self.groups[r][mask]:
            nxt, d, dp, db = self._step(r, config, self.windows[r][rep])
            out.absorb(self.summary(r + 1, nxt), n, sc, d, dp, db)
        self.memo[r][config] = out
        return out

    def _step(self, r: int, config: tuple, column: list[int]) -> tuple[tuple, int, int, int]:
        """The next configuration after reel ``r`` shows ``column``, and the immediate
        (line pay, progressive, classes paid) of the lines that finish there."""
        delta, done, pay, cls, prog = self.delta, self.done, self.pay, self.cls, self.prog
        rows, following = self.suf.row[r], self.suf.next[r]
        d = dp = db = 0
        child: dict[tuple[int, int], int] = {}
        for i, state, mult in config:
            s2 = delta[state][column[rows[i]]]
            if done[s2]:
                d += mult * pay[s2]
                dp |= prog[s2]
                if cls[s2] >= 0:
                    db |= 1 << cls[s2]
            else:
                key = (following[i], s2)
                child[key] = child.get(key, 0) + mult
        return tuple(sorted((a, b, m) for (a, b), m in child.items())), d, dp, db


def joint_moments_python(reels: ReelSet, automaton: LineAutomaton, paylines, *,
                         progress: Callable[[int], None] | None = None) -> JointMoments:
    """The dynamic programme of the module docstring, in Python (reference and fallback)."""
    root = _Programme(reels, automaton, paylines, progress).root()
    K = reels.max_scatter
    nclass = len(automaton.classes)
    return JointMoments(
        cycle=reels.cycle,
        count=[[root.C[2 * k], root.C[2 * k + 1]] for k in range(K + 1)],
        line_sum=[[root.S1[2 * k], root.S1[2 * k + 1]] for k in range(K + 1)],
        line_sq=[[root.S2[2 * k], root.S2[2 * k + 1]] for k in range(K + 1)],
        no_line_win=list(root.Z),
        class_scatter=[list(root.U.get(c, [0] * (K + 1))) for c in range(nclass)],
        engine="python",
    )
