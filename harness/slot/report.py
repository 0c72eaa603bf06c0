"""The PAR sheet: a readable text report and its JSON form."""
from __future__ import annotations

from fractions import Fraction

from harness.slot import heights
from harness.slot.height_reels import height_draws
from harness.slot.exact import PARTS, Analysis, OutcomeClass
from harness.slot.profiles import CheckResult
from harness.slot.rounding import fixed, significant, sqrt_fixed
from harness.slot.simulate import SimulationResult
from harness.verdict import Outcome

PROBABILITY_NOTE = (
    "probability per play: the outcome is paid at least once in one paid spin at the bet shown, "
    "or in the free spins that spin triggers"
)


def frac(x: Fraction) -> str:
    """``"num/den"``, the exact form used in JSON."""
    return f"{x.numerator}/{x.denominator}"


def exact_and_float(name: str, x: Fraction) -> dict:
    """A figure twice: exact under ``name``, as a float under ``name_float``."""
    return {name: frac(x), f"{name}_float": float(x)}


def to_json(analysis: Analysis, checks: list[CheckResult], profile: str,
            simulation: SimulationResult | None = None, *, interrupted: bool = False) -> dict:
    """The JSON report (keys of the issue first, then the details).

    ``interrupted``: the requested simulation was stopped by Ctrl-C, so the
    report is incomplete (``"verdict": "incomplete"``, ``"complete": false``)
    whatever the exact checks say.
    """
    a, m = analysis, analysis.model
    rarest = a.rarest
    out = {
        **outcome(checks, interrupted).fields(),
        **exact_and_float("rtp", a.rtp),
        "parts": {k: frac(v) for k, v in a.parts.items()},
        "parts_float": {k: float(v) for k, v in a.parts.items()},
        **exact_and_float("hit_frequency", a.hit_frequency),
        **exact_and_float("min_win_probability", rarest.probability),
        "min_win_probability_exact": rarest.exact,
        "min_win_outcome": rarest.name,
        "checks": [check_json(c) for c in checks],
        "profile": profile,
        "model": model_json(m),
        "probability_refers_to": PROBABILITY_NOTE,
        "variance_per_play": frac(a.variance),
        "sd_per_play_credits": a.sd,
        "sd_per_play_bets": a.sd_per_bet,
        "classes": [_class_json(c) for c in a.classes],
        "analysis_seconds": a.seconds,
        "engine": a.engine,
    }
    if not rarest.exact:
        out["min_win_probability_upper"] = frac(rarest.probability_upper)
    if a.bounded is not None:  # rtp, parts and variance above are then rigorous lower bounds
        out["bounded"] = a.bounded
        out.update(exact_and_float("rtp_upper", a.rtp_upper))
        out["parts_upper"] = {k: frac(v) for k, v in a.parts_upper.items()}
        out["variance_per_play_upper"] = frac(a.variance_upper)
    if a.feature is not None:
        f = a.feature
        out["free_spins"] = {
            **exact_and_float("trigger_probability", f.trigger_probability),
            "retrigger_spins_per_spin": frac(f.retrigger_per_spin),
            **exact_and_float("spins_per_feature", f.spins_per_feature),
            "win_per_feature_credits": frac(f.win_per_feature),
            "win_per_feature_float": float(f.win_per_feature),
        }
    if a.progressive is not None:
        out["progressive"] = _meter_json(a.progressive)
    if a.cap is not None:
        out["cap"] = {"win_total_bets": a.model.cap, **exact_and_float("capped_probability", a.cap.capped),
                      **exact_and_float("rtp_effect", a.parts["cap"]), "exact": a.cap_upper is None}
        if a.cap_upper is not None:  # the figures above are then lower bounds
            out["cap"].update({"capped_probability_upper": frac(a.cap_upper.capped),
                               "rtp_effect_upper": frac(a.parts_upper["cap"])})
    if a.sticky is not None:
        out["sticky_wilds"] = {"states": a.sticky.states, "chain_states": a.sticky.chain_states, "exact": True}
    if a.cascade is not None:
        c = a.cascade
        out["cascade"] = {"ladder": list(a.model.cascade.ladder), "states": c.states, "exact": c.exact,
                          **exact_and_float("refills_per_play", c.cascades),
                          **exact_and_float("rtp_after_first_window", a.parts["cascade"])}
        if not c.exact:
            out["cascade"].update({"refills_per_play_upper": frac(c.cascades_upper),
                                   "rtp_after_first_window_upper": frac(a.parts_upper["cascade"]),
                                   **exact_and_float("rtp_gap", a.rtp_upper - a.rtp)})
    if a.mystery:
        out["mystery"] = [{"name": level.name, **_meter_json(m)} for level, m in zip(a.model.mystery, a.mystery)]
    if a.jackpots:
        out["jackpots"] = [{"name": level.name, "symbol": a.model.symbol_names[level.symbol], "count": level.count,
                            "won_on": level.on,
                            **_meter_json(m)} for level, m in zip(a.model.jackpots, a.jackpots)]
    if len(a.bet_levels) > 1:
        out["bet_levels"] = [{"level": b.level, "total_bet": b.total_bet, **exact_and_float("rtp", b.rtp)}
                             for b in a.bet_levels]
    if simulation is not None:
        out["simulation"] = simulation.as_dict(a)
    return out


def _meter_json(p) -> dict:
    """A progressive meter (the combination progressive, or one mystery level) as JSON."""
    return {
        **exact_and_float("hit_probability", p.hit_probability),
        "contribution": frac(p.contribution),
        "reset": p.reset,
        "reset_share": frac(p.reset_share),
        **exact_and_float("mean_meter_at_hit", p.mean_meter),
        "model": "RTP share = contribution + hit probability x reset / total bet "
                 "(meter starts at reset; every play adds contribution x total bet before its outcome)",
    }


def check_json(c: CheckResult) -> dict:
    """One check as JSON: its rule, verdict, the figure compared (exact fraction and float) and note."""
    out = {
        "rule": c.rule.id,
        "verdict": c.verdict,
        "text": c.rule.text,
        "citation": c.rule.citation,
        "verified": c.rule.verified,
        "value": frac(c.value) if c.value is not None else None,
        "value_float": float(c.value) if c.value is not None else None,
        "note": c.note,
    }
    if c.rule.threshold is not None:
        out["threshold"] = frac(c.rule.threshold)
    if c.rule.low is not None:
        out["low"] = frac(c.rule.low)
    if c.rule.high is not None:
        out["high_inclusive" if c.rule.high_inclusive else "high_exclusive"] = frac(c.rule.high)
    if c.value_upper is not None:
        out["value_upper"] = frac(c.value_upper)
    if c.outcome is not None:
        out["outcome"] = c.outcome
    if c.failing:
        out["failing"] = list(c.failing)
    return out


def _class_json(c: OutcomeClass) -> dict:
    out = {
        "outcome": c.name,
        "kind": c.kind,
        "award": c.award,
        **exact_and_float("probability", c.probability),
        "exact": c.exact,
        "base_spin_probability": frac(c.base_probability),
        **exact_and_float("rtp_share", c.rtp),
    }
    if not c.exact:
        out["probability_upper"] = frac(c.probability_upper)
    if c.per_line_probability is not None:
        out["per_line_probability"] = frac(c.per_line_probability)
    if c.free_spin_probability is not None:
        out["free_spin_probability"] = frac(c.free_spin_probability)
    return out


# --- text ---------------------------------------------------------------------


def _fmt_fraction(x: Fraction, limit: int = 48) -> str:
    text = frac(x)
    return f"= {text}" if len(text) <= limit else "(exact fraction in --json)"


def one_in(p: Fraction) -> str:
    """A probability as odds, ``"1 in 1,234"`` (``"never"`` for 0)."""
    if p == 0:
        return "never"
    inv = float(1 / p)
    return f"1 in {inv:,.0f}" if inv >= 100 else f"1 in {inv:.4g}"


def render(analysis: Analysis, checks: list[CheckResult], profile: str,
           simulation: SimulationResult | None = None, *, interrupted: bool = False) -> str:
    """The PAR sheet as text (``interrupted``: see :func:`to_json`)."""
    a, m = analysis, analysis.model
    lines = model_lines(m)
    add = lines.append
    add("")
    if a.bounded is None:
        add("Return to player (exact; expected credits returned per play / total bet)")
        for k, v in a.parts.items():  # PARTS, then "cap" for a capped model
            add(f"  {k:<12} {float(v):.9f}  {_fmt_fraction(v)}")
        add(f"  {'total':<12} {float(a.rtp):.9f}  ({float(a.rtp) * 100:.6f}%)  {_fmt_fraction(a.rtp)}")
    else:
        add("Return to player (RIGOROUS BOUNDS, not exact, each end rounded outward; expected credits returned "
            "per play / total bet)")
        for k, v in a.parts.items():  # an exact part (both bounds equal) keeps its nearest rounding
            hi = a.parts_upper[k]
            add(f"  {k:<12} {float(v):.9f}" if hi == v else
                f"  {k:<12} {fixed(v, 9, up=False)} to {fixed(hi, 9, up=True)}")
        add(f"  {'total':<12} {fixed(a.rtp, 9, up=False)} to {fixed(a.rtp_upper, 9, up=True)}  "
            f"({fixed(100 * a.rtp, 6, up=False)}% to {fixed(100 * a.rtp_upper, 6, up=True)}%; "
            f"gap ~{float(a.rtp_upper - a.rtp):.3g})")
        add(f"  why bounded: {a.bounded}")
    add("")
    add(f"Hit frequency       {float(a.hit_frequency) * 100:.6f}%  ({one_in(a.hit_frequency)})  "
        f"{_fmt_fraction(a.hit_frequency)}")
    add("                    a play pays anything, starts a feature or hits a progressive or jackpot level")
    if a.variance_upper is None:
        add(f"Standard deviation  {a.sd_per_bet:.6g} x total bet per play ({a.sd:,.6g} credits), "
            "features and progressives included")
    else:
        per_bet = (a.variance / m.total_bet**2, a.variance_upper / m.total_bet**2)
        add(f"Standard deviation  {sqrt_fixed(per_bet[0], 6, up=False)} to {sqrt_fixed(per_bet[1], 6, up=True)} "
            f"x total bet per play ({sqrt_fixed(a.variance, 3, up=False)} to "
            f"{sqrt_fixed(a.variance_upper, 3, up=True)} credits; rigorous bounds, rounded outward)")
    if a.feature is not None:
        f = a.feature
        add(f"Free spins          triggered {one_in(f.trigger_probability)} plays; "
            f"{float(f.spins_per_feature):.4g} spins per feature with retriggers "
            f"({float(f.retrigger_per_spin):.4g} awarded per free spin); "
            f"mean win {float(f.win_per_feature) / m.total_bet:.4g} x total bet")
    meters = [("Progressive", a.progressive)] if a.progressive is not None else []
    meters += [(f"Mystery {level.name}", meter) for level, meter in zip(m.mystery, a.mystery)]
    meters += [(f"Jackpot {level.name}", meter) for level, meter in zip(m.jackpots, a.jackpots)]
    for label, p in meters:
        add(f"{label:<20}hit {one_in(p.hit_probability)} plays; RTP share = contribution "
            f"{float(p.contribution) * 100:.4g}% + reset share {float(p.reset_share) * 100:.4g}%; "
            f"mean meter at a hit {float(p.mean_meter):,.2f} credits")
    if a.cap is not None and a.cap_upper is None:
        reached = f"reached {one_in(a.cap.capped)} plays" if a.cap.capped else "never reached"
        add(f"Award cap           {m.cap:,} x total bet per play (progressives outside it): {reached}; "
            f"RTP effect {float(a.parts['cap']) * 100:.6f}% (exact)")
    elif a.cap is not None:  # free spins whose capped walk was stopped: both ends, rounded outward
        add(f"Award cap           {m.cap:,} x total bet per play, free spins included (progressives outside it): "
            f"reached with probability {significant(a.cap.capped, 6, up=False)} to "
            f"{significant(a.cap_upper.capped, 6, up=True)}; RTP effect {fixed(100 * a.parts['cap'], 6, up=False)}% "
            f"to {fixed(100 * a.parts_upper['cap'], 6, up=True)}% (rigorous bounds)")
    if a.sticky is not None:
        add(f"Sticky wilds        exact: each free-spin session a Markov chain over the {a.sticky.states:,} sets of "
            f"sticky positions it reaches ({a.sticky.chain_states:,} states with the spins left)")
    if a.cascade is not None:
        c = a.cascade
        if c.exact:
            add(f"Cascades            {float(c.cascades):.6g} refills per play on average; exact: a Markov chain "
                f"over the {c.states:,} windows (x ladder rungs) the refills reach, no truncation")
        else:
            add(f"Cascades            {significant(c.cascades, 6, up=False)} to "
                f"{significant(c.cascades_upper, 6, up=True)} refills per play; "
                f"rigorous bounds: a Markov chain over the {c.states:,} windows (x ladder rungs) the refills reach, "
                "every one followed (no truncation), too many to solve exactly")
    if len(a.bet_levels) > 1:
        add("Bet levels          " + "; ".join(f"x{b.level}: total bet {b.total_bet:,}, RTP {float(b.rtp) * 100:.6f}%"
                                               for b in a.bet_levels))
        add("                    same probabilities at every level; the figures above are at x1 (the model's bet)")
    add("")
    lines.extend(_outcome_lines(a))
    if simulation is not None:
        add("")
        lines.extend(simulation.render(a))
    elif interrupted:
        add("")
        add("Simulation INTERRUPTED before two plays were complete: nothing to report")
    add("")
    lines.extend(check_lines(checks, profile))
    add(f"({'exact' if a.bounded is None else 'bounded'} analysis in {a.seconds:.3f} s, joint enumeration engine: {a.engine})")
    add(outcome(checks, interrupted).line())
    return "\n".join(lines) + "\n"


def outcome(checks: list[CheckResult], interrupted: bool = False) -> Outcome:
    """The report's verdict: every check passes, and the simulation (if asked for) finished."""
    failed = sum(c.decided and not c.passed for c in checks)
    undecided = sum(not c.decided for c in checks)
    exact = ("at least one check fails" if failed else
             f"{undecided} check(s) UNDECIDED: the bounds straddle a limit" if undecided else "every check passes")
    reason = f"the simulation was interrupted; exact checks: {exact}" if interrupted else exact
    # undecided and nothing failed: not shown either way, so incomplete (exit 1), never a pass
    return Outcome.judge(not failed and not undecided, complete=bool(failed) or not undecided,
                         interrupted=interrupted, reason=reason)


def _outcome_lines(a: Analysis) -> list[str]:
    """The table of winning outcome classes, and the rarest."""
    lines: list[str] = []
    add = lines.append
    add("Winning outcomes")
    add(f"  ({PROBABILITY_NOTE};")
    add("   'per line' is one payline of the base game, 'per free spin' one free spin on the feature strips)")
    name_w = max(len(c.name) for c in a.classes) + 1
    award_w = max(len(c.award) for c in a.classes) + 1
    add(f"  {'outcome':<{name_w}} {'award':<{award_w}} {'per play':>12} {'odds':>18} {'per line':>11} "
        f"{'per free spin':>13} {'RTP share':>10}")
    for c in a.classes:
        mark = "*" if c is a.rarest else " "
        prob = f"{float(c.probability):.6g}" + ("" if c.exact else "~")
        per_line = f"{float(c.per_line_probability):.4g}" if c.per_line_probability is not None else "-"
        per_free = f"{float(c.free_spin_probability):.4g}" if c.free_spin_probability is not None else "-"
        odds = one_in(c.probability) if c.exact else "~" + one_in(c.probability)
        add(f" {mark}{c.name:<{name_w}} {c.award:<{award_w}} {prob:>12} {odds:>18} "
            f"{per_line:>11} {per_free:>13} {float(c.rtp) * 100:>9.4f}%")
    chain_bounded = a.classes_bounded
    if any(not c.exact for c in a.classes):
        add("  ~ retriggers make this probability irrational: exact rational bounds 2^-192 apart "
            "(--json gives both); checks use the lower bound" if not chain_bounded else
            "  ~ a rigorous lower bound (the cascade chain is bounded, --json gives both bounds); checks use it")
    r = a.rarest
    if r.exact or not chain_bounded:  # exact, or bounds 2^-192 apart: far below the digits shown
        shown = f"{float(r.probability):.9g}"
        exact = "exact" if r.exact else "within rational bounds 2^-192 apart"
    else:
        shown = significant(r.probability, 9, up=False)
        exact = f"between it and {significant(r.probability_upper, 9, up=True)} (rigorous bounds, rounded outward)"
    odds = one_in(r.probability) if r.exact else "~" + one_in(r.probability)
    add(f"  * least likely winning outcome: {r.name}, probability {shown} per play ({odds}), {exact}")
    if r.exact and len(frac(r.probability)) <= 60:
        add(f"    = {frac(r.probability)}")
    return lines


def check_lines(checks: list[CheckResult], profile: str) -> list[str]:
    """Each check of the profile with its note and citation."""
    lines: list[str] = []
    add = lines.append
    add(f"Checks (profile {profile})")
    for c in checks:
        add(f"  {c.verdict.upper()}  {c.rule.id}: {c.rule.text}")
        add(f"        {c.note}")
        if c.failing:
            shown = ", ".join(c.failing[:8]) + (f", ... ({len(c.failing)} in all)" if len(c.failing) > 8 else "")
            add(f"        below the limit: {shown}")
        add(f"        source: {c.rule.citation}")
        if c.rule.verified.startswith("UNVERIFIED"):
            add(f"        citation {c.rule.verified}")
    return lines


def model_json(m) -> dict:
    """The model's heading as JSON: name, source, window, paylines (or ways), bets and base cycle."""
    out = {"name": m.name, "source": m.source, "reels": m.reels, "rows": m.rows, "paylines": len(m.paylines),
           "bet_per_line": m.bet_per_line, "total_bet": m.total_bet, "cycle": heights.cycle(m)}
    if m.ways:  # "paylines" then counts the ways (the ways rule pays them); "bet_per_line" is the bet per way
        out["ways"] = len(m.paylines)
    return out


def model_lines(m) -> list[str]:
    """The PAR sheet's heading: the game and its base cycle."""
    lengths = " x ".join(str(n) for n in m.stop_totals())
    return [f"PAR sheet: {m.name}" + (f"  ({m.source})" if m.source else ""),
            f"  {m.reels} reels x {m.rows} rows, {len(m.paylines)} {m.line_word}s, "
            f"{m.bet_per_line} credit(s) per {'way' if m.ways else 'line'}, total bet {m.total_bet} credits",
            *([f"  reel heights per spin: weights {' x '.join(str(t) for t in height_draws(m))}; "
               f"up to {len(m.paylines):,} ways, total bet {m.total_bet} credits whatever the ways"]
              if m.heights else []),
            f"  base game cycle: {lengths}{' x the heights' if m.heights else ''} = {heights.cycle(m):,} "
            f"{'virtual ' if m.base_weights else ''}stop combinations (each equally likely)"]


# --- an exact analysis stopped by Ctrl-C or SIGTERM --------------------------------

def analysis_interrupted(done: int, total: int) -> Outcome:
    """The verdict of a report whose exact analysis was interrupted: incomplete, nothing checked."""
    share = f"{100 * done / total:.0f}%" if total else "0%"
    return Outcome.judge(True, interrupted=True,
                         reason=f"the exact analysis was interrupted after {share} of its work; no check was made")


def interrupted_json(model, profile: str, done: int, total: int) -> dict:
    """The JSON report of an interrupted exact analysis: the model, how far the work got, no figures."""
    return analysis_interrupted(done, total).report({
        "checks": [], "profile": profile, "model": model_json(model),
        "analysis": {"done": done, "total": total,
                     "unit": "table entries of the cost estimate, each built and then enumerated"},
    })


def render_interrupted(model, profile: str, done: int, total: int) -> str:
    """The text report of an interrupted exact analysis (see :func:`interrupted_json`)."""
    return "\n".join(model_lines(model) + [
        "",
        f"Exact analysis INTERRUPTED after {done:,} of {total:,} work units (each table entry built, then "
        "enumerated): no exact figure exists yet,",
        f"so no rule of profile {profile} was checked.",
        analysis_interrupted(done, total).line(),
    ]) + "\n"
