"""The registered round engines (harness.rounds.engines): Casino War, Pai Gow, multi-roll craps, the poker
rounds (Three Card Poker, Caribbean Stud, Let It Ride).

Casino War: every four-card pattern of a fresh 8-deck stack, weighted by its ways, classified by
the engine, gives exactly the game module's first-round class probabilities (the e-table round
is the first round of a fresh stack), and the bets split as the module's combined main bet pays.
Pai Gow: hand-made deals settle as 9-2 says, and the outcome shares of seeded rounds sit within
a loose band of the module's exact enumeration over every deal.  Craps: hand-made roll sequences
decide each bet as 6-1, 6-2 and the module's chain rows say, a round rolls exactly until its last
bet is decided, a one-roll round is the game's own roll, and the pass line wins at 244/495.
Let It Ride: hand-made deals decide and settle as 8-4 .. 8-7 say, and seeded rounds ride exactly when
a brute-force expectation over every completion (tests/poker_reference.py) is positive.
"""
import itertools
import math
from fractions import Fraction as F

import pytest

import rngcore
from harness.games import casino_war as cw
from harness.games import pai_gow as pg
from harness.games.registry import GAMES
from harness.rounds import Bet, Round, RoundError
from harness.rounds.engine import ROUND_ENGINES
from harness.rounds.engines.casino_war import ADDITIONAL, MAIN, TIE
from harness.rounds.table import rules_for
from rngcore.devices import cards
from rngcore.devices.tiles import TILE_SET
from tests.rounds_support import SEED


def test_the_engines_are_registered_by_their_modules():
    assert {"casino-war", "pai-gow"} <= set(ROUND_ENGINES)
    assert rules_for("casino-war").engine is ROUND_ENGINES["casino-war"]
    assert rules_for("baccarat").engine.name == "baccarat"  # a game's own engine comes first


def _codes(ranks):
    """Four distinct card codes of these ranks (suits and decks chosen apart)."""
    return [cards.encode(r, i % 4, i // 4) for i, r in enumerate(ranks)]


@pytest.mark.parametrize("strategy", ["war", "surrender"])
def test_war_rounds_have_the_first_round_probabilities_of_a_fresh_stack(strategy):
    """Every rank pattern of the first two cards and, after a tie, of the two war cards, by its ways."""
    engine = ROUND_ENGINES["casino-war"]
    n, per_rank = 52 * 8, 32
    exact = {}
    for first in itertools.product(range(1, 14), repeat=2):
        tied = first[0] == first[1]
        for war in itertools.product(range(1, 14), repeat=2) if tied else [(2, 3)]:
            ranks = first + war
            ways, taken = 1, {}
            for r in ranks if tied else first:
                ways *= per_rank - taken.get(r, 0)
                taken[r] = taken.get(r, 0) + 1
            label = engine.round_dealt("standard", {"cards": _codes(ranks)}, strategy=strategy).record["class"]
            exact[label] = exact.get(label, 0) + ways * (1 if tied else (n - 2) * (n - 3))
    total = n * (n - 1) * (n - 2) * (n - 3)
    expected = cw.first_round(cw.standard_shoe(8), strategy).class_probabilities()
    assert {k: F(v, total) for k, v in exact.items()} == {k: p for k, p in expected.items() if p}


def test_war_bets_split_the_modules_main_bet_per_class():
    for label in cw.CLASSES:
        features = cw.class_features(label)
        combined = cw.main_bet(2).classify(features).pays
        main, additional = MAIN.classify(features).pays, ADDITIONAL.classify(features).pays
        assert main + (additional if label.startswith("war_") else 0) == combined, label
        if not label.startswith("war_"):
            assert additional == 0  # no war: the additional stake is returned untouched
        assert TIE.classify(features).pays == cw.TIE_BET.classify(features).pays


def test_a_war_round_deals_the_war_cards_only_on_a_tie():
    engine = ROUND_ENGINES["casino-war"]
    win = engine.round_dealt("standard", {"cards": _codes((1, 13, 2, 2))})  # A beats K
    assert win.record["class"] == "win" and win.record["used"] == 2
    war = engine.round_dealt("standard", {"cards": _codes((7, 7, 2, 2))})
    assert war.record["class"] == "war_tie" and "war:" in war.shown
    gone = engine.round_dealt("standard", {"cards": _codes((7, 7, 2, 2))}, strategy="surrender")
    assert gone.record["class"] == "surrender"
    r = Round("casino-war", options={"strategy": "surrender"})
    r.place(Bet("ann", "main", 100))
    r.close()
    r.drawn(gone, None)
    r.determine()
    r.settle()
    t = r.totals()
    assert (t["returned"], t["collected"], t["paid"]) == (50, 50, 0)  # half the stake lost (8-1-イ)
    with pytest.raises(ValueError, match="four distinct card codes"):
        engine.round_dealt("standard", {"cards": [1, 1, 2, 3]})


@pytest.mark.parametrize("bets,words", [
    ([Bet("ann", "tie", 10)], "needs the customer's main bet"),
    ([Bet("ann", "main", 100), Bet("ann", "additional", 50)], "equals the main stake"),
    ([Bet("ann", "main", 100), Bet("bob", "main", 100)], "one customer position"),
    ([Bet("ann", "main", 100), Bet("ann", "main", 20)], "already has"),
    ([Bet("ann", "main", 101)], "fraction of a yen"),  # surrender would lose half of it
])
def test_war_refuses_what_8_1_and_4_2_refuse(bets, words):
    r = Round("casino-war")
    with pytest.raises(RoundError, match=words):
        for bet in bets:
            r.place(bet)


def _set_positions(rows):
    """Distinct tile-set positions holding these rows (in order)."""
    free = list(range(len(TILE_SET)))
    out = []
    for row in rows:
        i = next(i for i in free if TILE_SET[i] + 1 == row)
        free.remove(i)
        out.append(i)
    return out


def test_pai_gow_rounds_settle_by_9_2():
    engine = ROUND_ENGINES["pai-gow"]
    # dealer: two mixed hands of low tiles; customer: gee joon and a pair of (1) -- both hands win
    win = engine.round_dealt("standard", {"tiles": _set_positions([19, 18, 17, 16, 20, 21, 1, 1])})
    assert win.features == {"outcome": "win"} and "customer" in win.shown
    lose = engine.round_dealt("standard", {"tiles": _set_positions([20, 21, 1, 1, 19, 18, 17, 16])})
    assert lose.features == {"outcome": "lose"}
    with pytest.raises(ValueError, match="eight distinct tiles"):
        engine.round_dealt("standard", {"tiles": [0, 0, 1, 2, 3, 4, 5, 6]})
    r = Round("pai-gow")
    r.place(Bet("ann", "bet", 15))
    r.close()
    r.drawn(win, None)
    r.determine()
    r.settle()
    assert r.totals()["paid"] == 14  # 15 at 19 to 20 = 14.25, truncated (10-1)


@pytest.mark.slow
def test_pai_gow_round_outcomes_follow_the_exact_enumeration():
    _, _, _, counts = pg.analyse("house-way")
    engine = ROUND_ENGINES["pai-gow"]
    g = rngcore.Generator(SEED, stream=4)
    n = 1500
    seen = {"win": 0, "push": 0, "lose": 0}
    for _ in range(n):
        seen[engine.round_outcome(g, "standard").features["outcome"]] += 1
    for outcome, ways in counts.items():
        p = ways / pg.DEALS
        assert abs(seen[outcome] - n * p) < 5 * math.sqrt(n * p * (1 - p)), (outcome, seen)


def _rolls(*pairs):
    return {"rolls": [(a - 1) * 6 + (b - 1) for a, b in pairs]}


@pytest.mark.parametrize("pairs,decided", [
    ([(6, 6)], {"pass": "lose_craps", "dont_pass": "push_12"}),
    ([(3, 4)], {"pass": "win_natural", "dont_pass": "lose_natural"}),
    ([(2, 2), (5, 5), (1, 3)], {"pass": "win_point", "hard_4": "win", "hard_10": "win", "place_4": "win"}),
    ([(3, 3), (2, 5)], {"pass": "lose_seven_out", "dont_pass": "win_seven_out", "hard_6": "win",
                        "place_8": "lose", "lay_8": "win"}),
])
def test_craps_rounds_decide_each_bet_by_its_rolls(pairs, decided):
    dealt = ROUND_ENGINES["craps"].round_dealt("jp", _rolls(*pairs))
    assert {name: dealt.features[f"decided_{name}"] for name in decided} == decided
    assert dealt.features["total"] == sum(pairs[0])  # one-roll bets read the first roll


def test_a_craps_round_rolls_until_every_bet_is_decided():
    g = rngcore.Generator(SEED, stream=6)
    for _ in range(40):
        r = Round("craps")
        for bet in (Bet("ann", "pass", 10), Bet("bob", "hard_8", 10), Bet("cy", "field", 10)):
            r.place(bet)
        r.close()
        r.generate(g)
        r.determine()
        r.settle()
        rolls = r.outcome.record["rolls"]
        decided = [f for f in r.outcome.features if f.startswith("decided_")]
        assert {"decided_pass", "decided_hard_8"} <= set(decided)
        # the last roll decided something still open: a shorter sequence would leave a bet undecided
        shorter = ROUND_ENGINES["craps"].round_dealt("jp", {"rolls": rolls[:-1]}) if len(rolls) > 1 else None
        assert shorter is None or not {"decided_pass", "decided_hard_8"} <= set(shorter.features)
        t = r.totals()
        assert t["staked"] == t["returned"] + t["collected"]


def test_a_one_roll_craps_round_is_the_games_own_roll():
    g, h = rngcore.Generator(SEED, stream=2), rngcore.Generator(SEED, stream=2)
    mine = ROUND_ENGINES["craps"].round_outcome(g, "jp", bets=("field", "horn"))
    own = GAMES["craps"].round_outcome(h, "jp")
    assert mine.record == own.record == {"index": own.record["index"]} and mine.features == own.features


def test_craps_bets_placed_only_on_a_point_are_refused():
    for name in ("come", "dont_come", "pass_odds_6", "come_odds_4"):
        with pytest.raises(RoundError, match="only while a point is on"):
            Round("craps").place(Bet("ann", name, 10))


def test_a_multi_roll_table_journals_what_round_by_round_play_journals(tmp_path):
    from harness.rounds import recall as rc
    from harness.rounds.batch import Table
    from harness.rounds.journal import Journal
    from tests.rounds_support import step

    bets = [Bet("ann", "pass", 10), Bet("bob", "dont_pass", 20), Bet("cy", "place_6", 12), Bet("dee", "any_seven", 5)]
    rules = rules_for("craps")
    with Journal(tmp_path / "a.sqlite", batch="group") as a, Journal(tmp_path / "b.sqlite", batch="group") as b:
        Table(rules, bets, journal=a).play(rngcore.Generator(SEED, stream=7), 25)
        g = rngcore.Generator(SEED, stream=7)
        for _ in range(25):
            step(b, rules, bets, g)
        b.commit()
        assert list(a.rows()) == list(b.rows()) and a.verify().ok
        assert all(rc.replay(a, n, SEED).equal for n in (1, 13, 25))


def test_pass_line_rounds_win_at_the_exact_rate():
    from harness.rounds.batch import Table

    n = 1200
    t = Table(rules_for("craps"), [Bet("ann", "pass", 10)]).play(rngcore.Generator(SEED, stream=11), n)
    p = F(244, 495)  # the pass line's exact win probability
    wins = t.paid // 10
    assert abs(wins - n * p) < 5 * math.sqrt(n * p * (1 - p))
    assert t.staked == t.returned + t.collected


def test_a_multi_roll_round_stopped_after_its_rolls_is_settled_on_them_at_restart():
    r = Round("craps", 4)
    r.place(Bet("ann", "pass", 10))
    r.place(Bet("bob", "hard_6", 10))
    r.close()
    r.generate(rngcore.Generator(SEED, stream=12))
    r.determine()  # the process stops here; recovery reads the journaled rolls back
    again = Round.restore(r.events)
    assert again.outcome.features == r.outcome.features
    assert again.finish("restart") == "DONE"
    results = {e["bet"]: e["result"] for e in again.events if e["kind"] == "settlement"}
    assert results == {"pass": r.outcome.features["decided_pass"], "hard_6": r.outcome.features["decided_hard_6"]}


def test_war_enforces_going_to_war_or_surrendering_by_the_rules_table():
    r = Round("casino-war")  # strategy=war, the default: the additional stake goes with the main bet
    r.place(Bet("ann", "main", 100))
    with pytest.raises(RoundError, match="bet 1 .ann main 100.: with strategy=war .* 8-1-ロ"):
        r.close()
    assert r.state.value == "BETTING_OPEN"  # refused: betting stays open for the missing bet
    r.place(Bet("ann", "additional", 100))
    r.close()
    gone = Round("casino-war", options={"strategy": "surrender"})
    gone.place(Bet("ann", "main", 100))
    with pytest.raises(RoundError, match="8-1-イ"):
        gone.place(Bet("ann", "additional", 100))
    gone.close()  # surrendering needs no additional stake
    with pytest.raises(RoundError, match="no option 'burns'"):
        Round("casino-war", options={"burns": 3})
    with pytest.raises(RoundError, match="4..8"):
        Round("casino-war", options={"decks": 9})


# ------------------------------------------------------------------ Three Card Poker --

def _tcp(text: str) -> list[int]:
    from harness.games import poker_hands as ph

    return ph.parse(text)


def _decided(game, cards, strategy, bet, decision, label, amounts) -> Round:
    """A round of ``game`` dealing ``cards`` with one ante bet: its one decision and its settlement checked."""
    engine = ROUND_ENGINES[game]
    r = Round(game, options={"strategy": strategy})
    r.place(bet)
    dealt = engine.round_dealt("standard", {"cards": _tcp(cards)}, **r.rules.dealing(r.options, r.bets))
    r.close()
    r.drawn(dealt, None)
    r.determine()
    r.settle()
    assert [e["decision"] for e in r.events if e["kind"] == "decision"] == [decision]
    settled = next(e for e in r.events if e["kind"] == "settlement")
    assert settled["result"] == label and (settled["returned"], settled["collected"], settled["paid"]) == amounts
    return r


@pytest.mark.parametrize("cards,strategy,decision,label,amounts", [
    # customer 2-3-5 of mixed suits: below Q-6-4, folded: the ante (half the stake) is lost, Play returned
    ("2S 3D 5C KH QH 9S", "optimal", "fold", "fold", (10, 10, 0)),
    # Q-6-4 is the optimal strategy's weakest played hand; the dealer's J-high does not qualify (5-6-イ)
    ("QS 6D 4C JH 9H 7S", "optimal", "play", "not_qualified", (20, 0, 10)),
    ("QS 6D 4C JH 9H 7S", "q64", "play", "not_qualified", (20, 0, 10)),
    # a straight beats the dealer's pair: ante and Play 1 to 1, the ante bonus 1 to 1 (5-7-ニ-(3))
    ("4S 5D 6C KH KD 2S", "optimal", "play", "win+straight_bonus", (20, 0, 30)),
    ("AS AD 3C KH KD KC", "optimal", "play", "lose", (0, 20, 0)),
])
def test_three_card_poker_rounds_decide_then_settle_by_the_games_tables(cards, strategy, decision, label, amounts):
    r = _decided("three-card-poker", cards, strategy, Bet("ann", "ante_play", 20), decision, label, amounts)
    kinds = [e["kind"] for e in r.events]
    assert kinds.index("decision") < kinds.index("outcome")  # decided while dealing, before 6-イ


def test_three_card_poker_pair_plus_alone_has_no_decision_and_faults_void():
    engine = ROUND_ENGINES["three-card-poker"]
    alone = engine.round_dealt("standard", {"cards": _tcp("7S 7D 2C KH QH 9S")}, bets=("pair_plus",))
    assert alone.decisions == () and alone.features["hand"] == "one_pair"
    r = Round("three-card-poker")
    r.place(Bet("ann", "pair_plus", 10))
    r.close()
    r.drawn(alone, None)
    r.determine()
    r.settle()
    assert [e["paid"] for e in r.events if e["kind"] == "settlement"] == [10]  # a pair pays 1 to 1 (5-7-ハ)
    played = engine.round_dealt("standard", {"cards": _tcp("QS 6D 4C JH 9H 7S")}, bets=("ante_play",))
    f = Round("three-card-poker")
    f.place(Bet("ann", "ante_play", 20))
    f.close()
    f.drawn(played, None)  # the decision is journaled ...
    f.fault("fault injected after the decision")  # ... but the dealer's hand is not revealed: void
    assert f.state.value == "VOID" and any(e["kind"] == "decision" for e in f.events)
    assert f.totals()["returned"] == 20
    with pytest.raises(RoundError, match="fraction of a yen"):
        Round("three-card-poker").place(Bet("ann", "ante_play", 15))  # ante + Play: an even stake
    with pytest.raises(RoundError, match="one customer position"):
        t = Round("three-card-poker")
        t.place(Bet("ann", "ante_play", 20))
        t.place(Bet("bob", "pair_plus", 10))


@pytest.mark.parametrize("cards,strategy,decision,label,amounts", [
    # K-Q high: the dealer does not qualify (4-5-イ): the ante 1 to 1, the bet returned
    ("AS AD 5C 7H 9S KS QD 4C 3H 2S", "ak", "bet", "not_qualified", (30, 0, 10)),
    # three of a kind against a qualifying A-K: the ante 1 to 1, the bet 3 to 1 (4-6-ロ-(7))
    ("2S 2D 2C 7H 9S AS KD 4C 3H 5S", "ak", "bet", "win_three_of_a_kind", (30, 0, 70)),
    ("2S 2D 2C 7H 9S AS KD 4C 3H 5S", "optimal", "bet", "win_three_of_a_kind", (30, 0, 70)),
    # below A-K: folded; the ante third collected, the bet returned (never placed)
    ("2S 3D 5C 7H 9S AS KD 4C 3H 6S", "ak", "fold", "fold", (20, 10, 0)),
])
def test_caribbean_stud_rounds_decide_then_settle_by_the_games_table(cards, strategy, decision, label, amounts):
    r = _decided("caribbean-stud", cards, strategy, Bet("ann", "ante_bet", 30), decision, label, amounts)
    assert next(e for e in r.events if e["kind"] == "decision")["up_card"] == cards.split()[5]
    with pytest.raises(RoundError, match="fraction of a yen"):
        Round("caribbean-stud").place(Bet("ann", "ante_bet", 20))  # ante + bet = 3 antes


# ------------------------------------------------------------------------- Let It Ride --

#: 000 別表第1 第3 8-7 (applying 7-8 with its substitutions), typed from the seed: (poker_reference category,
#: odds); a pair pays only from a pair of 10s (8-2-ハ, 8-6-ロ).
LET_IT_RIDE_PAYS = {10: 1000, 9: 200, 8: 50, 7: 11, 6: 8, 5: 5, 4: 3, 3: 2}
SPOTS = [Bet("ann", f"spot_{k}", 10) for k in (1, 2, 3)]


def let_it_ride_net(five) -> int:
    """A spot's net per unit by the customer's hand (tests/poker_reference.py's categories)."""
    from tests import poker_reference as pr

    key = pr.five_key(five)
    if key[0] == 2:
        return 1 if key[1] >= 10 else -1   # one pair: 10s or better (8-6-ロ)
    return LET_IT_RIDE_PAYS.get(key[0], -1)


def let_it_ride_rides(known) -> bool:
    """The optimal decision by brute force: keep a spot exactly when its expectation with ``known`` in view,
    over every completion of the five cards, is positive (8-4, 8-5; a tie takes it back)."""
    rest = [c for c in range(52) if c not in known]
    return sum(let_it_ride_net(list(known) + list(more))
               for more in itertools.combinations(rest, 5 - len(known))) > 0


@pytest.mark.parametrize("cards,decisions,amounts", [
    # a pair of 10s in hand: ride both; every spot pays 1 to 1
    ("10S 10D 2C 7H 9S", ["ride", "ride"], [(10, 0, 10)] * 3),
    # nothing: both taken back (returned), the 3rd spot lost
    ("2S 7D JC 4H 9S", ["take-back", "take-back"], [(10, 0, 0), (10, 0, 0), (0, 10, 0)]),
    # three to a royal flush: ride; the royal pays 1,000 to 1 on each spot (8-7 applying 7-8-(1))
    ("AS KS QS JS 10S", ["ride", "ride"], [(10, 0, 10000)] * 3),
    # a low pair is taken back; trips after the first community card ride: 3 to 1 on the 2nd and 3rd spots
    ("9S 9D 2C 9H 4C", ["take-back", "ride"], [(10, 0, 0), (10, 0, 30), (10, 0, 30)]),
])
def test_let_it_ride_rounds_decide_then_settle_by_the_seeds_table(cards, decisions, amounts):
    r = Round("let-it-ride")
    for bet in SPOTS:
        r.place(bet)
    dealt = ROUND_ENGINES["let-it-ride"].round_dealt("standard", {"cards": _tcp(cards)})
    r.close()
    r.drawn(dealt, None)
    r.determine()
    r.settle()
    made = [e for e in r.events if e["kind"] == "decision"]
    assert [(d["spot"], d["decision"]) for d in made] == list(zip(("spot_1", "spot_2"), decisions))
    kinds = [e["kind"] for e in r.events]
    assert kinds.index("outcome") > max(i for i, k in enumerate(kinds) if k == "decision")  # decided, then 8-6-イ
    settled = [(e["returned"], e["collected"], e["paid"]) for e in r.events if e["kind"] == "settlement"]
    assert settled == amounts


def test_let_it_ride_rounds_ride_by_the_brute_force_expectation_and_settle_by_the_reference():
    g = rngcore.Generator(SEED, stream=17)
    spot_1 = 0
    for n in range(150):
        r = Round("let-it-ride", n)
        for bet in SPOTS:
            r.place(bet)
        r.close()
        r.generate(g)
        r.determine()
        r.settle()
        five = r.outcome.record["cards"]
        rides = {d["spot"]: d["decision"] == "ride" for d in r.events if d["kind"] == "decision"}
        assert rides["spot_2"] == let_it_ride_rides(five[:4]), r.outcome.shown
        if n < 40:  # 1,176 completions each: the first decision on fewer rounds
            assert rides["spot_1"] == let_it_ride_rides(five[:3]), r.outcome.shown
            spot_1 += rides["spot_1"]
        net = let_it_ride_net(five)
        for e in (e for e in r.events if e["kind"] == "settlement"):
            ridden = rides.get(e["bet"], True)
            expected = (10, 0, 10 * net) if ridden and net > 0 else (0, 10, 0) if ridden else (10, 0, 0)
            assert (e["returned"], e["collected"], e["paid"]) == expected, (e["bet"], r.outcome.shown)
    assert spot_1 > 0


def test_let_it_ride_rounds_take_three_equal_spots_of_one_customer():
    r = Round("let-it-ride")
    r.place(Bet("ann", "spot_1", 10))
    with pytest.raises(RoundError, match=r"equal stakes \(000 別表第1 第3 8 8-2-ロ\): 10 on 'spot_1', got 20"):
        r.place(Bet("ann", "spot_2", 20))
    with pytest.raises(RoundError, match="one customer position"):
        r.place(Bet("bob", "spot_2", 10))
    r.place(Bet("ann", "spot_2", 10))
    with pytest.raises(RoundError, match="needs equal stakes on all three spots .*missing: spot_3"):
        r.close()


@pytest.mark.parametrize("game,first,unequal,words", [
    ("let-it-ride", Bet("ann", "spot_1", 10), Bet("ann", "spot_3", 30), r"the three spots take equal stakes \(000 別表第1 第3 8 8-2-ロ\)"),
    ("casino-war", Bet("ann", "main", 100), Bet("ann", "additional", 50),
     r"the additional \(war\) stake equals the main stake \(000 別表第1 第4 8-1-ロ\)"),
    ("blackjack-switch", Bet("ann", "main", 100), Bet("ann", "main_2", 50),
     r"the pair of areas takes equal stakes \(000 別表第1 第2 2-4-ハ\)"),
    ("deluxe-blackjack", Bet("ann", "main", 100), Bet("ann", "main_2", 50),
     r"each seat takes the same seat bet \(001 1. ベッティング .*: 各座席には同額のベット\)")])
def test_a_stake_a_rule_makes_equal_to_another_is_refused_by_one_check(game, first, unequal, words):
    """Switch's pair of areas, Deluxe's two seats, Let It Ride's spots and Casino War's war stake: one check
    (harness.rounds.engine.equal_stake), one message naming both bets and stakes; the equal stake goes."""
    r = Round(game)
    r.place(first)
    with pytest.raises(RoundError, match=f"^{game}: {words}: {first.stake} on {first.bet!r}, got {unequal.stake} on "
                                         f"{unequal.bet!r}$"):
        r.place(unequal)
    r.place(Bet(unequal.customer, unequal.bet, first.stake))
    assert [b.stake for b in r.bets] == [first.stake] * 2


# -------------------------------------------------------------------- Mississippi Stud --

#: 000 別表第1 第3 7-8-ロ, typed from the seed (poker_reference category: odds); 7-7-ロ: a pair of J or better
#: wins 1 to 1, of 6s to 10s is a standoff, of 5s or lower loses.
MISSISSIPPI_PAYS = {10: 500, 9: 100, 8: 40, 7: 10, 6: 6, 5: 4, 4: 3, 3: 2}


def mississippi_net(five) -> int:
    """Each stake's net per unit by the final hand (tests/poker_reference.py's categories)."""
    from tests import poker_reference as pr

    key = pr.five_key(five)
    if key[0] == 2:
        return 1 if key[1] >= 11 else 0 if key[1] >= 6 else -1
    return MISSISSIPPI_PAYS.get(key[0], -1)


def mississippi_round(cards: str | None = None, generator=None) -> Round:
    r = Round("mississippi-stud")
    r.place(Bet("ann", "ante", 10))
    r.close()
    if generator is None:
        r.drawn(ROUND_ENGINES["mississippi-stud"].round_dealt("standard", {"cards": _tcp(cards)}), None)
    else:
        r.generate(generator)
    r.determine()
    r.settle()
    return r


@pytest.mark.parametrize("cards,decisions,amounts", [
    # a pair of aces from the start: 3 antes on every street (the optimal play of a paying pair)
    ("AS AD 2C 7H 9S", ["bet 3", "bet 3", "bet 3"], [(10, 0, 10), (30, 0, 30), (30, 0, 30), (30, 0, 30)]),
    # 2-7 offsuit: folded at once, the ante lost (7-4-イ-(1))
    ("2S 7D JC 4H 9S", ["fold"], [(0, 10, 0)]),
])
def test_mississippi_stud_rounds_decide_then_settle_by_the_seeds_table(cards, decisions, amounts):
    r = mississippi_round(cards)
    assert [e["decision"] for e in r.events if e["kind"] == "decision"] == decisions
    kinds = [e["kind"] for e in r.events]
    assert kinds.index("outcome") > max(i for i, k in enumerate(kinds) if k in ("decision", "stake"))
    assert [(e["returned"], e["collected"], e["paid"]) for e in r.events if e["kind"] == "settlement"] == amounts


def test_mississippi_stud_rounds_bet_by_brute_force_on_fifth_street_and_settle_by_the_reference():
    g = rngcore.Generator(SEED, stream=18)
    reached = 0
    for n in range(150):
        r = mississippi_round(generator=g)
        five = r.outcome.record["cards"]
        made = [e for e in r.events if e["kind"] == "decision"]
        stakes = [e for e in r.events if e["kind"] in ("bet", "stake")]
        assert [s["stake"] for s in stakes[1:]] == [10 * int(d["decision"][4:]) for d in made if d["decision"] != "fold"]
        if len(made) == 3:  # 5th street: the best of fold and 1..3 antes over the 48 completions
            reached += 1
            staked = made[2]["staked"]
            rest = [c for c in range(52) if c not in five[:4]]
            per_unit = sum(mississippi_net(five[:4] + [c]) for c in rest)
            values = {0: -staked * 48, **{k: (staked + k) * per_unit for k in (1, 2, 3)}}
            best = max(values.values())
            assert made[2]["decision"] == ("fold" if values[0] == best and all(v < best for k, v in values.items() if k)
                                           else f"bet {max(k for k, v in values.items() if k and v == best)}")
        net = -1 if made[-1]["decision"] == "fold" else mississippi_net(five)
        for e in (e for e in r.events if e["kind"] == "settlement"):
            s = e["stake"]
            assert (e["returned"], e["collected"], e["paid"]) == ((s, 0, s * net) if net >= 0 else (0, s, 0))
    assert reached > 40


def test_mississippi_stud_rounds_declare_the_seeds_mode_b():
    rules = rules_for("mississippi-stud")
    e = rules.etable
    assert e is GAMES["mississippi-stud"].etable  # the game module declares it
    assert e.permitted == ("ante",) and e.fault_clause == "000 別表第1 第3 7-12" and "7-7-イ" in e.determined_after
    with pytest.raises(RoundError, match="not permitted in an electronic table game .*7-11"):
        Round(rules).place(Bet("ann", "street_3rd", 10))
