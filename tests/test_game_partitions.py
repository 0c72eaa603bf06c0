"""`rngcert game G --simulate N --workers W`: fixed partitions, each on its own spawn child, merged exactly;
the same result for any W, equal to the partitions played one by one and merged by hand (in order or as a tree)."""
import json

import pytest
from click.testing import CliRunner

import rngcore
from certify_support import without_times
from harness import game_partitions
from harness.cli import main
from harness.games.registry import GAMES
from harness.segments import GameSegments

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
SIZE = 700
ROUNDS = 3 * SIZE - 101  # the last partition shorter


@pytest.fixture
def small_partitions(monkeypatch):
    monkeypatch.setattr(game_partitions, "PARTITION_ROUNDS", SIZE)


def _by_hand(game, tree=False):
    children = rngcore.Generator(SEED, stream=2).spawn(3)
    parts = [game.simulate(b - a, child) for (a, b), child in zip([(0, SIZE), (SIZE, 2 * SIZE), (2 * SIZE, ROUNDS)],
                                                                    children)]
    if tree:
        merged = GameSegments.merge(parts[0], GameSegments.merge(parts[1], parts[2]))
    else:
        merged = GameSegments.merge(GameSegments.merge(parts[0], parts[1]), parts[2])
    return GameSegments.finish(merged, ROUNDS)


def _figures(sim):
    report = without_times(sim.as_dict())
    report.pop("replay")
    return report


@pytest.mark.parametrize("name", ["roulette-single", "baccarat", "three-card-poker"])
def test_any_number_of_workers_gives_the_partitions_merged_by_hand(small_partitions, name):
    game = GAMES[name]
    expected = _figures(_by_hand(game))
    assert _figures(_by_hand(game, tree=True)) == expected  # the tally merge is exact: order of merging is free
    for workers in (1, 2):
        sim = game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=workers)
        assert _figures(sim) == expected, (name, workers)
        assert sim.rounds == ROUNDS and sim.replay["partitions"] == 3 and sim.replay["position"] == 0


def test_the_command_reports_the_same_simulation_for_any_workers(small_partitions):
    args = ["game", "baccarat", "--simulate", str(ROUNDS), "--seed", SEED, "--json"]
    one, two = (CliRunner().invoke(main, args + ["--workers", w]) for w in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, two.output
    a, b = (without_times(json.loads(r.stdout)) for r in (one, two))
    assert a == b and a["simulation"]["rounds"] == ROUNDS and a["simulation"]["replay"]["partition_rounds"] == SIZE


def test_workers_need_a_simulation():
    r = CliRunner().invoke(main, ["game", "baccarat", "--workers", "2"])
    assert r.exit_code == 2 and "--workers" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_an_interrupted_run_reports_its_whole_partitions(small_partitions):
    def progress(done, total):
        if done >= SIZE:
            raise KeyboardInterrupt

    game = GAMES["roulette-single"]
    sim = game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=2, progress=progress)
    assert sim.interrupted and sim.rounds == SIZE and sim.verdict == "incomplete"
    first = game.simulate(SIZE, rngcore.Generator(SEED, stream=2).spawn(3)[0])
    assert [b.counts for b in sim.bets] == [b.counts for b in first.bets]


def test_the_chi_square_is_computed_once_on_the_merged_counts(small_partitions, monkeypatch):
    import stats

    real, calls = stats.chisquare, []

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(stats, "chisquare", counting)
    game = GAMES["baccarat"]
    sim = game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=1)
    assert len(calls) == 1  # not once per partition as well
    assert _figures(sim) == _figures(_by_hand(game)) and sim.outcome_fit.pvalue is not None


def test_the_tree_carries_counts_and_partition_0_the_exact_probabilities_once(small_partitions):
    import pickle

    game = GAMES["baccarat"]
    adapter = GameSegments(game)
    children = rngcore.Generator(SEED, stream=2).spawn(2)
    played = [game_partitions._partition(lambda: game.simulate(SIZE, child)) for child in children]
    sent = [game_partitions._value(sim, adapter, False, index) for index, sim in enumerate(played)]
    values = [pickle.loads(data) for data, _ in sent]
    assert all(v.outcome_fit.inputs[1:] == (None, None) for v in values)
    assert [v.outcome_fit.inputs[0] for v in values] == [p.outcome_fit.inputs[0] for p in played]
    (_, _, first), (_, _, later) = (note for _, note in sent)
    assert first == played[0].outcome_fit.inputs[1:] and later is None
    assert len(first[0]) == 7200 and len(sent[0][0]) * 4 < len(pickle.dumps(played[0]))


def test_a_slot_simulation_in_partitions_is_the_same_for_any_workers(small_partitions):
    """`rngcert slot MODEL --simulate N --workers W`: partition i is one call of the slot's simulator on
    spawn child i; the totals are those of the partitions played and merged by hand, for W = 1 and 2."""
    import dataclasses
    from pathlib import Path

    from harness.slot.model import load_model
    from harness.slot.simulate import simulate

    model = load_model(Path(__file__).resolve().parent.parent / "examples" / "slot_compliant.toml")
    children = rngcore.Generator(SEED, stream=4).spawn(3)
    by_hand = None
    for (a, b), child in zip([(0, SIZE), (SIZE, 2 * SIZE), (2 * SIZE, ROUNDS)], children):
        part = simulate(model, b - a, child)
        by_hand = part if by_hand is None else (by_hand.absorb(part) or by_hand)

    def totals(result):
        return {k: v for k, v in dataclasses.asdict(result).items() if k not in ("seconds", "generator")}

    for workers in (1, 2):
        result = game_partitions.simulate_slot(model, ROUNDS, rngcore.Generator(SEED, stream=4), workers=workers)
        assert totals(result) == totals(by_hand) and result.plays == ROUNDS, workers
        assert result.generator.endswith(f"spawn(3): partitions of {SIZE:,} spins")
    args = ["slot", str(Path(__file__).resolve().parent.parent / "examples" / "slot_compliant.toml"),
            "--simulate", str(ROUNDS), "--seed", SEED, "--json"]
    one, two = (CliRunner().invoke(main, args + ["--workers", w]) for w in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, two.output
    a, b = (without_times(json.loads(r.stdout)) for r in (one, two))
    assert a == b and a["simulation"]["plays"] == ROUNDS
    alone = CliRunner().invoke(main, args[:2] + ["--workers", "2"])
    assert alone.exit_code == 2 and "--simulate" in alone.stderr


def test_deferring_the_fit_leaves_other_threads_alone():
    from concurrent.futures import ThreadPoolExecutor

    from harness.games.simulate import fits_deferred

    game = GAMES["roulette-single"]
    with fits_deferred():
        mine = game.simulate(2000, rngcore.Generator(SEED, stream=5))
        with ThreadPoolExecutor(1) as pool:
            theirs = pool.submit(game.simulate, 2000, rngcore.Generator(SEED, stream=5)).result()
    after = game.simulate(2000, rngcore.Generator(SEED, stream=5))
    assert mine.outcome_fit.pvalue is None and mine.outcome_fit.inputs[0] == after.outcome_fit.inputs[0]
    assert theirs.outcome_fit.pvalue is not None and theirs.outcome_fit.pvalue == after.outcome_fit.pvalue


def test_the_tree_of_merges_gives_the_partitions_merged_one_after_another(monkeypatch):
    """The tree the workers merge (7 partitions: levels of 7, 4, 2, 1) equals the partitions played one by
    one here and merged in order, on 1 or 3 workers (3 partitions of 700 above: 1 and 2 workers)."""
    size = 300
    monkeypatch.setattr(game_partitions, "PARTITION_ROUNDS", size)
    game = GAMES["roulette-single"]
    cuts = [(a, min(ROUNDS, a + size)) for a in range(0, ROUNDS, size)]
    merged = None
    for (a, b), child in zip(cuts, rngcore.Generator(SEED, stream=2).spawn(len(cuts))):
        part = game.simulate(b - a, child)
        merged = part if merged is None else GameSegments.merge(merged, part)
    expected = _figures(GameSegments.finish(merged, ROUNDS))
    for workers in (1, 3):
        sim = game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=workers)
        assert _figures(sim) == expected and sim.replay["partitions"] == len(cuts), workers


def test_the_report_work_is_done_while_the_workers_play(small_partitions, monkeypatch):
    """On a local pool, what the calling process must do besides merging (here the report's exact
    analysis, given as ``alongside``, and loading what the merged counts' chi-square needs: scipy,
    about a second) runs in one thread of it once the workers are forked, not before or after the
    partitions; the thread is over when the run returns.  Played in this process, the same work runs
    after the partitions; a failure of it is raised (bad input found by the analysis)."""
    import threading

    seen = []
    real = GameSegments.prepare_finish
    monkeypatch.setattr(GameSegments, "prepare_finish",
                        staticmethod(lambda: seen.append(("load", threading.current_thread())) or real()))
    game = GAMES["roulette-single"]
    analyse = lambda: seen.append(("analyse", threading.current_thread()))  # noqa: E731
    sim = game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=2, alongside=analyse)
    assert [(what, t.name) for what, t in seen] == [("analyse", "rngcert-meanwhile"), ("load", "rngcert-meanwhile")]
    assert not seen[0][1].is_alive()
    assert _figures(sim) == _figures(_by_hand(game))
    seen.clear()
    game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=1, alongside=analyse)
    assert [(what, t) for what, t in seen] == [("analyse", threading.main_thread()), ("load", threading.main_thread())]

    def bad():
        raise ValueError("no such deck count")

    for workers in (1, 2):
        with pytest.raises(ValueError, match="no such deck count"):
            game_partitions.simulate(game, ROUNDS, rngcore.Generator(SEED, stream=2), workers=workers, alongside=bad)


@pytest.mark.parametrize("workers", [1, 2])
def test_blocks_of_partitions_give_the_partitions_one_by_one(monkeypatch, workers):
    """A local run plays blocks of partitions (harness.reduction.blocks), each merged in its worker
    in the run's tree: the figures of the same 20 partitions played and merged one by one."""
    from harness import reduction

    game, rounds = GAMES["baccarat"], 20 * 300

    def run():
        return _figures(game_partitions.simulate(game, rounds, rngcore.Generator(SEED, stream=5), workers=workers,
                                                 partition_rounds=300))

    cut = reduction.blocks(20, workers)
    assert max(b - a for a, b, _ in cut) > 1
    blocked = run()
    monkeypatch.setattr(reduction, "blocks", lambda count, workers: [(i, i + 1, 0) for i in range(count)])
    assert blocked == run() and blocked["rounds"] == rounds
