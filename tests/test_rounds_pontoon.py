"""Pontoon rounds (harness/rounds/engines/twentyone_pontoon.py): the settlement of every stake against the
game's own Pontoon round (tests/pontoon_reference.py, written from the seed, 000 別表第1 第2 3), the bonus
hands on dealt records, replay, and stops at every state recovered by the rule (3-15).
"""
import random
import signal
from fractions import Fraction as F

import pytest

import rngcore
from harness.games import twentyone as tw
from harness.rounds import Bet, Round, RoundError, State, recall
from harness.rounds.engines import twentyone as engine
from harness.rounds.engines import twentyone_pontoon as pontoon_rounds
from harness.rounds.journal import Journal
from harness.rounds.table import rules_for
from rngcore.devices.cards import encode
from tests import pontoon_reference as ref
from tests.test_rounds_twentyone import STOPS, recovered_after_stop, stopped_at

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
MAIN = 100
BETS = {"pontoon": [Bet("ann", "main", MAIN)]}
CODES = {name: code for code, name in tw.ACTION_NAMES.items()}


def codes_of(labels) -> list[int]:
    """``["7S", "7S"]`` -> card codes, a repeated card from the next deck (J, Q, K as 11..13; a Pontoon deck
    has no 10s)."""
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13}
    out = []
    for label in labels:
        rank, suit = label[:-1], "SHDC".index(label[-1])
        out.append(encode(ranks.get(rank) or int(rank), suit, labels[:len(out)].count(label)))
    return out


def choosing(rnd):
    """A Decider.choose that picks at random among the actions allowed (every decision the rules offer)."""
    real = engine.Decider.choose

    def choose(self, where, allowed, basic):
        self.strategy, self.actions = "script", list(self.taken) + [rnd.choice(sorted(allowed))]
        return real(self, where, allowed, basic)

    return choose


@pytest.fixture
def random_choices(monkeypatch):
    monkeypatch.setattr(engine.Decider, "choose", choosing(random.Random(3)))
    monkeypatch.setattr(engine.Decider, "done", lambda self: None)


def play(rules, generator, options=None, actions=None, sink=None, round_id=1) -> Round:
    r = Round(rules, round_id, sink=sink, options=options, actions=actions)
    r.place(Bet("ann", "main", MAIN))
    r.close()
    r.generate(generator)
    r.determine()
    r.settle()
    return r


def reference_net(game_rules, record, decisions):
    """The round's net per initial unit by tests/pontoon_reference.py: the journaled cards dealt in order,
    the journaled decisions (insurance apart: the reference plays the main bet) as its strategy."""
    deck = iter(record["cards"])
    words = iter(d["decision"] for d in decisions if not d["at"].startswith("insurance"))

    def strategy(hand, up, ctx, allowed):
        if allowed == (tw.STAND,):
            return tw.STAND  # no choice: the engine records no decision
        act = CODES[next(words)]
        assert act in allowed, (act, allowed)
        return act

    net = ref.play(game_rules, lambda: next(deck), strategy)
    assert next(words, None) is None, "the reference took every decision of the round"
    return net


def nets(r):
    """(net of the hand stakes per unit of main, insurance's net in yen) from the settlement records."""
    moves = [e for e in r.events if e["kind"] == "settlement"]
    hand = sum(e["paid"] - e["collected"] for e in moves if not e["bet"].startswith("insurance"))
    insurance = sum(e["paid"] - e["collected"] for e in moves if e["bet"].startswith("insurance"))
    return F(hand, MAIN), insurance


@pytest.mark.parametrize("options", [{}, {"double-cards": "any"}, {"das": "no", "max-hands": 2}])
def test_every_stake_settles_as_the_games_reference_round(options, random_choices):
    rules = rules_for("pontoon")
    checked = rules.check_options(options)
    game_rules = rules.engine.rules_of(checked)[0]
    g = rngcore.Generator(SEED, stream=7)
    seen = set()
    for n in range(300):
        r = play(rules, g, checked, round_id=n)
        decisions = [e for e in r.events if e["kind"] == "decision"]
        hand, insurance = nets(r)
        assert hand == reference_net(game_rules, r.outcome.record, decisions), r.outcome.shown
        if any(e["bet"] == "insurance" for e in r.events if e["kind"] == "stake"):  # 3-6: 2 to 1 on a ten
            dealer_pontoon = r.outcome.shown.endswith("(pontoon)")
            assert insurance == (MAIN if dealer_pontoon else -MAIN // 2)
        t = r.totals()
        assert t["staked"] == t["returned"] + t["collected"]
        seen.update(e["result"] for e in r.events if e["kind"] == "settlement")
        seen.update(d["decision"] for d in decisions)
        # a double of a hand of three or more cards ("hand 1 2S 3D 4C, hard 9 against 9H")
        seen.update("double3" for d in decisions if d["decision"] == "double" and len(d["at"].split(",")[0]) > 14)
    assert {"pontoon", "rescue", "withdrawn", "surrender", "bust", "win", "lose", "push", "split", "double",
            "hit", "stand", "insure", "no-insurance"} <= seen
    assert ("double3" in seen) == (options.get("double-cards") == "any")  # 3-7-ト-(2)-(一)


# (cards in the order dealt, actions, options) -> the class of each stake; the reference gives the money
DEALT = {
    "6-7-8 all spades pays 3 to 1": (["6S", "9H", "7S", "8S", "8D"], ["hit"], {}, {"main": "678_spades"}),
    "6-7-8 one suit, not spades, 2 to 1": (["6H", "9S", "7H", "8H", "8D"], ["hit"], {}, {"main": "678_suited"}),
    "6-7-8 mixed 3 to 2": (["8H", "9S", "7H", "6D", "8D"], ["hit"], {}, {"main": "678"}),
    "7-7-7 mixed 3 to 2": (["7H", "9S", "7D", "7H", "8D"], ["hit"], {}, {"main": "777"}),
    "a five-card 21": (["2S", "9H", "3D", "8D", "4S", "4H", "2C", "8C"], ["hit", "hit", "hit"], {},
                       {"main": "five_card_21"}),
    "a six-card 21": (["2S", "9H", "3D", "4C", "5S", "AH", "6D", "8C"], ["hit"] * 4, {},
                      {"main": "six_card_21"}),
    "a player 21 beats a dealer pontoon": (["9S", "AH", "5D", "7C", "KD"], ["no-insurance", "hit"], {},
                                           {"main": "win"}),
    "a pontoon beats a dealer pontoon": (["AS", "AH", "QD", "KD"], ["no-insurance"], {}, {"main": "pontoon"}),
    "a doubled hand counts its ace 1": (["AS", "8H", "5D", "5C", "9D"], ["double", "stand"], {},
                                        {"main": "lose", "double_1": "lose"}),  # hard 11 against 17
    "a doubled 21 pays 1 to 1 on both stakes": (["5S", "8H", "6D", "KC", "9D"], ["double"], {},
                                                {"main": "win", "double_1": "win"}),
    "a rescue collects the original stake": (["5S", "8H", "6D", "2C", "9D"], ["double", "rescue"], {},
                                             {"main": "rescue", "double_1": "withdrawn"}),
    "a surrender loses half": (["9S", "KH", "7D", "7C"], ["surrender"], {}, {"main": "surrender"}),
    "every hand busted: the dealer takes no second card (2-9-ハ)": (["KS", "2H", "2D", "QC"], ["hit"], {},
                                                                     {"main": "bust"}),
    "a surrender loses all to a dealer pontoon": (["9S", "AH", "7D", "KC"], ["no-insurance", "surrender"], {},
                                                  {"main": "surrender_pontoon"}),
    "a dealer pontoon takes one original stake of the standing hands":
        (["8S", "KH", "8D", "2C", "3C", "5H", "AD"], ["split", "double", "stand", "stand"], {},
         {"main": "lose", "double_1": "returned", "split_2": "returned"}),
    "a split hand's two-card 21 is no pontoon": (["KS", "9H", "QD", "AC", "7C", "8D"], ["split", "stand"], {},
                                                  {"main": "win", "split_2": "push"}),
    "a three-card double": (["2S", "9H", "3D", "4C", "9C", "8D"], ["hit", "double", "stand"], {"double-cards": "any"},
                            {"main": "win", "double_1": "win"}),
}


@pytest.mark.parametrize("name", DEALT)
def test_dealt_rounds_settle_by_the_bonus_table_and_the_reference(name):
    labels, actions, options, expected = DEALT[name]
    rules = rules_for("pontoon")
    checked = rules.check_options(options)
    record = {"cards": codes_of(labels), "actions": actions}
    dealt = rules.engine.round_dealt("standard", record, **checked)
    classes = {k: v for k, v in dealt.features.items() if v is not None}
    assert classes == expected, dealt.shown
    money = F(sum(rules.settle(rules.bets[k], MAIN, dealt.features)[1].paid -
                  rules.settle(rules.bets[k], MAIN, dealt.features)[1].collected for k in expected), MAIN)
    decisions = [dict(d) for d in dealt.decisions]
    assert money == reference_net(rules.engine.rules_of(checked)[0], record, decisions), dealt.shown


def test_the_bonus_classes_follow_the_games_pay_table():
    rules = rules_for("pontoon")
    main = rules.bets["main"]
    pays = {row.label: row.pays for row in main.rows}
    game = rules.engine.rules_of({})[0]
    for hand in (["6S", "7S", "8S"], ["7D", "7D", "7D"], ["6H", "7D", "8C"], ["2S", "3S", "4S", "5S", "7S"],
                 ["AS", "2S", "3S", "4S", "5S", "6S"], ["AS", "AH", "AD", "2S", "3S", "4S", "9S"], ["9S", "5S", "7D"]):
        codes = codes_of(hand)
        assert pays[pontoon_rounds.bonus_class(codes)] == ref.bonus_pays(game, ref.Hand(codes, False, False)), hand
    assert pays["pontoon"] == F(3, 2) and pays["surrender"] == F(-1, 2) and pays["surrender_pontoon"] == -1


def test_the_rules_of_a_pontoon_round():
    rules = rules_for("pontoon")
    assert rules.permitted == ("main",) and "3-14" in rules.etable.permitted_source
    assert rules.etable.truncation.endswith("3-10-イ (L935)")
    row = rules.engine.row
    # 3-15 (seed L991): 1-19-イ applied, its 「十」 read as 「3の8において準用する2の九」; digest §3
    assert "L991" in row.point and "「3の8において準用する2の九」" in row.point and "item 8" in row.point
    assert rules.etable.fault_clause == "000 別表第1 第2 3-15 (applying 1-19-イ)"
    assert "item 8" in rules.etable.determined_after
    r = Round(rules, 1)
    refused = [(Bet("ann", "insurance", 50), "not permitted in an electronic table game .*3-14"),
               (Bet("ann", "main", 15), "a stake of 15 on 'main' would settle in a fraction"),  # surrender's half
               (Bet("ann", "main", 100), None), (Bet("bob", "main", 100), "cannot join")]
    for bet, message in refused:
        if message is None:
            r.place(bet)
            continue
        with pytest.raises(RoundError, match=message):
            r.place(bet)


def scripted_session(rounds, stream):
    """(actions of each round, the rounds) of random-choice rounds: the actions a script would give."""
    rules = rules_for("pontoon")
    rnd = random.Random(stream)
    out = []
    g = rngcore.Generator(SEED, stream=stream)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(engine.Decider, "choose", choosing(rnd))
        m.setattr(engine.Decider, "done", lambda self: None)
        for n in range(rounds):
            out.append(play(rules, g, round_id=n + 1).outcome.record["actions"])
    return out


def test_scripted_rounds_replay_and_re_derive(tmp_path):
    actions = scripted_session(6, 4)
    rules = rules_for("pontoon")
    with Journal(tmp_path / "p.sqlite") as j:
        g = rngcore.Generator(SEED, stream=4)
        for n, acts in enumerate(actions):
            r = play(rules, g, actions=acts, sink=j.append, round_id=j.next_round_id())
            assert r.outcome.record["actions"] == acts
        for round_id in j.events():
            assert recall.replay(j, round_id, SEED).equal, round_id
        assert j.verify().ok
    bad = Round(rules, 1, actions=["split"] + actions[0])
    bad.place(Bet("ann", "main", MAIN))
    bad.close()
    with pytest.raises(RoundError, match=r"pontoon: action 1 \(.*\): 'split' is not allowed here"):
        bad.generate(rngcore.Generator(SEED, stream=4))
    assert bad.state is State.VOID and bad.totals()["returned"] == MAIN


# ------------------------------------------------------------------------ stops and recovery --

def added_stake_round():
    """(stream, actions) of a round that adds a stake (a double or a split)."""
    for stream in range(1, 60):
        actions = scripted_session(1, stream)[0]
        if "double" in actions or "split" in actions:
            return stream, actions
    raise AssertionError("no round with an additional stake")


@pytest.mark.parametrize("state", [s if s in ("OUTCOME_GENERATION", "OUTCOME_DETERMINED") else
                                   pytest.param(s, marks=pytest.mark.slow) for s in STOPS])
def test_a_round_stopped_at_each_state_is_finished_by_the_rule(tmp_path, state):
    rules = rules_for("pontoon")
    stream, actions = added_stake_round()
    path = tmp_path / "p.sqlite"
    stopped_at(rules, path, stream, state, bets=BETS["pontoon"], actions=actions)
    events, moves = recovered_after_stop(path, state)
    if state in ("OUTCOME_DETERMINED", "SETTLEMENT"):  # settled on what was dealt, as the reference reads it
        outcome = next(e for e in events if e["kind"] == "outcome")
        decisions = [e for e in events if e["kind"] == "decision"]
        net = F(sum(m["paid"] - m["collected"] for m in moves), MAIN)
        assert net == reference_net(rules.engine.rules_of({})[0], outcome["record"], decisions)


@pytest.mark.slow
@pytest.mark.parametrize("target", ["BETTING_OPEN", "BET", "BETTING_CLOSED", "OUTCOME_GENERATION",
                                    "OUTCOME_DETERMINED", "SETTLEMENT", "DONE"])
@pytest.mark.parametrize("how", ["after-commit", "before-commit", "exception"])
def test_sigkill_at_every_state_of_a_pontoon_round(tmp_path, monkeypatch, target, how):
    from tests import test_rounds_journal as tj

    monkeypatch.setitem(tj.BETS, "pontoon", BETS["pontoon"])
    path, done = tj.run_child(tmp_path, "pontoon", target, how)
    assert done.returncode in (-signal.SIGKILL, 1), done.stderr
    tj.check_recovered(path, "pontoon")


@pytest.mark.slow
def test_a_thousand_random_kill_points_of_pontoon_rounds(tmp_path):
    from tests.test_rounds_journal import random_power_losses

    random_power_losses(tmp_path, ["pontoon"], 1000, 23, bets=BETS)


@pytest.mark.slow
def test_basic_strategy_rounds_settle_as_the_reference_with_the_games_chart():
    from harness.games.twentyone_game import infinite

    rules = rules_for("pontoon")
    game_rules = rules.engine.rules_of({})[0]
    assert pontoon_rounds.pontoon_chart(game_rules).cells == infinite(game_rules)[1].cells
    g = rngcore.Generator(SEED, stream=8)
    for n in range(300):
        r = play(rules, g, round_id=n)
        decisions = [e for e in r.events if e["kind"] == "decision"]
        assert all(d["strategy"] == "basic" for d in decisions)
        assert nets(r)[0] == reference_net(game_rules, r.outcome.record, decisions), r.outcome.shown
