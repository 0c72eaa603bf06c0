"""harness.slot.spin: one play's award against a straightforward evaluation of the strips, on a small model.

The reference below reads the model's text tables directly (strips, paylines, pays), not the
automaton, the reel arrays or the scatter tables spin.py uses: a window is the strip read from
the stop down, a line pays its symbol's pay for the run from reel 1, scatters pay by their count
anywhere in the window (the largest listed count not above it), and free spins are played on the
feature strips with their multiplier and retriggers.
"""
import itertools

import pytest

import rngcore
from harness.slot import parse_model
from harness.slot.spin import Player

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

STRIPS = {"base": ["SEVEN BELL STAR BLANK BELL SEVEN", "BELL SEVEN BLANK STAR SEVEN",
                   "SEVEN STAR BELL BLANK BELL SEVEN BLANK"],
          "feature": ["SEVEN STAR BELL BLANK SEVEN BLANK BELL BLANK", "BELL SEVEN BLANK STAR SEVEN BLANK BLANK BELL",
                      "BELL BLANK SEVEN BLANK SEVEN"]}
PAYLINES = [[1, 1, 1], [2, 2, 2], [1, 2, 1]]  # rows 1-based, reel 1 first
PAYS = {"SEVEN": {2: 3, 3: 10}, "BELL": {3: 4}}
SCATTER_PAYS, SPINS, MULTIPLIER, PER_LINE = {2: 1, 3: 5}, {2: 2, 3: 3}, 2, 2

MODEL = f"""
name = "Spin check"
[window]
rows = 2
reels = 3
[bet]
per_line = {PER_LINE}
paylines = {PAYLINES}
[symbols.SEVEN]
pays = {{ 2 = 3, 3 = 10 }}
[symbols.BELL]
pays = {{ 3 = 4 }}
[symbols.BLANK]
[symbols.STAR]
kind = "scatter"
pays = {{ 2 = 1, 3 = 5 }}
[free_spins]
spins = {{ 2 = 2, 3 = 3 }}
retrigger = true
multiplier = {MULTIPLIER}
[reels]
base = {STRIPS["base"]!r}
feature = {STRIPS["feature"]!r}
""".replace("'", '"')


def _listed(table, count):
    return max((v for k, v in table.items() if k <= count), default=0)


def reference_spin(strips, stops):
    """(win before any multiplier, free spins awarded) of one spin, read off the strips."""
    reels = [s.split() for s in strips]
    window = [[reel[(stop + row) % len(reel)] for row in range(2)] for reel, stop in zip(reels, stops)]
    total_bet = PER_LINE * len(PAYLINES)
    win = 0
    for line in PAYLINES:
        shown = [window[r][row - 1] for r, row in enumerate(line)]
        run = next((n for n in range(len(shown), 0, -1) if all(x == shown[0] for x in shown[:n])), 0)
        win += PAYS.get(shown[0], {}).get(run, 0) * PER_LINE
    stars = sum(column.count("STAR") for column in window)
    return win + _listed(SCATTER_PAYS, stars) * total_bet, _listed(SPINS, stars)


def reference_play(stops):
    win, owed = reference_spin(STRIPS["base"], stops[0])
    used = 1
    while owed:
        free, more = reference_spin(STRIPS["feature"], stops[used])
        win, owed, used = win + MULTIPLIER * free, owed - 1 + more, used + 1
    return win, used


def free_stops():
    """An endless supply of feature-strip stops, in a fixed order: the first and the fourth show two
    STARs (a retrigger)."""
    return itertools.cycle([(1, 3, 0), (0, 0, 0), (4, 5, 2), (1, 2, 4), (3, 1, 3)])


@pytest.fixture(scope="module")
def model():
    return Player(parse_model(MODEL))


def spin(player, generator):
    return player.spin(generator)


def evaluate(player, stops, bonus=()):
    return player.evaluate(stops, bonus)


def test_every_base_stop_combination_awards_what_the_strips_say(model):
    plays, triggered, retriggered = 0, 0, 0
    lengths = [len(s.split()) for s in STRIPS["base"]]
    for base in itertools.product(*(range(n) for n in lengths)):
        supply = free_stops()
        win, used = reference_play([list(base)] + [list(next(supply)) for _ in range(64)])
        supply = free_stops()
        extra = [list(next(supply)) for _ in range(used - 1)]  # the free spins the reference played
        play = evaluate(model, [list(base)] + extra)
        assert (play.award, len(play.spins)) == (win, used), base
        assert play.stake == PER_LINE * len(PAYLINES) and play.capped == 0
        plays, triggered, retriggered = plays + 1, triggered + (used > 1), retriggered + (used > 4)
    assert plays == 6 * 5 * 7 and triggered > 10 and retriggered


def test_a_drawn_play_is_its_stops_evaluated(model):
    g = rngcore.Generator(SEED, stream=4)
    for _ in range(300):
        play = spin(model, g)
        assert reference_play(play.stops)[0] == play.award
        assert evaluate(model, play.stops) == play


def test_recorded_stops_that_are_not_one_play_are_refused(model):
    g = rngcore.Generator(SEED, stream=4)
    play = next(p for p in iter(lambda: spin(model, g), None) if len(p.spins) > 1)
    with pytest.raises(ValueError, match="owes free spin"):
        evaluate(model, play.stops[:-1])
    with pytest.raises(ValueError, match="are recorded"):
        evaluate(model, play.stops + [[0, 0, 0]])
    with pytest.raises(ValueError, match="virtual stops"):
        evaluate(model, [[6, 0, 0]])
    with pytest.raises(ValueError, match="not a play's stops"):
        evaluate(model, [])


BONUS_MODEL = """
name = "Bonus check"
[window]
rows = 1
reels = 3
[bet]
per_line = 5
paylines = [[1, 1, 1]]
[symbols.BAR]
pays = { 3 = 20 }
[symbols.BLANK]
[symbols.GEM]
kind = "scatter"
pays = { 2 = 1 }
[bonus]
kind = "pick"
symbol = "GEM"
trigger = 2
picks = 3
items = [ { value = 1 }, { value = 2, weight = 2 }, { value = 0, end = true }, { value = 5 } ]
[reels]
base = ["BAR GEM BLANK BLANK", "GEM BAR BLANK", "BLANK GEM BAR BLANK BLANK"]
"""
ITEMS = [(1, 1, False), (2, 2, False), (0, 1, True), (5, 1, False)]  # value, weight, ends the bonus


def reference_draws(supply):
    """(draws, value won) of a pick bonus fed ``supply``: each draw indexes the board's remaining items,
    each listed weight times (a supply value is taken modulo the board, so it is a valid draw)."""
    board, draws, won = [i for i, (_, w, _) in enumerate(ITEMS) for _ in range(w)], [], 0
    for r in supply:
        if len(draws) == 3 or not board:
            break
        draws.append(r % len(board))
        item = board[draws[-1]]
        won += ITEMS[item][0]
        board = [i for i in board if i != item]
        if ITEMS[item][2]:
            break
    return draws, won


def test_a_pick_bonus_pays_the_items_its_draws_fall_in():
    model = Player(parse_model(BONUS_MODEL))
    strips = ["BAR GEM BLANK BLANK", "GEM BAR BLANK", "BLANK GEM BAR BLANK BLANK"]
    total_bet, bonused, ended_early = 5, 0, 0
    for stops in itertools.product(*(range(len(s.split())) for s in strips)):
        shown = [s.split()[p] for s, p in zip(strips, stops)]
        base = (20 * 5 if shown == ["BAR"] * 3 else 0) + (total_bet if shown.count("GEM") >= 2 else 0)
        if shown.count("GEM") < 2:
            play = evaluate(model, [list(stops)])
            assert play.award == base and play.bonus == ()
            continue
        for supply in ([0, 0, 0], [4, 1, 0], [2, 3, 1], [3, 0, 2], [1, 2, 1]):
            draws, won = reference_draws(supply)
            play = evaluate(model, [list(stops)], draws)
            assert play.bonus == tuple(draws) and play.award == base + won * total_bet, (stops, draws)
            bonused, ended_early = bonused + 1, ended_early + (len(draws) < 3)
    assert bonused > 10 and ended_early
    with pytest.raises(ValueError, match="owes a draw"):
        evaluate(model, [[1, 0, 1]], [])
    with pytest.raises(ValueError, match="owes a draw below 5"):
        evaluate(model, [[1, 0, 1]], [5])
    with pytest.raises(ValueError, match="are recorded"):
        evaluate(model, [[0, 1, 2]], [0])  # no bonus started, one draw recorded


def test_a_drawn_bonus_play_is_its_draws_evaluated():
    model = Player(parse_model(BONUS_MODEL))
    g = rngcore.Generator(SEED, stream=8)
    plays = [spin(model, g) for _ in range(300)]
    assert sum(1 for p in plays if p.bonus) > 20
    for play in plays:
        assert evaluate(model, play.stops, play.bonus) == play
        if play.bonus:
            assert reference_draws(list(play.bonus))[0] == list(play.bonus)  # each draw was in range


@pytest.mark.parametrize("name", ["slot_two_scatters", "slot_ways243", "slot_weighted"])
def test_the_kernel_simulates_the_plays_a_round_plays_from_the_same_draws(name):
    """The C kernel (--simulate's fast path) draws each play's stops as a round's play does, so from
    one stream its totals are the round plays' totals: the play is the reference the kernel is held to."""
    from harness.slot import load_model
    from harness.slot.simulate import simulate

    model = load_model(f"examples/{name}.toml")
    player, g = Player(model), rngcore.Generator(SEED, stream=6)
    plays = [player.spin(g) for _ in range(1500)]
    got = simulate(model, 1500, rngcore.Generator(SEED, stream=6))
    wins = [p.award for p in plays]
    assert (got.plays, got.hits, got.line_win, got.scatter_win, got.feature_win, got.free_spins, got.win_sq) == (
        1500, sum(1 for p in plays if p.award or len(p.spins) > 1), sum(p.line_win for p in plays), sum(p.scatter_win for p in plays),
        sum(p.feature_win for p in plays), sum(len(p.spins) - 1 for p in plays), sum(w * w for w in wins))
    assert got.features == sum(1 for p in plays if len(p.spins) > 1)
    assert got.features or model.free_spins is None
