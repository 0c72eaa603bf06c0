"""``rngcert game``: the exact return of every bet of a table game, and a
simulation through the virtual devices."""
from __future__ import annotations

import json
import sys

import click

from harness.commands.core import HexSeed

GAME_NAMES = ("baccarat", "roulette-single", "roulette-double", "big-six", "money-wheel", "sic-bo", "craps")


def _percent(x) -> str:
    return "" if x is None else f"{float(x) * 100:.4f}%"


def _fraction(x, width: int = 24) -> str:
    text = f"{x.numerator}/{x.denominator}"
    return text if len(text) <= width else "(exact: --json)"


def _print_analysis(analysis) -> None:
    params = ", ".join(f"{k} {v}" for k, v in analysis.parameters.items() if not isinstance(v, dict))
    click.echo(f"{analysis.game}  variant {analysis.variant}" + (f"  ({params})" if params else ""))
    if analysis.note:
        click.echo(f"  {analysis.note}")
    click.echo(f"\n{'bet':<22} {'RTP':>10} {'exact RTP':>24} {'house edge':>11} {'per resolved':>12}  source")
    for bet in analysis.bets:
        extra = f"  [{len(bet.instances)} instances]" if len(bet.instances) > 1 else ""
        click.echo(f"{bet.name:<22} {float(bet.rtp):>10.6f} {_fraction(bet.rtp):>24} "
                   f"{_percent(bet.house_edge):>11} {_percent(bet.house_edge_per_resolved):>12}  {bet.source}{extra}")


def _print_simulation(sim) -> None:
    rate = sim.rounds / sim.seconds if sim.seconds > 0 else float("nan")
    click.echo(f"\nsimulation: {sim.rounds:,} rounds of {sim.requested:,} on {sim.device} "
               f"in {sim.seconds:.2f} s ({rate / 1e6:.1f} M rounds/s)" + ("  INTERRUPTED" if sim.interrupted else ""))
    if sim.procedure:
        click.echo(f"  procedure: {sim.procedure}")
    fit = sim.outcome_fit
    if fit.statistic is None:
        click.echo(f"  outcome chi-square: not computed ({fit.note})")
    else:
        click.echo(f"  outcome chi-square: X2 = {fit.statistic:.2f}, df = {fit.df}, p = {fit.pvalue:.4g} "
                   f"({fit.cells} classes, {fit.pooled} pooled)")
    if fit.impossible:
        click.echo(f"  IMPOSSIBLE OUTCOMES OBSERVED: {fit.impossible}")
    click.echo(f"  {sim.note}")
    click.echo(f"\n{'bet':<22} {'decisions':>12} {'simulated':>10} {'99.9% interval':>23} {'exact':>10} "
               f"{'in':>3} {'chi2 p':>8}")
    for bet in sim.bets:
        mean, interval, p = bet.mean_return, bet.interval, bet.fit.pvalue
        click.echo(
            f"{bet.name:<22} {bet.decisions:>12,} {'' if mean is None else f'{float(mean):.6f}':>10} "
            f"{'' if interval is None else f'[{interval[0]:.6f}, {interval[1]:.6f}]':>23} "
            f"{float(bet.exact.rtp):>10.6f} {'' if bet.inside is None else ('yes' if bet.inside else 'NO'):>3} "
            f"{'' if p is None else f'{p:.3g}':>8}")
    click.echo("\nsimulation " + ("agrees with the exact probabilities" if sim.ok
                                  else "INTERRUPTED" if sim.interrupted else "FAILED the outcome check"))


def _progress(done: int, total: int) -> None:
    click.echo(f"\r  {done:,} / {total:,} rounds ({100 * done / total:.1f}%)", err=True, nl=done >= total)


@click.command("game")
@click.argument("game_name", metavar="GAME", type=click.Choice(GAME_NAMES))
@click.option("--decks", type=click.IntRange(1, 12), default=None,
              help="Decks in the baccarat shoe, 1..12 (default 8).")
@click.option("--variant", default=None, metavar="V",
              help="Rule variant (default: the game's first); a bad one lists the valid choices.")
@click.option("--simulate", "rounds", type=click.IntRange(min=1), default=None, metavar="N",
              help="Also play N rounds through the virtual devices and compare with the exact results.")
@click.option("--seed", type=HexSeed(), default=None,
              help="Replay mode for --simulate: the ChaCha20 key as 64 hex digits (default: OS entropy).")
@click.option("--stream", "stream_id", type=click.IntRange(0, 2**64 - 1), default=None,
              help="Replay stream id (needs --seed). Default 0.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def game_command(game_name, decks, variant, rounds, seed, stream_id, as_json):
    """Exact return of every bet of GAME, from its rules (seed + section cited).

    \b
    GAME: baccarat, roulette-single, roulette-double, big-six, money-wheel,
    sic-bo, craps.  Probabilities are exact fractions (integer counts over
    the shoe, the 216 dice outcomes, the wheel's sections, craps' Markov
    chains); RTP = 1 + expected net win per unit staked.

    \b
    Variants (first = default):
      baccarat         jp, macau, sbo (the devices' shoe procedures), etable
      roulette-double  standard, jp-literal, jp-layout-b, as-single-zero
      money-wheel      standard, alternative (000 第8 6-2 / 6-3)
      craps            all, pa, jp
      others           standard

    \b
    Examples:
      rngcert game baccarat --decks 8
      rngcert game money-wheel --variant alternative --json
      rngcert game craps --simulate 10000000 --seed 00...00
    """
    from harness.games.registry import game as get_game

    game = get_game(game_name)
    if variant is not None and variant not in game.variants:
        raise click.BadParameter(f"{variant!r} is not a variant of {game_name}; valid choices: "
                                 f"{', '.join(game.variants)}", param_hint="'--variant'")
    if decks is not None and not game.uses_decks:
        raise click.UsageError(f"--decks applies to baccarat only, not {game_name}")
    if (seed is not None or stream_id is not None) and rounds is None:
        raise click.UsageError("--seed/--stream select the simulation's generator and need --simulate N")
    if stream_id is not None and seed is None:
        raise click.UsageError("--stream selects a replay stream and needs --seed HEX64")

    try:
        analysis = game.analyse(variant, decks)
        simulation = None
        if rounds is not None:
            import rngcore

            generator = rngcore.Generator() if seed is None else rngcore.Generator(seed, stream_id or 0)
            simulation = game.simulate(rounds, generator, variant, decks, progress=_progress)
    except ValueError as exc:  # e.g. a deck count the shoe procedure does not allow
        raise click.UsageError(str(exc)) from None
    if as_json:
        report = analysis.as_dict()
        if simulation is not None:
            report["simulation"] = simulation.as_dict()
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        _print_analysis(analysis)
        if simulation is not None:
            _print_simulation(simulation)
    if simulation is not None and not simulation.ok:
        sys.exit(130 if simulation.interrupted else 1)


COMMANDS = [game_command]
