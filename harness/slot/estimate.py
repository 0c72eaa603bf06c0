"""The report of a model whose state space forbids exact figures and rigorous bounds: a
stated-precision simulation, labelled as such in the report and in every check.

When the exact analysis raises :class:`~harness.slot.errors.BeyondExact` (a
cascade game whose paid spin shows more windows, or whose refills reach more
states or refill outcomes, than the chain follows, or whose chain ends too
slowly to bound: docs/slot_model.md, "Beyond the exact analysis"), no figure
of the play can be proved.  ``rngcert slot MODEL --simulate N`` then reports:

* from the simulation (estimates, marked ``~``): the RTP and the hit
  frequency with their 99.9% intervals (normal approximation with the sample
  standard deviation; Wilson for the hit frequency), whose half-width is the
  stated precision;
* rigorous lower bounds, for a cascade game, from the paid spin's window
  alone, solved exactly as a game without cascades
  (:func:`harness.slot.exact.analyse` of the model without its ``[cascade]``):
  every cascade play shows that window, so a line combination is paid at
  least once in a play at least as often as that window pays it, and the RTP
  is at least what that window's line pays return (× the ladder's first rung).

Every check says which it rests on.  An RTP range rule passes only when the
whole 99.9% interval lies in the range, its lower end raised to the rigorous
lower bound when that is higher (and the report says the pass is a
simulation's, not a proof); the least-likely-outcome and every-award rules
use the rigorous lower bounds, so a pass is never wrong, and a combination
the paid spin's window never pays (it may still appear after refills) cannot
be shown to pass.
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from harness.slot.errors import ModelError
from harness.slot.model import SlotModel
from harness.slot.profiles import CheckResult, profile_rules
from harness.slot.simulate import SimulationResult

__all__ = ["Estimate", "estimate", "estimate_checks", "estimate_json", "render_estimate"]

LABEL = "stated-precision simulation, not a proof"


@dataclasses.dataclass(frozen=True)
class Estimate:
    """A simulated model's figures and what is proved about them.

    Attributes
    ----------
    reason : str
        Why no exact figure or rigorous bound exists (the analysis' message).
    simulation : SimulationResult
    rtp_lower : Fraction or None
        A rigorous lower bound on the RTP (None: none is known).
    class_lower : dict of str to Fraction
        Per line combination, a rigorous lower bound on its per-play probability of being paid at
        least once (empty: none is known).
    """

    model: SlotModel
    reason: str
    simulation: SimulationResult
    rtp_lower: Fraction | None
    class_lower: dict[str, Fraction]

    @property
    def plays(self) -> int:
        return self.simulation.plays


def estimate(model: SlotModel, reason: str, simulation: SimulationResult) -> Estimate:
    """The :class:`Estimate` of ``model`` from ``simulation`` (see the module docstring)."""
    rtp_lower, lower = None, {}
    if model.cascade is not None:
        from harness.slot.exact import analyse

        try:
            first = analyse(dataclasses.replace(model, cascade=None))
        except (ModelError, ValueError):  # the paid spin's window alone is beyond the analysis too
            first = None
        if first is not None:
            rtp_lower = first.parts["lines"] * model.cascade.ladder[0]
            # a line win of the paid spin's window is one of the play's; a scatter or feature award is
            # read on a cascade's last window, so the first window bounds it by nothing but 0
            lower = {c.name: c.base_probability if c.kind == "line" else Fraction(0) for c in first.classes}
    return Estimate(model, reason, simulation, rtp_lower, lower)


def _fraction(x: float) -> Fraction:
    return Fraction(x)  # a float's exact value: an interval end, never money


def estimate_checks(est: Estimate, profile: str) -> list[CheckResult]:
    """Every rule of ``profile`` applied to ``est``, each note saying what it rests on."""
    from harness.slot.profiles import compare_probability, in_range, percent

    lo, hi = (_fraction(x) for x in est.simulation.rtp_interval())
    sim = (f"[rests on a {LABEL}: {est.plays:,} plays, 99.9% interval; no exact figure or rigorous "
           f"bound exists: {est.reason}]")
    proved = "[rests on rigorous lower bounds: the paid spin's window alone, solved exactly]"
    out = []
    for rule in profile_rules(profile):
        if rule.kind == "rtp_range":
            top = f" and {'<=' if rule.high_inclusive else '<'} {percent(rule.high)}" if rule.high is not None else ""
            low, floor = lo, ""
            if est.rtp_lower is not None and est.rtp_lower > lo:  # the proved floor is the tighter one
                low, floor = est.rtp_lower, f" (its lower end raised to the rigorous lower bound {percent(est.rtp_lower)})"
            ok = in_range(rule, low) and in_range(rule, hi)
            note = (f"RTP ~{float(est.simulation.rtp()) * 100:.6g}%, 99.9% interval {percent(lo)} to {percent(hi)}{floor}, "
                    f"required >= {percent(rule.low)}{top}: passes only if the whole interval does {sim}")
            out.append(CheckResult(rule, ok, low, hi, None, (), note))
        elif rule.kind == "bet_levels":
            out.append(CheckResult(rule, True, None, None, None, (), f"one bet level: nothing to compare {sim}"))
        else:  # rarest, every_award: per combination, its rigorous lower bound
            if not est.class_lower:
                out.append(CheckResult(rule, False, None, None, None, (),
                                       f"compliance cannot be established: a simulation gives no outcome's "
                                       f"probability to 1 in {float(1 / rule.threshold):,.0f} {sim}"))
                continue
            failing = tuple(n for n, p in est.class_lower.items() if p < rule.threshold)
            name, p = min(est.class_lower.items(), key=lambda item: item[1])
            _, said = compare_probability(p, p, rule.threshold)
            what = "least likely winning outcome" if rule.kind == "rarest" else "every combination; the least likely"
            note = (f"{what} {name}: {said}, a lower bound" if not failing else
                    f"{len(failing)} of {len(est.class_lower)} combinations not shown to reach 1 in "
                    f"{float(1 / rule.threshold):,.0f} per play (the paid spin's window pays them less often or "
                    f"never; refills may add more): compliance cannot be established")
            out.append(CheckResult(rule, not failing, p, None, name, failing, f"{note} {proved}"))
    return out


def estimate_json(est: Estimate, checks: list[CheckResult], profile: str, *, interrupted: bool = False) -> dict:
    """The JSON report (``"estimated": true``; fractions as strings)."""
    from harness.slot.report import check_json, model_json, frac, outcome

    sim = est.simulation
    lo, hi = sim.rtp_interval()
    hlo, hhi = sim.hit_interval()
    return outcome(checks, interrupted).report({
        "profile": profile,
        "model": model_json(est.model),
        "estimated": True,
        "exact": False,
        "why_estimated": est.reason,
        "precision": f"99.9% intervals from {sim.plays:,} simulated plays ({LABEL})",
        "simulation": {"plays": sim.plays, "engine": sim.engine, "generator": sim.generator,
                       "interrupted": sim.interrupted, "rtp": float(sim.rtp()), "rtp_interval_999": [lo, hi],
                       "hit_frequency": float(sim.hit_frequency()), "hit_frequency_interval_999": [hlo, hhi],
                       "max_win_credits": sim.max_win},
        "rigorous_lower_bounds": {
            "source": "the paid spin's window alone, solved exactly" if est.class_lower else None,
            "rtp": frac(est.rtp_lower) if est.rtp_lower is not None else None,
            "outcomes": {name: frac(p) for name, p in est.class_lower.items()}},
        "checks": [check_json(c) for c in checks],
    })


def render_estimate(est: Estimate, checks: list[CheckResult], profile: str, *, interrupted: bool = False) -> str:
    """The text report: what is estimated, what is proved, every check."""
    from harness.slot.report import check_lines, model_lines, one_in, outcome

    sim = est.simulation
    lo, hi = sim.rtp_interval()
    hlo, hhi = sim.hit_interval()
    lines = model_lines(est.model) + [
        "",
        f"NO EXACT ANALYSIS: {est.reason}.",
        f"Figures marked ~ are a {LABEL}: {sim.plays:,} plays ({sim.engine}, {sim.generator}), 99.9% intervals.",
        *(["  INTERRUPTED: figures cover the plays completed before Ctrl-C"] if sim.interrupted else []),
        f"  RTP            ~{float(sim.rtp()):.6f}   99.9% interval [{lo:.6f}, {hi:.6f}]"
        + (f"   rigorous lower bound {float(est.rtp_lower):.6f} (the paid spin's window)"
           if est.rtp_lower is not None else ""),
        f"  hit frequency  ~{float(sim.hit_frequency()):.6f}   99.9% interval [{hlo:.6f}, {hhi:.6f}]",
        "",
    ]
    if est.class_lower:
        lines.append("Winning combinations: rigorous lower bounds per play (the paid spin's window alone)")
        for name, p in sorted(est.class_lower.items(), key=lambda item: item[1]):
            lines.append(f"  {name:<24} at least {float(p):.6g} ({one_in(p)})")
        lines.append("")
    lines += check_lines(checks, profile)
    lines.append(outcome(checks, interrupted).line())
    return "\n".join(lines) + "\n"
