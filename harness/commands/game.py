"""``rngcert game``: the exact return of every bet of a table game, and a
simulation through the virtual devices.

The games, their variants and their options come from the game registry
(:mod:`harness.games.registry`): the GAME choices, the ``--help`` text and
the options such as ``--decks`` are generated from the declarations when
they are needed, so a game registered later appears with no edit here.
"""
from __future__ import annotations

import json
import sys

import click

from harness.commands._generated import GeneratedCommand, rows_block
from harness.commands._generator import generator_options, provenance_block
from harness.commands._options import (Count, complete_option, complete_strategy, complete_variant, emit,
                                      option_flag, output_option, parse_option_pairs, quiet_option, scheduler_option,
                                      workers_option, checkpoint_option)
from harness.verdict import FAIL, Outcome

# Every tally is a 64-bit counter and craps counts each roll (about 3.4 per
# round), so 2**60 rounds keep every counter far from overflow.
MAX_ROUNDS = 2**60
EXAMPLE_SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def _percent(x) -> str:
    return "" if x is None else f"{float(x) * 100:.4f}%"


def _fraction(x, width: int = 24) -> str:
    text = f"{x.numerator}/{x.denominator}"
    return text if len(text) <= width else "(exact: --json)"


def _analysis_lines(analysis) -> list[str]:
    params = ", ".join(f"{k} {v}" for k, v in analysis.parameters.items() if not isinstance(v, dict))
    strategy = "" if analysis.strategy is None else f"  strategy {analysis.strategy}"
    lines = [f"{analysis.game}  variant {analysis.variant}{strategy}" + (f"  ({params})" if params else "")]
    if analysis.note:
        lines.append(f"  {analysis.note}")
    if analysis.bets:  # a game the customers play against one another has no house bet
        lines.append(f"\n{'bet':<22} {'RTP':>10} {'exact RTP':>24} {'house edge':>11} {'per resolved':>12}  source")
    for bet in analysis.bets:
        extra = f"  [{len(bet.instances)} instances]" if len(bet.instances) > 1 else ""
        lines.append(f"{bet.name:<22} {float(bet.rtp):>10.6f} {_fraction(bet.rtp):>24} "
                     f"{_percent(bet.house_edge):>11} {_percent(bet.house_edge_per_resolved):>12}  "
                     f"{bet.source}{extra}")
    return lines


def _simulation_lines(sim) -> list[str]:
    rate = sim.rounds / sim.seconds if sim.seconds > 0 else float("nan")
    lines = [f"\nsimulation: {sim.rounds:,} rounds of {sim.requested:,} on {sim.device} "
             f"in {sim.seconds:.2f} s ({rate / 1e6:.1f} M rounds/s)" + ("  INTERRUPTED" if sim.interrupted else "")]
    if sim.procedure:
        lines.append(f"  procedure: {sim.procedure}")
    fit = sim.outcome_fit
    if fit.statistic is None:
        lines.append(f"  outcome chi-square: not computed ({fit.note})")
    else:
        lines.append(f"  outcome chi-square: X2 = {fit.statistic:.2f}, df = {fit.df}, p = {fit.pvalue:.4g} "
                     f"({fit.cells} classes, {fit.pooled} pooled)")
    if fit.impossible:
        lines.append(f"  IMPOSSIBLE OUTCOMES OBSERVED: {fit.impossible}")
    lines.append(f"  {sim.note}")
    cells = fit.cell_lines("outcome chi-square")
    if cells:
        lines += [""] + cells
    if sim.bets:
        lines.append(f"\n{'bet':<22} {'decisions':>12} {'simulated':>10} {'99.9% interval':>23} {'exact':>10} "
                     f"{'in':>3} {'chi2 p':>8}")
    for bet in sim.bets:
        mean, interval, p = bet.mean_return, bet.interval, bet.fit.pvalue
        lines.append(
            f"{bet.name:<22} {bet.decisions:>12,} {'' if mean is None else f'{float(mean):.6f}':>10} "
            f"{'' if interval is None else f'[{interval[0]:.6f}, {interval[1]:.6f}]':>23} "
            f"{float(bet.exact.rtp):>10.6f} {'' if bet.inside is None else ('yes' if bet.inside else 'NO'):>3} "
            f"{'' if p is None else f'{p:.3g}':>8}")
    return lines


def _outcome(sim) -> Outcome:
    """The report's verdict: the analysis alone passes; a simulation must agree."""
    if sim is None:
        return Outcome.judge(True, reason="exact analysis; no simulation requested")
    if sim.interrupted:
        return Outcome.judge(True, interrupted=True,
                             reason=f"simulation interrupted after {sim.rounds:,} of {sim.requested:,} rounds")
    if sim.verdict == FAIL:
        return Outcome.judge(False, reason="the simulation FAILED the outcome check")
    if not sim.tested:
        return Outcome.judge(True, complete=False,
                             reason=f"{sim.rounds:,} rounds are too few for the outcome check: {sim.outcome_fit.note}")
    return Outcome.judge(True, reason="the simulation agrees with the exact probabilities")


class GameName(click.Choice):
    """The names of the registered games, read when a value or ``--help`` needs them."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self):
        from harness.games.registry import GAMES

        return tuple(GAMES)

    @choices.setter
    def choices(self, value) -> None:  # click.Choice.__init__ assigns; the registry is the source
        pass


def _option_help(declared) -> str:
    return "; ".join(f"{g.name}: {option.help}" for g, option in declared)


_OPTION_CACHE: dict = {}


def _game_options() -> list[click.Option]:
    """One ``--<name>`` flag per whole-number option name some registered game declares."""
    from harness.games.registry import flag_options

    declared = flag_options()
    key = tuple((name, tuple((g.name, o) for g, o in pairs)) for name, pairs in declared.items())
    if key not in _OPTION_CACHE:
        _OPTION_CACHE.clear()
        _OPTION_CACHE[key] = [
            click.Option([f"--{name}"], type=click.IntRange(min(o.low for _, o in pairs), max(o.high for _, o in pairs)),
                         default=None, metavar=pairs[0][1].metavar, help=_option_help(pairs))
            for name, pairs in declared.items()
        ]
    return _OPTION_CACHE[key]


def _declared_blocks(games) -> list[str]:
    """The ``--help`` blocks listing every game's options and strategies, from their declarations."""
    options = [(f"{g.name} {o.name}", f"{o.describe()}: {o.help}") for g in games for o in g.options]
    strategies = [(f"{g.name} {s.name}", ("(default) " if i == 0 else "") + s.help)
                  for g in games for i, s in enumerate(g.strategies)]
    blocks = []
    if options:
        blocks.append(rows_block("Options (--option NAME=VALUE; a whole number is also --NAME N):", options))
    if strategies:
        blocks.append(rows_block("Strategies (--strategy NAME, or --strategy FILE for a game's own-chart strategy; "
                                 "other games take none):", strategies))
    return blocks


def _help_text() -> str:
    from harness.games.registry import GAMES

    several = [g for g in GAMES.values() if len(g.variants) > 1]
    variants = [(g.name, ", ".join(g.variants) + (f" ({g.variants_help})" if g.variants_help else "")) for g in several]
    if len(several) < len(GAMES):
        variants.append(("others", "standard"))
    return "\n\n".join([
        "Exact return of every bet of GAME, from its rules (seed + section cited).",
        "GAME is one of the games below.  Probabilities are exact fractions (integer counts over the shoe, "
        "the dice outcomes, the wheel's sections, craps' Markov chains); RTP = 1 + expected net win per "
        "unit staked.  With --simulate, the verdict is PASS when the simulated outcomes agree with the exact "
        "probabilities, FAIL when they do not, INCOMPLETE when the run was interrupted (exit 130) or too "
        "short for the check (exit 1).",
        rows_block("Games:", ((name, g.summary) for name, g in GAMES.items())),
        rows_block("Variants (first = default):", variants),
        *_declared_blocks(GAMES.values()),
        "\b\nExamples:\n"
        "  rngcert game baccarat --decks 8\n"
        "  rngcert game money-wheel --variant alternative --json\n"
        f"  rngcert game craps --simulate 1000000 --seed {EXAMPLE_SEED}",
    ])


@click.command("game", cls=GeneratedCommand, help_text=_help_text, extra_params=_game_options,
               short_help="Exact return of every bet of a table game; simulation through the devices.")
@click.argument("game_name", metavar="GAME", type=GameName())
@click.option("--variant", default=None, metavar="V", shell_complete=complete_variant,
              help="Rule variant (default: the game's first); a bad one lists the valid choices.")
@click.option("--strategy", default=None, metavar="NAME|FILE", shell_complete=complete_strategy,
              help="The player's strategy, for a game that offers a choice (default: its first; see below); "
                   "a FILE, for a game that plays the player's own chart (the twenty-one family).")
@click.option("--option", "option_pairs", multiple=True, metavar="NAME=VALUE", shell_complete=complete_option,
              help="Set one of the game's declared options (repeatable; see the list below).")
@click.option("--simulate", "rounds", type=Count(1, MAX_ROUNDS, "2**60 rounds, what the 64-bit tallies hold"),
              default=None, metavar="N",
              help="Also play N rounds (1 <= N <= 2**60, what the 64-bit tallies hold) through the virtual "
                   "devices and compare with the exact results.")
@workers_option("Play the simulation in fixed partitions of 2^22 rounds, partition i on child i of the "
                "generator's spawn, on N processes: the same result for any N (not that of a run "
                "without --workers, which plays one stream).", default=None)
@scheduler_option
@checkpoint_option
@generator_options()
@click.option("--chart", "chart_format", type=click.Choice(("text", "csv", "json")), is_flag=False,
              flag_value="text", default=None,
              help="Print the strategy chart the analysis plays instead of the report (games with one: the "
                   "twenty-one family), as text (the default), csv or json.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@quiet_option
@output_option
def game_command(game_name, variant, strategy, option_pairs, rounds, workers, scheduler, checkpoint, rng, chart_format,
                 as_json, quiet, output, **given):
    from harness.games.registry import game as get_game
    from harness.games.base import as_named
    from harness.games.registry import flag_options
    from harness.games.registry import options as declared_options

    game = get_game(game_name)
    if variant is not None and variant not in game.variants:
        raise click.BadParameter(f"{variant!r} is not a variant of {game_name}; valid choices: "
                                 f"{', '.join(game.variants)}", param_hint="'--variant'")
    # every option by its declared name, and how the user typed it (messages name it so)
    given = {name.replace("_", "-"): value for name, value in given.items() if value is not None}
    for name in given:
        if game.option(name) is None:
            takers = ", ".join(g.name for g, _ in declared_options()[name])
            raise click.UsageError(f"--{name} applies to {takers} only, not {game_name}")
    typed = {name: f"--{name}" for name in given} | {"strategy": "--strategy"}
    for name, value in parse_option_pairs(game.name, game.options, option_pairs).items():
        if name in given:
            raise click.UsageError(f"{game_name}: --{name} given twice (as --{name} and --option {name}=)")
        given[name] = value
        typed[name] = option_flag(name)
    flags = flag_options()

    def flag(name: str) -> str:
        """How a message names option ``name``: as typed, else as it could be typed."""
        return typed.get(name) or (f"--{name}" if name in flags else option_flag(name))

    if (rng.seed is not None or rng.stream is not None) and rounds is None:
        raise click.UsageError("--seed/--stream select the simulation's generator and need --simulate N")
    if (workers is not None or scheduler is not None or checkpoint is not None) and rounds is None:
        raise click.UsageError("--workers/--scheduler/--checkpoint play a simulation in partitions and need "
                               "--simulate N")

    from harness.progress import Progress

    if chart_format is not None:
        if rounds is not None:
            raise click.UsageError("--chart prints the strategy chart; it does not take --simulate")
        try:
            emit(game.chart("json" if as_json else chart_format, variant, strategy, **given), output)
        except ValueError as exc:
            raise click.UsageError(as_named(exc, flag)) from None
        return
    try:
        if rounds is not None:
            game.check_simulation(strategy)
        analysed = []  # the exact analysis: before a one-stream simulation, during a partitioned one
        simulation = None
        if rounds is None or (workers is None and scheduler is None and checkpoint is None):
            analysed.append(game.analyse(variant, strategy, **given))
        if rounds is not None:
            generator = rng.build()
            with Progress(f"simulating {game_name}", rounds, unit="rounds", quiet=quiet) as progress:
                if analysed:
                    simulation = game.simulate(rounds, generator, variant, progress=progress, strategy=strategy,
                                               **given)
                else:
                    from harness import game_partitions

                    simulation = game_partitions.simulate(
                        game, rounds, generator, variant, strategy=strategy, workers=workers or 1,
                        progress=progress, scheduler=scheduler, checkpoint=checkpoint,
                        alongside=lambda: analysed.append(game.analyse(variant, strategy, **given)), **given)
        analysis = analysed[0]
    except ValueError as exc:  # e.g. a deck count the shoe procedure does not allow
        raise click.UsageError(as_named(exc, flag)) from None
    outcome = _outcome(simulation)
    if as_json:
        report = analysis.as_dict()
        if simulation is not None:
            report["simulation"] = simulation.as_dict()
        report.update(provenance_block(rng.provenance()))
        emit(json.dumps(outcome.report(report), indent=2, ensure_ascii=False), output)
    else:
        lines = _analysis_lines(analysis)
        if simulation is not None:
            lines += _simulation_lines(simulation)
        emit("\n".join(lines + ["", outcome.line()]), output)
    if outcome.exit_code:
        sys.exit(outcome.exit_code)


COMMANDS = [game_command]
