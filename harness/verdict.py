"""The report vocabulary every ``rngcert`` command shares.

A CI job or a lab's script reads any command's report the same way:

* JSON: top-level ``"verdict"`` is ``"pass"``, ``"fail"`` or ``"incomplete"``;
  ``"complete"`` (bool) says whether everything requested was done;
  ``"interrupted"`` (bool) whether Ctrl-C or SIGTERM stopped the run.  Each
  judged item inside a report (a check, a test, a simulation) carries its own
  ``"verdict"`` (``"pass"``/``"fail"``, ``"skipped"`` for a test that did
  not run, or ``"undecided"`` for a check on rigorous bounds that straddle
  its limit: the report is then ``"incomplete"`` unless another check fails).
* Text: the last line is ``verdict: PASS``, ``verdict: FAIL`` or
  ``verdict: INCOMPLETE``, optionally followed by a reason in parentheses.
* Exit status: 0 pass, 1 fail, 2 bad input, 130 interrupted.  An incomplete
  report that was *not* interrupted (too little data for any check to be
  made) exits 1: nothing was shown to pass.
"""
from __future__ import annotations

import dataclasses

PASS = "pass"
FAIL = "fail"
INCOMPLETE = "incomplete"
VERDICTS = (PASS, FAIL, INCOMPLETE)

EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130


def item_verdict(passed: bool) -> str:
    """``"pass"`` or ``"fail"``: the verdict of one check or test."""
    return PASS if passed else FAIL


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A report's overall verdict and how complete it is.

    Parameters
    ----------
    verdict : {"pass", "fail", "incomplete"}
    complete : bool
        Everything the user asked for was computed.
    interrupted : bool
        The run was stopped by Ctrl-C or SIGTERM (implies not complete).
    reason : str
        A short phrase shown after the text verdict, e.g. ``"every check passes"``.
    """

    verdict: str
    complete: bool = True
    interrupted: bool = False
    reason: str = ""

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {self.verdict!r}")
        if self.interrupted and self.complete:
            raise ValueError("an interrupted report cannot be complete")
        if (self.verdict == INCOMPLETE) == self.complete:
            raise ValueError("the verdict is 'incomplete' exactly when the report is not complete")

    @classmethod
    def judge(cls, passed: bool, *, complete: bool = True, interrupted: bool = False,
              reason: str = "") -> "Outcome":
        """The outcome of a run whose checks ``passed`` (all of them) so far.

        Anything not complete (interrupted, or too little data to test) is
        ``"incomplete"``, whatever the checks made so far say.
        """
        complete = complete and not interrupted
        verdict = item_verdict(passed) if complete else INCOMPLETE
        return cls(verdict, complete, interrupted, reason)

    def fields(self) -> dict:
        """The vocabulary keys, to put first in a JSON report."""
        return {"verdict": self.verdict, "complete": self.complete, "interrupted": self.interrupted}

    def report(self, body: dict) -> dict:
        """``body`` with the vocabulary keys first (replacing any of the same name)."""
        return {**self.fields(), **{k: v for k, v in body.items() if k not in ("verdict", "complete", "interrupted")}}

    def line(self) -> str:
        """The last line of a text report: ``verdict: PASS (reason)``."""
        return f"verdict: {self.verdict.upper()}" + (f" ({self.reason})" if self.reason else "")

    @property
    def exit_code(self) -> int:
        """0 pass, 1 fail (or incomplete without an interrupt), 130 interrupted."""
        if self.interrupted:
            return EXIT_INTERRUPTED
        return EXIT_PASS if self.verdict == PASS else EXIT_FAIL
