"""Simulations played in segments (harness.segments): the checkpoint between segments, a resumed run equal
to an uninterrupted one, the convergence trace, and the same for every registered game with no code of its own."""
import json

import pytest
from click.testing import CliRunner

import rngcore
from certify_support import draw_figures_as_svg, without_times
from harness import segments
from harness.certify.checkpoint import Partial
from harness.cli import main
from harness.games.registry import GAMES
from harness.resources import shipped

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


@pytest.fixture(autouse=True)
def _svg_figures(monkeypatch):
    draw_figures_as_svg(monkeypatch)  # these tests check report.json; matplotlib's figures are tested elsewhere


def generator(stream=3):
    return rngcore.Generator(SEED, stream=stream)


timeless = without_times


@pytest.fixture
def small_segments(monkeypatch):
    monkeypatch.setattr(segments, "MIN_SEGMENT", 200)


def test_boundaries_cover_the_run_and_respect_the_minimum():
    for total in (1, 1999, 2000, 4001, 20_000, 10**6, 2**60):
        ends = segments.boundaries(total)
        assert ends[-1] == total and ends == sorted(set(ends)) and len(ends) <= segments.POINTS
        sizes = [b - a for a, b in zip([0] + ends, ends)]
        assert all(s >= segments.MIN_SEGMENT for s in sizes) or len(ends) == 1


def test_the_segments_add_up_to_the_simulator_called_once_per_segment(monkeypatch):
    monkeypatch.setattr(segments, "MIN_SEGMENT", 500)
    # Segment k is one call of the game's simulator, drawing on where segment k - 1 stopped.
    game = GAMES["baccarat"]
    ends = segments.boundaries(2000)
    gen = generator()
    parts = [game.simulate(b - a, gen) for a, b in zip([0] + ends, ends)]
    played, trace = segments.play(2000, segments.GameSegments(game), generator())
    assert [p["rounds"] for p in trace] == ends and played.rounds == played.requested == 2000
    for k, bet in enumerate(played.bets):
        for label, count in bet.counts.items():
            assert count == sum(p.bets[k].counts.get(label, 0) for p in parts)
    outcome = [sum(p.outcome_fit.inputs[0][i] for p in parts) for i in range(len(parts[0].outcome_fit.inputs[0]))]
    assert list(played.outcome_fit.inputs[0]) == outcome and sum(outcome) == 2000
    shoes = sum(int(p.procedure.rsplit("shoes shuffled: ", 1)[1]) for p in parts)
    assert played.procedure.endswith(f"shoes shuffled: {shoes}")
    last = trace[-1]["bets"][0]
    assert last["decisions"] == played.bets[0].decisions and last["rtp"] == float(played.bets[0].mean_return)


def _stopping(adapter, at_call, inside):
    """``adapter`` whose segment ``at_call`` is stopped by Ctrl-C: inside the simulator (its rounds so far
    reported, as on a real Ctrl-C) or before it starts."""
    calls = {"n": 0}
    play = adapter.play

    def stopped(n, gen, progress):
        calls["n"] += 1
        if calls["n"] != at_call:
            return play(n, gen, progress)
        if not inside:
            raise KeyboardInterrupt

        def tick(done, total):
            if progress is not None:
                progress(done, total)
            raise KeyboardInterrupt

        return play(n, gen, tick)

    adapter.play = stopped
    return adapter


def _slot():
    from harness.slot.model import load_model

    return segments.SlotSegments(load_model(shipped("examples/slot_compliant.toml")))


@pytest.mark.parametrize("make, inside", [
    (lambda: segments.GameSegments(GAMES["baccarat"], decks=8), True),  # a C shoe carried between rounds
    (lambda: segments.GameSegments(GAMES["baccarat"], decks=8), False),
    (_slot, True),
], ids=["baccarat-in-the-simulator", "baccarat-between-segments", "slot"])
def test_a_resumed_simulation_equals_an_uninterrupted_one(monkeypatch, tmp_path, make, inside):
    monkeypatch.setattr(segments, "MIN_SEGMENT", 300)
    rounds = 2000
    whole_gen = generator()
    whole, whole_trace = segments.play(rounds, make(), whole_gen, partial=Partial(tmp_path, "whole", "plan"))
    partial = Partial(tmp_path, "stopped", "plan")
    first_gen = generator()
    try:
        stopped, _ = segments.play(rounds, _stopping(make(), 4, inside), first_gen, partial=partial)
        assert inside and stopped.interrupted and segments.boundaries(rounds)[2] < _rounds(stopped) < rounds
    except KeyboardInterrupt:
        assert not inside
    saved = partial.load()
    assert saved is not None and saved[0] == segments.boundaries(rounds)[2]  # three segments were kept
    assert json.loads(saved[1])["position"] > 0  # JSON, with the generator's position
    resumed_gen = generator()
    resumed, resumed_trace = segments.play(rounds, make(), resumed_gen, partial=partial)
    assert _rounds(resumed) == rounds and not resumed.interrupted
    assert resumed_trace == whole_trace and len(whole_trace) == len(segments.boundaries(rounds))
    assert resumed_gen.position == whole_gen.position
    a, b = (timeless(x.as_dict()) if hasattr(x, "bets") else timeless(_slot_fields(x)) for x in (whole, resumed))
    assert a == b


def _rounds(result):
    return getattr(result, "rounds", None) or result.plays


def _slot_fields(result):
    return {k: v for k, v in vars(result).items() if k != "seconds"}


def test_a_damaged_or_foreign_checkpoint_starts_the_simulation_afresh(small_segments, tmp_path):
    game = segments.GameSegments(GAMES["roulette-single"])
    partial = Partial(tmp_path, "x", "plan")
    partial.save(400, b"\x80\x04 not json")
    played, trace = segments.play(3000, game, generator(), partial=partial)
    assert played.rounds == 3000 and trace[0]["rounds"] == segments.boundaries(3000)[0]


def test_an_engine_that_cannot_seek_plays_again_from_the_start(small_segments, tmp_path):
    from rngcore.engines import create

    make = lambda: rngcore.Generator(create("hmac-drbg-sha256", bytes(range(48)).hex(), 1))  # noqa: E731
    partial = Partial(tmp_path, "drbg", "plan")
    game = segments.GameSegments(GAMES["roulette-single"])
    try:
        segments.play(3000, _stopping(segments.GameSegments(GAMES["roulette-single"]), 3, False), make(),
                      partial=partial)
    except KeyboardInterrupt:
        pass
    assert partial.load() is not None
    again, _ = segments.play(3000, game, make(), partial=partial)
    whole, _ = segments.play(3000, game, make())
    assert timeless(again.as_dict()) == timeless(whole.as_dict())


PLAN = f'''format = 1
title = "segments"
selftest = false
[engine]
seed = "{SEED}"
stream = 9
[[games]]
game = "roulette-single"
simulate = 3000
'''


def test_certify_resumes_a_stopped_simulation_and_plots_its_convergence(small_segments, tmp_path, monkeypatch):
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    run = lambda *a: CliRunner().invoke(main, ["certify", str(plan), "--quiet", *map(str, a)])  # noqa: E731
    whole = run("--out", tmp_path / "whole")
    assert whole.exit_code == 0, whole.output
    play = segments.GameSegments.play
    calls = {"n": 0}

    def stop(self, n, gen, progress):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return play(self, n, gen, progress)

    monkeypatch.setattr(segments.GameSegments, "play", stop)
    first = run("--out", tmp_path / "stopped")
    assert first.exit_code == 130 and "INCOMPLETE" in first.output
    # the two segments played before the stop are kept as partitions (each on its own spawned child)
    assert len(list((tmp_path / "stopped" / "checkpoints").glob("game_*.parts/part-*.json"))) == 2
    monkeypatch.setattr(segments.GameSegments, "play", play)
    resumed = run("--out", tmp_path / "stopped", "--resume")
    assert resumed.exit_code == 0, resumed.output
    reports = [json.loads((tmp_path / d / "report.json").read_text()) for d in ("whole", "stopped")]
    import jsonschema

    from harness.certify.bundle import schema

    assert not list(jsonschema.Draft202012Validator(schema()).iter_errors(reports[1]))
    for report in reports:
        del report["provenance"]["runs"], report["provenance"]["command"]
    assert timeless(reports[0]) == timeless(reports[1])
    for section in reports[0]["sections"]:
        block = section["result"]["simulation"]["convergence"]
        assert [p["rounds"] for p in block["points"]] == segments.boundaries(3000)
        assert set(block["exact"]) == {b["name"] for b in block["points"][0]["bets"]}
    page = (tmp_path / "whole" / "report.html").read_text()
    assert page.count('<figure data-plot="convergence">') == 4  # the wheel's first four bets
    assert "Convergence of the other" in page
