"""Regulatory profiles: which figures a jurisdiction's rules constrain.

Each profile is a list of rules, each a row of data with the citation it
comes from and how far that citation has been verified here.  Adding a
jurisdiction means adding one entry to :data:`PROFILES`.

Probabilities compared with a rule are *per play* (see
:mod:`harness.slot.exact`): the probability that an outcome class is paid at
least once in one paid spin together with the free spins it triggers.  Where
retriggers make that probability irrational, the analysis gives exact
rational bounds and a check passes only if the lower bound passes.  Where
the analysis itself is bounded (``Analysis.bounded``: a cascade chain too
large to solve exactly, an award cap over free spins walked only so far), an
RTP rule passes only if the whole interval is in range, and the note of
every check whose figure is bounded says that it rests on the bounds.

A check on bounds is decided only when the bounds decide it: an interval
wholly inside the range (a probability's lower bound at or above the
limit) passes, one wholly outside (its upper bound below the limit) fails,
and one that straddles the limit is UNDECIDED (``CheckResult.decided``
false; the note gives both bounds): neither shown to pass nor to fail.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import TYPE_CHECKING

from harness.verdict import item_verdict

if TYPE_CHECKING:  # annotations only: the command line reads PROFILE_NAMES without loading the analysis
    from harness.slot.exact import Analysis

ONE_IN_100M = Fraction(1, 100_000_000)
UNDECIDED = "undecided"  # a check's verdict when its figure's bounds straddle the limit


@dataclasses.dataclass(frozen=True)
class Rule:
    """One constraint.

    ``kind`` is one of

    * ``"rtp_range"``: ``low <= RTP < high`` at every bet level the model
      offers (``high`` None: no upper bound; ``high_inclusive``: ``RTP <= high``,
      for rules worded "not greater than");
    * ``"bet_levels"``: a larger bet never returns less than a smaller one by
      more than ``threshold`` (a share of the bet);
    * ``"rarest"``: the least likely winning outcome class has probability
      per play ``>= threshold``;
    * ``"every_award"``: every winning outcome class (every advertised award)
      has probability per play ``>= threshold``.
    """

    id: str
    kind: str
    text: str
    citation: str
    verified: str
    low: Fraction | None = None
    high: Fraction | None = None
    threshold: Fraction | None = None
    high_inclusive: bool = False


# Jurisdictions without a slot-machine rule in the rule digests (they hold Pennsylvania's
# table-game regulations only): each rule below was read from the copy its `verified` names.
_NOT_IN_DIGESTS = "not in the project's rule digests, which hold no slot-machine rule of this jurisdiction"

PROFILES: dict[str, tuple[Rule, ...]] = {
    "jp": (
        Rule(
            id="jp-3-3",
            kind="rarest",
            text="the winning condition whose event is least likely has probability at least 1/100,000,000",
            citation="000 別表第1 第10 3-3 (seed 000_d4cd2a3cb5c95429.txt L3303; shared/rules/electronic_games.md §3)",
            verified="checked against the seed text; the seed prints '1100,000,000分の1' where the official "
                     "text reads '１億分の１' (1/100,000,000), as the digest notes",
            threshold=ONE_IN_100M,
        ),
        Rule(
            id="jp-4-3",
            kind="rtp_range",
            text="theoretical return per single bet at least 90/100 and below 1, bonus features and "
                 "progressives included",
            citation="000 別表第1 第10 4-3 イ, ロ (seed L3313-L3315; shared/rules/electronic_games.md §4)",
            verified="checked against the seed text",
            low=Fraction(90, 100),
            high=Fraction(1),
        ),
    ),
    "nj": (
        Rule(
            id="nj-1.28A(a)",
            kind="rtp_range",
            text="theoretical return to player equal to or greater than 83 percent",
            citation="N.J.A.C. 13:69E-1.28A(a)",
            verified="UNVERIFIED against the official New Jersey Register: text from the Cornell LII and "
                     "Casetext copies of N.J.A.C. 13:69E-1.28A (current through 2024); the section is "
                     "1.28A ('Standards for the approval of a slot machine game'), not 1.28",
            low=Fraction(83, 100),
        ),
        Rule(
            id="nj-1.28A(d)",
            kind="bet_levels",
            text="a larger wager may not have a theoretical return lower by more than 0.01 percentage point "
                 "than that of a smaller wager",
            citation="N.J.A.C. 13:69E-1.28A(d)",
            verified="UNVERIFIED against the official New Jersey Register: paraphrase of subsection (d) as the "
                     "requirement for this check states it; the text of (d) was not available to check here",
            threshold=Fraction(1, 10_000),
        ),
        Rule(
            id="nj-1.28A(c)",
            kind="rarest",
            text="no play with odds greater than 100 million to 1 (probability at least 1/100,000,001)",
            citation="N.J.A.C. 13:69E-1.28A(c)",
            verified="UNVERIFIED against the official New Jersey Register (same copies as 1.28A(a)); "
                     "odds of x to 1 against read as probability 1/(x + 1)",
            threshold=Fraction(1, 100_000_001),
        ),
    ),
    "nv": (
        Rule(
            id="nv-14.040",
            kind="rtp_range",
            text="theoretical payout at least 75 percent of the amounts wagered, for each wager",
            citation="Nevada Gaming Commission Regulation 14.040 (minimum standards for gaming devices)",
            verified="UNVERIFIED: the 75% figure and section number are as commonly cited; the regulation "
                     "text was not available to check here",
            low=Fraction(75, 100),
        ),
    ),
    "gli11": (
        Rule(
            id="gli11-4.8.2",
            kind="every_award",
            text="every advertised award obtainable at least once in 100 million games",
            citation="GLI-11 v3.0 (2016) §4.8.2 'Odds'",
            verified="UNVERIFIED against the standard itself: wording as quoted in a secondary source; the "
                     "standard exempts awards whose actual odds the artwork displays, which a model cannot show",
            threshold=ONE_IN_100M,
        ),
    ),
}

PROFILES.update({
    "pa": (
        Rule(
            id="pa-1207(10)",
            kind="rtp_range",
            text="slot machines set to a theoretical payout of not less than 85 percent",
            citation="4 Pa.C.S. § 1207(10) (Pennsylvania Race Horse Development and Gaming Act)",
            verified=f"UNVERIFIED: the 85% figure and section as commonly cited, {_NOT_IN_DIGESTS}; the "
                     "text checked (58 Pa. Code § 1112a.7(a), on pacodeandbulletin.gov) is the 85% rule for "
                     "video gaming terminals, not casino slot machines",
            low=Fraction(85, 100),
        ),
    ),
    "ms": (
        Rule(
            id="ms-7-12.5(b)",
            kind="rtp_range",
            text="pays out not less than 80 percent or greater than 100 percent for each wager available",
            citation="13 Miss. Code R. 7-12.5(b) (Mississippi Gaming Commission, minimum standards for gaming devices)",
            verified=f"UNVERIFIED against the official code: text read from the Cornell LII copy and the "
                     f"Commission's FAQ, {_NOT_IN_DIGESTS}",
            low=Fraction(80, 100),
            high=Fraction(1),
            high_inclusive=True,
        ),
    ),
    "il": (
        Rule(
            id="il-3000.660(a)",
            kind="rtp_range",
            text="pays out not less than 80% nor more than 100% of all amounts wagered, unless otherwise "
                 "approved by the Administrator",
            citation="86 Ill. Adm. Code 3000.660(a) (Illinois Gaming Board, minimum standards for electronic "
                     "gaming devices)",
            verified=f"UNVERIFIED against the official code: text read from the Justia copy (current through "
                     f"Ill. Reg. Vol. 48, No. 38, 2024), {_NOT_IN_DIGESTS}",
            low=Fraction(80, 100),
            high=Fraction(1),
            high_inclusive=True,
        ),
    ),
    "nm": (
        Rule(
            id="nm-60-2E-44(H)",
            kind="rtp_range",
            text="a payback value for each credit wagered, determined over time, of not less than eighty percent",
            citation="NMSA 1978 § 60-2E-44(H) (New Mexico Gaming Control Act, machine specifications)",
            verified=f"UNVERIFIED against the official statutes: text read from the FindLaw copy (current as of "
                     f"2024) and Laws 2003 HB 86, which removed the upper limit; {_NOT_IN_DIGESTS}",
            low=Fraction(80, 100),
        ),
    ),
    "mt": (
        Rule(
            id="mt-23-5-607(1)",
            kind="rtp_range",
            text="expected payback at least 80% of the value of credit played; not greater than 92% for each "
                 "video line game",
            citation="Mont. Code Ann. § 23-5-607(1); ARM 23.16.1907A(1)(f) (video line games, each bet increment)",
            verified=f"UNVERIFIED against the official code: text read from the Montana Legislature's MCA 2023 "
                     f"page and the Justia copy of ARM 23.16.1907A; {_NOT_IN_DIGESTS}; the 92% cap is for video "
                     "line games (the slot-style games a model describes)",
            low=Fraction(80, 100),
            high=Fraction(92, 100),
            high_inclusive=True,
        ),
    ),
})

PROFILE_NAMES = tuple(PROFILES)


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """The outcome of one rule on one analysis."""

    rule: Rule
    passed: bool
    value: Fraction | None  # the figure compared (RTP or probability; lower bound if not exact)
    value_upper: Fraction | None  # upper bound when the figure is bracketed
    outcome: str | None  # the outcome class concerned, if any
    failing: tuple[str, ...]  # every_award: the classes below the threshold
    note: str
    decided: bool = True  # False: the figure's bounds straddle the limit (``passed`` is then False too)

    @property
    def verdict(self) -> str:
        """``"pass"``, ``"fail"`` or ``"undecided"`` (see the module docstring)."""
        return UNDECIDED if not self.decided else item_verdict(self.passed)


def profile_rules(name: str) -> tuple[Rule, ...]:
    """The rules of a profile; ValueError listing the valid names."""
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r}; valid profiles: {', '.join(PROFILE_NAMES)}")
    return PROFILES[name]


def check(analysis: Analysis, profile: str = "jp") -> list[CheckResult]:
    """Apply every rule of ``profile`` to ``analysis``."""
    results = [_apply(rule, analysis) for rule in profile_rules(profile)]
    if analysis.bounded is not None:  # said only where the figure compared is one of the bounded ones
        results = [dataclasses.replace(r, note=f"{r.note} [rests on rigorous bounds: {analysis.bounded}]")
                   if _uses_bounds(r.rule, analysis) else r for r in results]
    return results


def _uses_bounds(rule: Rule, a: Analysis) -> bool:
    """Whether ``rule`` compares a figure that the analysis' bounding left an interval: the RTP (a bet
    level comparison is a difference, exact: :func:`harness.slot.exact._bet_levels`), or the classes'
    probabilities when the bounding reaches them (:attr:`~harness.slot.exact.Analysis.classes_bounded`)."""
    if rule.kind == "rtp_range":
        return a.rtp_upper is not None
    if rule.kind in ("rarest", "every_award"):
        return a.classes_bounded
    return False


def _apply(rule: Rule, a: Analysis) -> CheckResult:
    if rule.kind == "rtp_range":
        top = f" and {'<=' if rule.high_inclusive else '<'} {percent(rule.high)}" if rule.high is not None else ""
        bound = f">= {percent(rule.low)}{top}"
        levels = a.bet_levels or ()
        if len(levels) <= 1:
            state = _interval_state(rule, a.rtp, a.rtp_upper)
            shown = percent(a.rtp) if a.rtp_upper is None else f"between {percent(a.rtp)} and {percent(a.rtp_upper)}"
            note = f"RTP {shown}, required {bound}" + (_STRADDLES if state is None else "")
            return CheckResult(rule, state is True, a.rtp, a.rtp_upper, None, (), note, decided=state is not None)
        # "per single bet" (jp 4-3) / "for each wager": every level offered must be in range (its whole
        # interval when bounded: the range is an interval, so both ends in it suffice)
        states = {b.level: _interval_state(rule, b.rtp, b.rtp_upper) for b in levels}
        failing = tuple(f"bet level {b.level}" for b in levels if states[b.level] is False)
        open_ = tuple(f"bet level {b.level}" for b in levels if states[b.level] is None)
        worst = next((b for b in levels if states[b.level] is not True), min(levels, key=lambda b: b.rtp))
        top = max(b.rtp if b.rtp_upper is None else b.rtp_upper for b in levels)
        spread = f"{percent(min(b.rtp for b in levels))} to {percent(top)}"
        note = f"RTP {spread} over {len(levels)} bet levels, required {bound} at each"
        if failing:
            note += f"; outside at {', '.join(failing)}"
        if open_:
            note += f"; undecided at {', '.join(open_)}" + _STRADDLES
        return CheckResult(rule, not failing and not open_, worst.rtp, worst.rtp_upper, None, failing, note,
                           decided=bool(failing) or not open_)
    if rule.kind == "bet_levels":
        levels = a.bet_levels or ()
        drops = [(small, large) for i, small in enumerate(levels) for large in levels[i + 1:]
                 if small.rtp - large.rtp > rule.threshold]
        if not drops:
            note = (f"{len(levels)} bet levels: no larger bet returns less by more than "
                    f"{percent(rule.threshold)} of the bet" if len(levels) > 1 else "one bet level: nothing to compare")
            return CheckResult(rule, True, None, None, None, (), note)
        small, large = max(drops, key=lambda d: d[0].rtp - d[1].rtp)
        note = (f"bet level {large.level} returns {percent(large.rtp)}, {percent(small.rtp - large.rtp)} less than "
                f"level {small.level} ({percent(small.rtp)}); at most {percent(rule.threshold)} allowed")
        return CheckResult(rule, False, small.rtp - large.rtp, None, None,
                           tuple(f"bet level {d[1].level} vs {d[0].level}" for d in drops), note)
    if rule.kind == "rarest":
        c = a.rarest
        state, note = compare_probability(c.probability, c.probability_upper, rule.threshold)
        return CheckResult(rule, state is True, c.probability, None if c.exact else c.probability_upper, c.name, (),
                           f"least likely winning outcome {c.name}: {note}", decided=state is not None)
    if rule.kind == "every_award":
        failing, open_ = [], []
        for c in a.classes:
            state, _ = compare_probability(c.probability, c.probability_upper, rule.threshold)
            if state is not True:
                (failing if state is False else open_).append(c.name)
        c = a.rarest
        note = (f"{len(failing)} of {len(a.classes)} awards below 1 in {_inverse(rule.threshold)} per play"
                if failing else f"all {len(a.classes) - len(open_)} awards at least 1 in {_inverse(rule.threshold)} "
                f"per play")
        if open_:
            shown = ", ".join(open_[:8]) + (f", ... ({len(open_)} in all)" if len(open_) > 8 else "")
            note += f"; {len(open_)} whose bounds straddle the limit, undecided: {shown}"
        return CheckResult(rule, not failing and not open_, c.probability,
                           None if c.exact else c.probability_upper, c.name, tuple(failing), note,
                           decided=bool(failing) or not open_)
    raise ValueError(f"unknown rule kind {rule.kind!r}; valid kinds: rtp_range, bet_levels, rarest, every_award")


_STRADDLES = " (the bounds straddle a limit: UNDECIDED, neither shown to pass nor to fail)"


def _interval_state(rule: Rule, low: Fraction, high: Fraction | None) -> bool | None:
    """True if the RTP interval ``[low, high]`` (``high`` None: exactly ``low``) lies in the rule's range,
    False if it lies wholly outside, None if it straddles a limit."""
    if high is None or low == high:
        return in_range(rule, low)
    if in_range(rule, low) and in_range(rule, high):
        return True  # the range is an interval: both ends in it suffice
    wholly_below = high < rule.low
    wholly_above = rule.high is not None and (low > rule.high or (low == rule.high and not rule.high_inclusive))
    return False if wholly_below or wholly_above else None


def in_range(rule: Rule, rtp: Fraction) -> bool:
    """Whether ``rtp`` lies in an ``rtp_range`` rule's range (``high`` exclusive unless ``high_inclusive``)."""
    below_high = rule.high is None or rtp < rule.high or (rule.high_inclusive and rtp == rule.high)
    return rtp >= rule.low and below_high


def compare_probability(lo: Fraction, hi: Fraction, threshold: Fraction) -> tuple[bool | None, str]:
    """``(state, note)`` for a probability known to lie in ``[lo, hi]`` against an "at least ``threshold``"
    rule: True (passes) when the lower bound reaches it, False (fails) when the upper bound is below it,
    None (undecided) when the bounds straddle it."""
    odds = f"1 in {float(1 / lo):,.0f}" if lo else "never"
    if lo >= threshold:
        return True, f"probability {odds} per play (limit 1 in {_inverse(threshold)})"
    if hi < threshold or lo == hi:
        return False, f"probability {odds} per play is below the limit of 1 in {_inverse(threshold)}"
    return None, (f"probability between {float(lo):.6g} and {float(hi):.6g} per play straddles the limit "
                   f"1 in {_inverse(threshold)}: UNDECIDED, compliance cannot be established")


def percent(x: Fraction) -> str:
    """A share shown as a percentage, to six significant digits (``Fraction(24, 25)`` -> ``"96%"``)."""
    return f"{float(x) * 100:.6g}%"


def _inverse(threshold: Fraction) -> str:
    inv = 1 / threshold
    return f"{inv.numerator:,}" if inv.denominator == 1 else f"{float(inv):,.6g}"
