"""The poker progressive bet in rounds (harness/rounds/progressive.py; 000 別表第1 第3 4-2-ロ, 4-6-ハ, 5-8, 6-9):
offered by the three games whose mode B lists it, only with the bets the seed names, each award paid as its
item says (a multiple of the stake by the house, a share of the meter from the meter, the meter reset when
what is left falls below the reset amount), the meter funded by the progressive stakes of settled rounds
only, and stops at every state finished with the meter as an unbroken run leaves it."""
import os
import signal
import subprocess
import sys
from fractions import Fraction

import pytest

import rngcore
from harness.games import poker_hands as ph
from harness.rounds import Bet, Round, RoundError, recall
from harness.rounds import progressive as pg
from harness.rounds.engine import ROUND_ENGINES
from harness.rounds.journal import Journal
from harness.rounds.meters import MeterBank, bank_of, conservation
from harness.rounds.table import rules_for
from tests.rounds_support import SEED, play_metered

#: The awards typed from the seed (L1121-1127, L1315-1321, L1437-1451): a multiple of the stake, or a share.
AWARDS = {
    "caribbean-stud": {"royal_flush": Fraction(1), "straight_flush": Fraction(1, 10), "four_of_a_kind": 500,
                       "full_house": 100, "flush": 50},
    "three-card-poker": {"ace_king_queen_of_spades": Fraction(1), "ace_king_queen_suited": 250,
                         "straight_flush": 35, "three_of_a_kind": 30, "straight": 3},
    "texas-holdem-bonus": {"royal_flush_with_the_flop": Fraction(1), "royal_flush_with_the_turn": Fraction(1, 4),
                           "royal_flush_with_the_river": Fraction(1, 20), "straight_flush": 250,
                           "four_of_a_kind": 100, "full_house": 10},
}
MAIN = {"caribbean-stud": Bet("ann", "ante_bet", 30), "three-card-poker": Bet("ann", "ante_play", 20),
        "texas-holdem-bonus": Bet("ann", "ante", 10)}
STAKE = 100
PROGRESSIVE = Bet("ann", "progressive", STAKE)


def codes_of(game: str, text: str) -> list[int]:
    """A round's cards in its record's order from ``customer|rest`` (Hold'em Bonus: ``hole|dealer|board``,
    burn cards filled in)."""
    if game != "texas-holdem-bonus":
        given = ph.parse(text.replace("|", " "))
        return given + [c for c in range(52) if c not in given][:{"caribbean-stud": 10, "three-card-poker": 6}[game]
                                                                 - len(given)]
    from tests.test_rounds_holdem_bonus import deal

    return deal(text)


def played(game, text, bank=None, actions=None, bets=None) -> Round:
    r = Round(game, 1, meters=bank, actions=actions)
    for bet in bets or (MAIN[game], PROGRESSIVE):
        r.place(bet)
    r.close()
    engine = ROUND_ENGINES[game]
    record = {"cards": codes_of(game, text)}
    if game == "texas-holdem-bonus":
        dealt = engine.deal("standard", record["cards"], actions=actions, **r.options)
    elif game == "three-card-poker":
        dealt = engine.round_dealt("standard", record, bets=tuple(b.bet for b in r.bets), **r.options)
    else:
        dealt = engine.round_dealt("standard", record, **r.options)
    r.drawn(dealt, None)
    r.determine()
    r.settle()
    return r


def progressive_settlement(r) -> tuple:
    e = next(e for e in r.events if e["kind"] == "settlement" and e["bet"] == "progressive")
    return e["result"].split(";")[0], e["returned"], e["collected"], e["paid"], e.get("jackpot", 0)


def test_the_three_games_offer_the_progressive_by_their_tables():
    for game, awards in AWARDS.items():
        rules = rules_for(game)
        assert "progressive" in rules.permitted
        rule = rules.bets["progressive"]
        for name, pays in awards.items():
            row = next(r for r in rule.rows if r.label == name)
            assert row.pays == (0 if isinstance(pays, Fraction) else pays), (game, name)
        assert rules.engine.meters == (pg.METER,) and pg.METER.funded_by == "progressive"
    assert pg.METER.share == Fraction(15, 100) and pg.METER.reset == 1_000_000  # the analysis' defaults


@pytest.mark.parametrize("game,bets,words", [
    ("caribbean-stud", [PROGRESSIVE], "only for a customer with ante_bet .*4-2-ロ"),
    ("texas-holdem-bonus", [PROGRESSIVE], "only for a customer with ante .*6-2-ロ"),
    ("three-card-poker", [PROGRESSIVE], "only for a customer with ante_play or pair_plus .*5-8-イ"),
])
def test_the_progressive_needs_the_bets_the_seed_names(game, bets, words):
    r = Round(game)
    for bet in bets:
        r.place(bet)
    with pytest.raises(RoundError, match=words):
        r.close()
    ok = Round("three-card-poker")
    ok.place(Bet("ann", "pair_plus", 10))
    ok.place(PROGRESSIVE)
    ok.close()  # Pair Plus alone suffices in Three Card Poker (5-8-イ)


@pytest.mark.parametrize("game,cards,award", [
    ("caribbean-stud", "AS KS QS JS 10S|2D 5C 7H 9D JC", "royal_flush"),
    ("caribbean-stud", "9H 10H JH QH KH|2D 5C 7H 9D JC", "straight_flush"),
    ("caribbean-stud", "4S 4D 4C 4H 9S|2D 5C 7H 9D JC", "four_of_a_kind"),
    ("caribbean-stud", "2H 7H 9H JH KH|2D 5C 7D 9D JC", "flush"),
    ("three-card-poker", "AS KS QS|2D 5C 7H", "ace_king_queen_of_spades"),
    ("three-card-poker", "AH KH QH|2D 5C 7S", "ace_king_queen_suited"),
    ("three-card-poker", "4C 5D 6H|2D 9C JS", "straight"),
    ("texas-holdem-bonus", "AS KS|2D 5C|QS JS 10S 3D 7C", "royal_flush_with_the_flop"),
    ("texas-holdem-bonus", "AS KS|2D 5C|QS JS 3D 10S 7C", "royal_flush_with_the_turn"),
    ("texas-holdem-bonus", "AS 2H|2D 5C|KS QS JS 3D 10S", "royal_flush_with_the_river"),
    ("texas-holdem-bonus", "8C 8D|2D 5C|8S 8H 3D 10S 7C", "four_of_a_kind"),
])
def test_each_award_is_paid_as_its_item_says(game, cards, award):
    bank = MeterBank(game, (pg.METER,))
    bank.values["progressive"].value = 1_000_015  # a meter that does not divide by 10, 4 or 20
    r = played(game, cards, bank, actions=["play"] if game == "texas-holdem-bonus" else None)
    assert r.outcome.features["progressive"] == award
    pays = AWARDS[game][award]
    (entry,) = next(e for e in r.events if e["kind"] == "meters")["meters"]
    reached = 1_000_015 + STAKE * 15 // 100
    assert entry["before"] == 1_000_015 and entry["contributed"] == 15 and entry["after"] == bank.value("progressive")
    if isinstance(pays, Fraction):  # a share of the meter after the round's contribution, its whole yen
        awarded = int(pays * reached)
        left = reached - awarded
        assert progressive_settlement(r) == (award, STAKE, 0, awarded, awarded)
        assert (entry["awarded"], entry["seeded"]) == (awarded, max(0, 1_000_000 - left))
        assert entry["after"] == max(left, 1_000_000)  # reset only when what is left falls below it (4-6-ハ)
    else:  # a multiple of the stake, paid by the house; the meter keeps its contribution
        assert progressive_settlement(r) == (award, STAKE, 0, pays * STAKE, 0)
        assert (entry["awarded"], entry["seeded"], entry["after"]) == (0, 0, reached)
    c = conservation(r.events)
    assert c["staked"] == c["returned"] + c["collected"] and c["jackpot"] == c["awarded"]
    assert c["meters_after"] == c["meters_before"] + c["contributed"] + c["seeded"] - c["awarded"]


@pytest.mark.parametrize("game,cards,actions", [
    ("caribbean-stud", "2S 7D 9C JH KS|2D 5C 7H 9D JC", None),            # no award: lost
    ("texas-holdem-bonus", "AS KS|2D 5C|QS JS 10S 3D 7C", ["fold"]),       # a royal, folded (6-9-ロ)
    ("texas-holdem-bonus", "2C 3D|9D 5C|AS KS QS JS 10S", ["play"]),       # the board's own royal (6-9-ロ)
])
def test_a_folded_customer_and_a_hand_without_his_cards_lose_the_progressive(game, cards, actions):
    r = played(game, cards, MeterBank(game, (pg.METER,)), actions=actions)
    assert r.outcome.features["progressive"] is None
    assert progressive_settlement(r) == ("lose", 0, STAKE, 0, 0)


def test_a_caribbean_stud_flush_wins_the_progressive_unless_folded():
    codes = codes_of("caribbean-stud", "2H 7H 9H JH KH|AD AC 7D 9D JC")
    assert pg.award("caribbean-stud", codes) == {"progressive": "flush", "meters": {}}
    assert pg.award("caribbean-stud", codes, eligible=False) == {"progressive": None, "meters": {}}  # 4-5-ロ


def test_only_the_progressive_stakes_of_settled_rounds_fund_the_meter_and_win_it():
    bank = MeterBank("caribbean-stud", (pg.METER,))
    r = played("caribbean-stud", "AS KS QS JS 10S|2D 5C 7H 9D JC", bank, bets=[MAIN["caribbean-stud"]])
    assert r.outcome.features["progressive"] == "royal_flush"  # a royal without the bet: no meters record
    assert not any(e["kind"] == "meters" for e in r.events) and bank.value("progressive") == 1_000_000
    assert not any(e.get("jackpot") for e in r.events)
    g = rngcore.Generator(SEED, stream=4)
    v = Round("caribbean-stud", 2, meters=bank)
    v.place(MAIN["caribbean-stud"])
    v.place(Bet("ann", "progressive", 7))
    v.close()
    v.fault("the display failed")  # void: nothing contributed, nothing won
    assert not any(e["kind"] == "meters" for e in v.events) and bank.value("progressive") == 1_000_000
    total, stakes = 0, [7, 13, 100, 1, 7, 9] * 6
    for n, stake in enumerate(stakes, 3):  # 15 % of each stake, the fractions carried exactly as stakes change
        s = Round("caribbean-stud", n, meters=bank)
        s.place(MAIN["caribbean-stud"])
        s.place(Bet("ann", "progressive", stake))
        s.close(); s.generate(g); s.determine(); s.settle()
        (entry,) = next(e for e in s.events if e["kind"] == "meters")["meters"]
        total += entry["contributed"]
        assert entry["awarded"] == 0  # no share of the meter won in these rounds
        assert Fraction(15, 100) * sum(stakes[:n - 2]) == total + Fraction(entry["carry"], entry["unit"])
    assert bank.value("progressive") == 1_000_000 + total


def test_a_three_card_poker_round_re_derived_from_its_record_settles_as_dealt():
    """Whether the customer decided is in the record: a recovery after the point settles a fold as a fold."""
    g = rngcore.Generator(SEED, stream=1)
    for n in range(30):
        r = Round("three-card-poker", n + 1)
        r.place(MAIN["three-card-poker"])
        r.close()
        r.generate(g)
        r.determine()
        again = Round.restore(r.events)
        assert again.outcome.features == r.outcome.features
        again.finish("restart")
        r.settle()
        mine = [(e["bet"], e["returned"], e["collected"], e["paid"]) for e in again.events if e["kind"] == "settlement"]
        assert mine == [(e["bet"], e["returned"], e["collected"], e["paid"]) for e in r.events
                        if e["kind"] == "settlement"]


def test_a_three_card_poker_record_from_before_ante_was_recorded_is_re_derived_with_its_bets(tmp_path):
    """A journal written before the round record stored ``ante``: a round stopped after its point is settled at
    restart by its journaled bets, so a fold stays a fold (the ante half collected, the Play half returned),
    not a Pair-Plus-only round."""
    game, bets = "three-card-poker", [MAIN["three-card-poker"], Bet("ann", "pair_plus", 10)]
    cards = "2S 5D 9C|KH KD 4C"  # below Q-6-4: the customer folds
    dealt_as = played(game, cards, bets=bets)
    assert dealt_as.outcome.features["outcome"] == "fold"

    def old(event):  # the record as it was journaled before: cards, outcome and hand only
        if event["kind"] == "outcome":
            event = {**event, "record": {k: v for k, v in event["record"].items() if k != "ante"}}
        return event

    path = tmp_path / "old.sqlite"
    with Journal(path) as j:
        r = Round(game, 1, sink=lambda e: j.append(old(e)))
        for bet in bets:
            r.place(bet)
        r.close()
        r.drawn(ROUND_ENGINES[game].round_dealt("standard", {"cards": codes_of(game, cards)},
                                                bets=tuple(b.bet for b in bets), **r.options), None)
        r.determine()  # stopped here, after the determination point (6-イ)
        j.commit()
    with Journal(path) as j:
        record = next(e for e in j.events()[1] if e["kind"] == "outcome")["record"]
        assert "ante" not in record
        assert ROUND_ENGINES[game].round_dealt("standard", record).features["outcome"] is None  # by the record alone
        assert recall.recover(j) == [(1, "OUTCOME_DETERMINED", "DONE")]
        moves = [(e["bet"], e["result"], e["returned"], e["collected"], e["paid"]) for e in j.events()[1]
                 if e["kind"] == "settlement"]
    assert moves == [(e["bet"], e["result"], e["returned"], e["collected"], e["paid"]) for e in dealt_as.events
                     if e["kind"] == "settlement"]
    assert moves[0] == ("ante_play", "fold", 10, 10, 0) and moves[1][:2] == ("pair_plus", "lose")


STOPS = ["BETTING_OPEN", "BET", "BETTING_CLOSED", "OUTCOME_GENERATION", "OUTCOME_DETERMINED", "SETTLEMENT",
         "METERS", "DONE"]
QUICK = {("texas-holdem-bonus", "METERS")}


@pytest.mark.parametrize("game,target", [
    (g, t) if (g, t) in QUICK else pytest.param(g, t, marks=pytest.mark.slow) for g in AWARDS for t in STOPS])
def test_a_progressive_round_killed_at_every_state_is_finished_with_its_meter(tmp_path, game, target):
    """SIGKILL after each state's record (and the meters record) is committed: the restart finishes the
    round by the fault rule, the meter is metered once and continues from the round before."""
    from tests.test_rounds_journal import CHILD, check_recovered

    script = tmp_path / "child.py"
    bets = {game: [(b.customer, b.bet, b.stake, b.on) for b in (MAIN[game], PROGRESSIVE)]}
    script.write_text(CHILD.format(bets=bets, seed=SEED))
    path = tmp_path / "killed.sqlite"
    done = subprocess.run([sys.executable, str(script), str(path), game, target, "after-commit", "event"],
                          env=dict(os.environ, PYTHONSAFEPATH="1"), capture_output=True, text=True, timeout=900)
    assert done.returncode == -signal.SIGKILL, done.stderr  # (Caribbean Stud's child counts its strategy first)
    finished, rounds = check_recovered(path, game)
    value = pg.METER.reset
    for round_id, events in sorted(rounds.items()):
        state = [e["state"] for e in events if e["kind"] == "state"][-1]
        records = [e for e in events if e["kind"] == "meters"]
        assert len(records) == (1 if state == "DONE" else 0)
        for (entry,) in (r["meters"] for r in records):
            assert entry["before"] == value
            value = entry["after"]
        c = conservation(events)
        assert c["jackpot"] == c["awarded"]
    with Journal(path) as j:
        assert bank_of(rules_for(game), j).value("progressive") == value
        assert recall.recover(j) == []
    if target == "METERS":  # found with its meters record: settled, metered once
        assert finished == [(2, "SETTLEMENT", "DONE")]


@pytest.mark.slow
def test_random_power_losses_in_progressive_rounds(tmp_path):
    """300 random stop points in rounds of the three games with the progressive (before or after a record's
    commit), each followed by a restart: the invariants of the rounds hold, every meters record continues
    the one before, and a second restart finds nothing to do."""
    import random

    from tests.test_rounds_journal import check_recovered, power_loss_trial

    rnd = random.Random(31)
    for trial in range(300):
        game = rnd.choice(sorted(AWARDS))
        rules = rules_for(game)
        path = tmp_path / f"{trial}.sqlite"
        power_loss_trial(rnd, path, trial, 4, lambda j, g: play_metered(
            rules, j, g, (MAIN[game], Bet("ann", "progressive", rnd.choice([7, 100])))))
        _, rounds = check_recovered(path, game)
        value = pg.METER.reset
        for events in (rounds[k] for k in sorted(rounds)):
            for record in (e for e in events if e["kind"] == "meters"):
                assert record["meters"][0]["before"] == value
                value = record["meters"][0]["after"]
            c = conservation(events)
            assert c["jackpot"] == c["awarded"]
            assert c["meters_after"] == c["meters_before"] + c["contributed"] + c["seeded"] - c["awarded"]
