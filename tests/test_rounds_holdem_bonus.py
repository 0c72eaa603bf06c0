"""Texas Hold'em Bonus rounds (harness/rounds/engines/holdem_bonus.py, 000 別表第1 第3 6): the seed's mode B,
hand-made deals settled as 6-4 .. 8-ニ say, the simple strategy's rules, scripted decisions, seeded rounds
settled by the independent evaluator (tests/poker_reference.py), and stops at every state finished by the
fault rule (6-13: void before the dealer's hand is turned up, 7-イ; settle after)."""
import functools
import itertools
import json
import re

import numpy as np
import pytest

import rngcore
from harness.games import holdem_bonus as thb
from harness.games import poker_hands as ph
from harness.games.registry import GAMES
from harness.rounds import Bet, Round, RoundError
from harness.rounds.engine import ROUND_ENGINES
from harness.rounds.engines import holdem_bonus as rounds
from harness.rounds.table import rules_for
from tests import poker_reference as pr
from tests.rounds_support import SEED
from tests.test_rounds_twentyone import STOPS, recovered_after_stop

GAME = "texas-holdem-bonus"
ANTE, BONUS = Bet("ann", "ante", 100), Bet("ann", "bonus", 10)
#: 8-ハ (1)..(7) and 8-ニ, typed from the seed (L1407-1425): the Bonus odds by the customer's two cards.
BONUS_ODDS = {"aces": 30, "ace_king_suited": 25, "ace_queen_or_jack_suited": 20, "ace_king": 15,
              "kings_queens_or_jacks": 10, "ace_queen_or_jack": 5, "two_to_ten_pair": 3}


def deal(text: str) -> list[int]:
    """A round's 12 cards from the customer's 2, the dealer's 2 and the board's 5 (burn cards filled in)."""
    hole, dealer, board = text.split("|")
    known = ph.parse(hole) + ph.parse(dealer) + ph.parse(board)
    burns = [c for c in range(52) if c not in known][:3]
    b = ph.parse(board)
    return ph.parse(hole) + ph.parse(dealer) + [burns[0], *b[:3], burns[1], b[3], burns[2], b[4]]


def played(codes, actions=None, bets=(ANTE, BONUS), **options) -> Round:
    r = Round(GAME, 1, options=options, actions=actions)
    for bet in bets:
        r.place(bet)
    r.close()
    r.drawn(ROUND_ENGINES[GAME].deal("standard", codes, actions=actions, **r.options), None)
    r.determine()
    r.settle()
    return r


def settled(r) -> list[tuple]:
    return [(e["bet"], e["stake"], e["returned"], e["collected"], e["paid"]) for e in r.events
            if e["kind"] == "settlement"]


def test_the_rounds_declare_the_seeds_mode_b():
    rules = rules_for(GAME)
    e = rules.etable
    assert GAMES[GAME].etable is e  # the game module's declaration
    assert e.permitted == ("ante", "bonus", "progressive") and "6-12" in e.clause and "L1493" in e.permitted_source
    assert e.fault_clause.startswith("000 別表第1 第3 6-13") and "7-イ" in e.determined_after
    assert "6-8-イ" in e.truncation  # 1円未満の端数 ... 切り捨てる (L1401)
    for extra in ("flop", "turn", "river"):  # additional stakes only, never placed at the betting
        with pytest.raises(RoundError, match="not permitted in an electronic table game .*6-12"):
            Round(rules).place(Bet("ann", extra, 100))
    r = Round(rules)
    r.place(BONUS)
    with pytest.raises(RoundError, match="only for a customer with an ante .*6-2-ロ"):
        r.close()
    r2 = Round(rules)
    r2.place(ANTE)
    with pytest.raises(RoundError, match="one customer position"):
        r2.place(Bet("bob", "bonus", 10))


@pytest.mark.parametrize("cards,actions,options,expected", [
    # a straight beats two pair: the flop, turn and river bets 1 to 1 and, under 8-ロ-(1), the ante too
    ("9S 10D|KC KD|JH QC 8S 2D 2C", ["play", "bet", "bet"], {},
     [("ante", 100, 100, 0, 100), ("bonus", 10, 0, 10, 0), ("flop", 200, 200, 0, 200), ("turn", 100, 100, 0, 100),
      ("river", 100, 100, 0, 100)]),
    # the same straight under 8-ロ-(2) (flush or better): the ante is returned, the bets still paid
    ("9S 10D|KC KD|JH QC 8S 2D 2C", ["play", "check", "bet"], {"ante-pays": "flush"},
     [("ante", 100, 100, 0, 0), ("bonus", 10, 0, 10, 0), ("flop", 200, 200, 0, 200), ("river", 100, 100, 0, 100)]),
    # the board plays for both: a tie returns every stake (7-ハ-(1)); A-K suited wins the Bonus 25 to 1
    ("AS KS|AD KD|2C 2H 2D 2S 3C", ["play", "check", "check"], {},
     [("ante", 100, 100, 0, 0), ("bonus", 10, 10, 0, 250), ("flop", 200, 200, 0, 0)]),
    # weaker: the ante and every bet collected (8-イ); a pair of 2s to 10s wins the Bonus 3 to 1
    ("5S 5D|9C 9H|2C 7H JD QS KC", ["play", "bet", "check"], {},
     [("ante", 100, 0, 100, 0), ("bonus", 10, 10, 0, 30), ("flop", 200, 0, 200, 0), ("turn", 100, 0, 100, 0)]),
    # a fold collects the ante only, the Bonus is decided on the two cards all the same (6-4-イ-(1), 7-ハ-(2))
    ("AS AD|AC AH|2C 7H JD QS KC", ["fold"], {},
     [("ante", 100, 0, 100, 0), ("bonus", 10, 10, 0, 300)]),
    # both pairs of aces: 1,000 to 1 when the operator takes 8-ニ
    ("AS AD|AC AH|2C 7H JD QS KC", ["fold"], {"aces-1000": "yes"},
     [("ante", 100, 0, 100, 0), ("bonus", 10, 10, 0, 10000)]),
])
def test_hand_made_deals_settle_by_the_seeds_tables(cards, actions, options, expected):
    r = played(deal(cards), actions, **options)
    assert settled(r) == expected
    kinds = [e["kind"] for e in r.events]
    assert kinds.index("outcome") > max(i for i, k in enumerate(kinds) if k in ("decision", "stake"))
    made = [e for e in r.events if e["kind"] == "decision"]
    assert [d["decision"] for d in made] == actions and {d["strategy"] for d in made} == {"script"}


@pytest.mark.parametrize("hole,board,known,bets", [
    ("2C 7D", "2S 8H 9D", 5, True),        # a pair with a pocket card
    ("AC KD", "8S 8H 2D", 5, False),       # the board's own pair
    ("6C 7D", "8S 9H 2D", 5, True),        # four consecutive ranks
    ("AC 2D", "3S 4H 9D", 5, True),        # ... the ace low
    ("AC JD", "QS KH 5D", 5, True),        # ... the ace high
    ("6C 7D", "8S 10H 2D", 5, False),      # a gap
    ("2H 9H", "JH QH 5D", 5, True),        # four of a suit
    ("2H 9D", "JH QH 5D", 5, False),       # three of a suit
    ("5C 5D", "2S 9H JD KC", 6, False),    # a pair of 5s at the river decision
    ("6C 6D", "2S 9H JD KC", 6, True),     # a pair of 6s
    ("AC 2D", "AS 9H JD KC", 6, True),     # a pair of aces (aces high)
    ("3C 3D", "8S 8H JD KC", 6, True),     # two pair with the pocket pair
    ("AC KD", "8S 8H 5D 5C", 6, False),    # the board's two pair
    ("4C 2D", "4S 8H JD KC", 6, False),    # a pair of 4s
    ("4C 2D", "4S 4H JD KC", 6, True),     # three 4s with a pocket card
    ("5H 6H", "7H 8H 2D KC", 6, True),     # four consecutive cards of one suit
    ("5H 6H", "8H 9H 2D KC", 6, False),    # four of one suit, not consecutive
    ("2C 3D", "5H 6H 7H 8H", 6, False),    # four consecutive of one suit on the board alone
    ("5C 6D", "7H 8S 9D KC", 6, True),     # a straight
    ("2H 9H", "JH QH 5H 3C", 6, True),     # a flush
])
def test_the_simple_strategy_reads_the_published_turn_and_river_rules(hole, board, known, bets):
    codes = deal(f"{hole}|KS QD|{board}{' AH' * (5 - len(board.split()))}")
    assert rounds.simple_bets(codes, known)[0] is bets


def test_the_simple_flop_bet_folds_the_games_exact_fold_set():
    for name in ("straight", "flush"):
        folded = {thb.hand_name(a, b) for a, b in itertools.combinations(range(52), 2)
                  if not rounds.simple_bets([a, b] + [0] * 10, 2, name)[0]}
        assert folded == set(thb.FOLDS[name])
    assert set(thb.FOLDS["straight"]) == {"32o", "42o", "52o", "62o", "72o"}  # "fold only 2-3 thru 2-7 off-suit"


def reference_nets(codes, taken, ante_pays="straight") -> dict:
    """Each stake's net per unit, by the independent evaluator and 8-イ .. 8-ハ typed from the seed."""
    hole, dealer, board = codes[:2], codes[2:4], [codes[k] for k in (5, 6, 7, 9, 11)]
    out = {}
    pair = pr.rank_value(hole[0]) == pr.rank_value(hole[1])
    values = sorted((pr.rank_value(c) for c in hole), reverse=True)
    suited = pr.suit(hole[0]) == pr.suit(hole[1])
    if pair:
        bonus = "aces" if values[0] == 14 else "kings_queens_or_jacks" if values[0] >= 11 else "two_to_ten_pair"
    elif values == [14, 13]:
        bonus = "ace_king_suited" if suited else "ace_king"
    elif values[0] == 14 and values[1] in (11, 12):
        bonus = "ace_queen_or_jack_suited" if suited else "ace_queen_or_jack"
    else:
        bonus = None
    out["bonus"] = BONUS_ODDS[bonus] if bonus else -1
    if taken[0] == "fold":
        out["ante"] = -1
        return out
    mine, theirs = pr.best_key(hole + board), pr.best_key(dealer + board)
    result = 1 if mine > theirs else 0 if mine == theirs else -1
    lowest = 5 if ante_pays == "straight" else 6  # poker_reference: straight 5, flush 6
    out["ante"] = (1 if mine[0] >= lowest else 0) if result == 1 else result
    for stake, word in zip(("flop", "turn", "river"), taken):
        if word in ("play", "bet"):
            out[stake] = result
    return out


def test_seeded_rounds_settle_by_the_reference_and_journal_their_decisions():
    g = rngcore.Generator(SEED, stream=21)
    seen = set()
    for n in range(200):
        r = Round(GAME, n + 1)
        r.place(ANTE)
        r.place(BONUS)
        r.close()
        r.generate(g)
        r.determine()
        r.settle()
        record = r.outcome.record
        made = [e for e in r.events if e["kind"] == "decision"]
        assert [d["decision"] for d in made] == record["actions"]
        for d, (what, known, *_rest) in zip(made, rounds.POINTS):
            assert d["at"] == what and d["strategy"] == "simple"
            assert (d["decision"] in ("play", "bet")) is rounds.simple_bets(record["cards"], known)[0]
        nets = reference_nets(record["cards"], record["actions"])
        assert [e["bet"] for e in r.events if e["kind"] == "settlement"] == [
            b for b in ("ante", "bonus", "flop", "turn", "river") if b in nets]
        for e in (e for e in r.events if e["kind"] == "settlement"):
            net, s = nets[e["bet"]], e["stake"]
            assert (e["returned"], e["collected"], e["paid"]) == ((s, 0, s * net) if net >= 0 else (0, s, 0)), \
                (e["bet"], r.outcome.shown)
        seen.add(r.outcome.features["outcome"])
        t = r.totals()
        assert t["staked"] == t["returned"] + t["collected"]
    assert seen >= {"fold", "win_ante_paid", "win_ante_push", "lose"}


def test_a_journaled_round_is_re_derived_from_its_cards_and_decisions():
    r = played(deal("9S 10D|KC KD|JH QC 8S 2D 2C"), ["play"])
    again = ROUND_ENGINES[GAME].round_dealt("standard", r.outcome.record, **r.options)
    assert (again.features, again.shown, again.record) == (r.outcome.features, r.outcome.shown, r.outcome.record)
    assert [d["decision"] for d in again.decisions] == r.outcome.record["actions"] == ["play", "bet", "bet"]
    for bad in ({"cards": r.outcome.record["cards"]}, {**r.outcome.record, "actions": ["play", "bet"]},
                {**r.outcome.record, "actions": ["fold", "bet"]}):
        with pytest.raises(ValueError, match="texas-holdem-bonus"):
            ROUND_ENGINES[GAME].round_dealt("standard", bad)


@pytest.mark.parametrize("actions,words", [
    ([["play", "raise"]], "action 2 .*must be bet or check, got 'raise'"),
    ([["fold", "bet"]], "action 1 folds .*1 more"),
    ([["play", "bet", "bet", "bet"]], "3 decision points, the bet script gives 4"),
    ([["play"], ["check"]], "round 2: .*action 1 .*must be play or fold"),
])
def test_a_bet_script_with_impossible_actions_is_refused_with_its_place(tmp_path, actions, words):
    from click.testing import CliRunner

    from harness.cli import main

    script = tmp_path / "bets.json"
    script.write_text(json.dumps({"bets": [{"customer": "ann", "bet": "ante", "stake": 100}], "actions": actions}))
    result = CliRunner().invoke(main, ["play", GAME, "--journal", str(tmp_path / "j.sqlite"), "--bets", str(script),
                                       "--seed", SEED])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "bets.json: 'actions': " in result.output and re.search(words, result.output), result.output


@pytest.mark.parametrize("state", STOPS)
def test_a_round_stopped_at_each_state_is_finished_by_the_rule(tmp_path, state):
    """Every state of a round that made the flop bet (an additional stake) and the Bonus: before 7-イ the
    round is void, every stake returned, the flop bet too; after it, settled on what was dealt."""
    from harness.rounds.journal import Journal

    path = tmp_path / f"{state}.sqlite"
    with Journal(path) as j:
        r = Round(rules_for(GAME), 1, sink=j.append, actions=["play"])
        r.place(ANTE)
        r.place(BONUS)
        steps = {"BETTING_CLOSED": r.close, "OUTCOME_GENERATION": lambda: r.generate(rngcore.Generator(SEED, stream=2)),
                 "OUTCOME_DETERMINED": r.determine, "SETTLEMENT": r.start_settlement}
        for name, step in steps.items():
            if STOPS.index(name) > STOPS.index(state):
                break
            step()
    events, moves = recovered_after_stop(path, state)
    if state in ("OUTCOME_DETERMINED", "SETTLEMENT"):
        record = next(e for e in events if e["kind"] == "outcome")["record"]
        nets = reference_nets(record["cards"], record["actions"])
        assert [(m["bet"], m["returned"] + m["paid"] - m["stake"]) for m in moves] == \
            [(m["bet"], nets[m["bet"]] * m["stake"] if nets[m["bet"]] >= 0 else -m["stake"]) for m in moves]


def test_the_optimal_tables_are_counted_before_any_round_opens(monkeypatch):
    """strategy=optimal: the session's options are checked (the engine prepared) before round 1 opens, and
    that is when the tables are counted; the rounds' deals (OUTCOME_GENERATION) only look them up.  Stand-ins
    for the minute of counting note when each set of tables is counted (journaled events so far)."""
    events, counted = [], []

    @functools.lru_cache(maxsize=None)
    def plays(ante_pays="straight", deck=thb.DECK):  # the real one: cached, counted once per process
        counted.append((ante_pays, len(events)))
        return ante_pays

    def decide(cards, ante_pays="straight"):  # the real one reads plays(ante_pays) for every round
        assert plays(ante_pays) == ante_pays
        return tuple(np.ones(len(cards), dtype=bool) for _ in range(3))

    monkeypatch.setattr(thb, "plays", plays)
    monkeypatch.setattr(thb, "decide", decide)
    rules, opened = rules_for(GAME), []
    for ante_pays in ("straight", "flush"):
        opened.append(len(events))
        options = rules.check_options({"strategy": "optimal", "ante-pays": ante_pays})  # the session set up
        g = rngcore.Generator(SEED, stream=23)
        for n in range(3):
            r = Round(rules, n + 1, sink=events.append, options=options)
            r.place(ANTE)
            r.close()
            r.generate(g)
            r.determine()
            r.settle()
            assert [d["strategy"] for d in r.events if d["kind"] == "decision"] == ["optimal"] * 3
    assert counted == [("straight", 0), ("flush", opened[1])] and opened[1] > 0  # each before its round 1 opened
    simple = rules.check_options({})  # the default strategy counts nothing
    assert simple == {} and len(counted) == 2


@pytest.mark.slow
def test_optimal_rounds_bet_the_river_by_brute_force():
    """strategy=optimal (the exact tables, about a minute): the river bet is made exactly when, with the turn
    in view, it wins at least as often as it loses over every river and dealer's two cards (the
    independent evaluator), and the flop bet exactly outside the exact fold set.  The tables are counted
    when the options are checked, before round 1 opens: no round's deal counts anything."""
    thb.tables.cache_clear()
    thb.plays.cache_clear()
    rules = rules_for(GAME)
    options = rules.check_options({"strategy": "optimal"})
    assert thb.tables.cache_info().currsize == 1 and thb.plays.cache_info().currsize == 1
    work = thb.tables.cache_info().misses, thb.plays.cache_info().misses
    g = rngcore.Generator(SEED, stream=22)
    checked = 0
    for n in range(8):
        r = Round(rules, n + 1, options=options)
        r.place(ANTE)
        r.close()
        r.generate(g)
        r.determine()
        r.settle()
        codes, taken = r.outcome.record["cards"], r.outcome.record["actions"]
        assert (taken[0] == "fold") == (thb.hand_name(*codes[:2]) in thb.FOLDS["straight"])
        if taken[0] == "fold":
            continue
        hole, board = codes[:2], [codes[k] for k in (5, 6, 7, 9)]
        rest = [c for c in range(52) if c not in hole + board]
        wins = losses = 0
        for river in rest:
            mine = pr.best_key(hole + board + [river])
            for dealer in itertools.combinations([c for c in rest if c != river], 2):
                theirs = pr.best_key(list(dealer) + board + [river])
                wins, losses = wins + (mine > theirs), losses + (mine < theirs)
        assert (taken[2] == "bet") == (wins >= losses), r.outcome.shown
        checked += 1
    assert checked >= 5
    assert (thb.tables.cache_info().misses, thb.plays.cache_info().misses) == work  # the deals counted nothing
