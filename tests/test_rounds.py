"""Electronic table-game rounds (harness.rounds): the states, the permitted bets, the determination
points and the fault rule of 000's e-table clauses.

The expected tables below are typed from the rules digest
(electronic_table_games.md §2-4, checked against 000 別表第1 where cited), not read from the
game modules, so a wrong declaration fails here.
"""
from fractions import Fraction as F

import pytest

import rngcore
from harness.games.registry import GAMES
from harness.rounds import Bet, Round, RoundError, State
from harness.rounds import money

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
S = State

# digest §4: the legal moves, typed here (FAULT resolves to VOID or to SETTLEMENT only).
LEGAL = {
    (S.BETTING_OPEN, S.BETTING_CLOSED), (S.BETTING_CLOSED, S.OUTCOME_GENERATION),
    (S.OUTCOME_GENERATION, S.OUTCOME_DETERMINED), (S.OUTCOME_DETERMINED, S.SETTLEMENT), (S.SETTLEMENT, S.DONE),
    (S.BETTING_OPEN, S.FAULT), (S.BETTING_CLOSED, S.FAULT), (S.OUTCOME_GENERATION, S.FAULT),
    (S.OUTCOME_DETERMINED, S.FAULT), (S.SETTLEMENT, S.FAULT), (S.FAULT, S.VOID), (S.FAULT, S.SETTLEMENT),
}

# digest §3's table: game -> (fault clause, the words of its "settle if the fault occurs after ..." point).
DETERMINATION = {
    "baccarat": ("第1 14-1", "item 6 (third-card processing)"),
    "blackjack": ("第2 1-19-イ", "item 10 (the dealer's drawing)"),
    "caribbean-stud": ("第3 4-10-イ", "turned face up (5-イ)"),
    "three-card-poker": ("第3 5-12", "6-イ"),
    "let-it-ride": ("第3 8-11", "8-6-イ"),
    "mississippi-stud": ("第3 7-12", "7-7-イ"),
    "texas-holdem-bonus": ("第3 6-13 (applying 4-10-イ)", "7-イ"),
    "casino-war": ("第4 13-1", "item 6 (the comparison)"),
    "craps": ("第5 12-2", "the roll of 4-1 (come-out) or 5-1"),
    "sic-bo": ("第6 11-1", "item 4 (the shaker roll)"),
    "roulette-single": ("第7 1-9-イ", "1-3-ニ"),
    "roulette-double": ("第7 2-9", "2-3-ニ"),
    "money-wheel": ("第8 10-1", "item 4 (the disc spun)"),
    "pai-gow": ("第9 14-1", "item 8 (the dealer set his hands)"),
}

# digest §2: the bets mode B permits (None: every bet of 000's game), and what the refusal cites.
PERMITTED = {
    "baccarat": ({"player", "banker", "tie", "player_pair", "banker_pair"}, "13 (L363)"),
    "blackjack": ({"main", "insurance", "pair", "pair_tiered"}, "1-18"),
    "caribbean-stud": ({"ante_bet", "progressive"}, "4-9"),
    "three-card-poker": ({"ante_play", "pair_plus", "progressive"}, "5-11"),
    "let-it-ride": ({"spot_1", "spot_2", "spot_3"}, "8-10"),
    "mississippi-stud": ({"ante"}, "7-11"),  # the seed's ante only; the digest adds "(and street bets)"
    "texas-holdem-bonus": ({"ante", "bonus", "progressive"}, "6-12"),
    "casino-war": ({"main", "tie", "additional"}, "第4 12"),
    "pai-gow": ({"bet"}, "第9 13"),
    "craps": (None, "第5 11"), "sic-bo": (None, "第6 10"), "roulette-single": (None, "1-8"),
    "roulette-double": (None, "2-8"), "money-wheel": (None, "第8 9"),
}

# 1円未満の端数 ... 切り捨てる: the settlement clauses that state it (seed lines 269, 519, 2211, 3201, 1401).
TRUNCATES = {"baccarat": "8-1", "blackjack": "1-12-イ", "craps": "7-1", "pai-gow": "10-1",
             "texas-holdem-bonus": "第3 6-8-イ"}

PLAYABLE = {
    "roulette-single": [Bet("ann", "straight", 100, on="17"), Bet("bob", "red", 50), Bet("cy", "dozen", 30, on="1-2-3-4-5-6-7-8-9-10-11-12")],
    "roulette-double": [Bet("ann", "five_number", 100, on="0-00-1-2-3"), Bet("bob", "black", 20)],
    "money-wheel": [Bet("ann", "symbol_1", 10), Bet("bob", "symbol_7", 3)],
    "sic-bo": [Bet("ann", "small", 100), Bet("bob", "triple_6", 5), Bet("cy", "four_number_1_2_3_4", 7)],
    "baccarat": [Bet("ann", "banker", 15), Bet("bob", "player", 10), Bet("cy", "tie", 10), Bet("dee", "banker_pair", 9)],
    "craps": [Bet("ann", "field", 10), Bet("bob", "horn", 20), Bet("cy", "horn_high_12", 25), Bet("dee", "any_seven", 3)],
    "casino-war": [Bet("ann", "main", 100), Bet("ann", "tie", 10), Bet("ann", "additional", 100)],
    "pai-gow": [Bet("ann", "bet", 100), Bet("bob", "bet", 15), Bet("cy", "bet", 21)],
    "let-it-ride": [Bet("ann", "spot_1", 20), Bet("ann", "spot_2", 20), Bet("ann", "spot_3", 20)],
}


def generator():
    return rngcore.Generator(SEED, stream=3)


def opened(game, bets=None):
    r = Round(game)
    for bet in PLAYABLE[game] if bets is None else bets:
        r.place(bet)
    return r


def test_the_tables_cover_every_game_with_an_etable_mode():
    assert {n for n, g in GAMES.items() if g.etable is not None} == set(DETERMINATION) == set(PERMITTED)
    # games 000 does not cover have none in their modules: Big Six and the blackjacks of 001 / 002 (a round
    # engine declares the rounds of 002, harness/rounds/engines/twentyone_pa.py, with its own citations)
    assert GAMES["big-six"].etable is None and GAMES["pa-blackjack"].etable is None


@pytest.mark.parametrize("game", sorted(DETERMINATION))
def test_determination_point_and_fault_clause_follow_the_table(game):
    clause, point = DETERMINATION[game]
    etable = GAMES[game].etable
    assert etable.fault_clause.endswith(clause) and etable.fault_clause.startswith("000 別表第1")
    assert point in etable.determined_after


@pytest.mark.parametrize("game", sorted(PERMITTED))
def test_permitted_bets_follow_the_table(game):
    names, _ = PERMITTED[game]
    etable = GAMES[game].etable
    assert (None if etable.permitted is None else set(etable.permitted)) == names
    assert (etable.truncation is not None) == (game in TRUNCATES)
    if game in TRUNCATES:
        assert TRUNCATES[game] in etable.truncation


def test_craps_permits_000s_bets_and_refuses_002s():
    jp = {b.name for b in GAMES["craps"].analyse("jp").bets}
    assert {"pass", "field", "horn", "horn_high_2"} <= jp and not {"fire_bet_a", "hop_1_2", "whirl"} & jp
    r = Round("craps")
    for pa_only in ("hop_1_2", "whirl", "six_seven_eight"):
        with pytest.raises(RoundError, match="no bet"):
            r.place(Bet("ann", pa_only, 10))
    r.place(Bet("ann", "pass", 10))  # a multi-roll bet: the round rolls until it is decided
    assert {b.name for b in r.rules.bets.values()} <= jp  # 000's bets only, one-roll and multi-roll


def test_a_craps_horn_settles_each_share_as_its_own_bet():
    # 000 第5 8-2: the horn stake is split in four; on a 3 the quarter on three wins 15 to 1 (6-15),
    # the other three quarters are collected
    from harness.rounds.table import rules_for
    rules = rules_for("craps")
    three = GAMES["craps"].round_dealt("jp", {"index": 1 * 6 + 0}).features  # dice 2-1
    assert three["total"] == 3
    assert rules.settle(rules.rule("horn", None), 20, three) == ("three", money.Amounts(5, 15, 75))
    # horn high 12 (8-3): 2/5 on twelve, 1/5 on each other number
    assert rules.settle(rules.rule("horn_high_12", None), 25, three) == ("three", money.Amounts(5, 20, 75))
    seven = GAMES["craps"].round_dealt("jp", {"index": 3 * 6 + 2}).features
    assert rules.settle(rules.rule("horn", None), 20, seven) == ("lose", money.Amounts(0, 20, 0))
    with pytest.raises(RoundError, match="does not divide into whole yen"):
        Round("craps").place(Bet("ann", "horn", 10))


@pytest.mark.parametrize("game,bet,cites", [("baccarat", "super_six", "13 (L363)"),
                                             ("baccarat", "banker_no_commission", "13 (L363)")])
def test_an_unlisted_bet_is_refused_with_the_citation(game, bet, cites):
    r = Round(game)
    with pytest.raises(RoundError, match=r"not permitted in an electronic table game \(000 別表第1 第1 13 \(L363\)"):
        r.place(Bet("ann", bet, 100))
    assert all(e["kind"] != "bet" for e in r.events)


@pytest.mark.parametrize("stake", [0, -5, 1.5, True, "100"])
def test_a_stake_must_be_whole_positive_yen(stake):
    with pytest.raises(RoundError, match="whole number of yen"):
        Round("sic-bo").place(Bet("ann", "small", stake))


def test_unknown_bets_and_instances_are_refused():
    r = Round("roulette-single")
    with pytest.raises(RoundError, match="no bet 'lucky'"):
        r.place(Bet("ann", "lucky", 10))
    with pytest.raises(RoundError, match="needs 'on'"):
        r.place(Bet("ann", "straight", 10, on="37"))
    with pytest.raises(RoundError, match="takes no 'on'"):
        r.place(Bet("ann", "red", 10, on="1"))


def test_a_bet_after_betting_closed_is_refused():
    r = opened("sic-bo")
    r.close()
    with pytest.raises(RoundError, match="betting is closed"):
        r.place(Bet("ann", "big", 10))


@pytest.mark.parametrize("start", list(S))
@pytest.mark.parametrize("to", list(S))
def test_every_transition_is_legal_exactly_when_the_rules_say(start, to):
    r = Round("sic-bo")
    r.state = start
    if (start, to) in LEGAL:
        r._move(to)
        assert r.state is to and r.events[-1]["state"] == to.value
    else:
        with pytest.raises(RoundError, match="is not a legal transition"):
            r._move(to)
        assert r.state is start


def test_steps_out_of_order_are_refused():
    r = opened("sic-bo")
    with pytest.raises(RoundError):
        r.determine()
    with pytest.raises(RoundError):
        r.settle()
    r.close()
    with pytest.raises(RoundError):
        r.close()


def play(game, bets=None, fault_at=None, unreachable=()):
    """A whole round, faulting on entering ``fault_at``."""
    r = opened(game, bets)
    g = generator()
    steps = [(S.BETTING_CLOSED, r.close), (S.OUTCOME_GENERATION, lambda: r.generate(g)),
             (S.OUTCOME_DETERMINED, r.determine), (S.SETTLEMENT, None)]
    if fault_at is S.BETTING_OPEN:
        r.fault("injected", unreachable)
        return r
    for state, step in steps:
        if step is None:
            r.start_settlement()
        else:
            step()
        if state is fault_at:
            r.fault("injected", unreachable)
            return r
    r.settle(unreachable)
    return r


def settlements(r):
    return [(e["customer"], e["bet"], e["returned"], e["collected"], e["paid"])
            for e in r.events if e["kind"] in ("settlement", "unsettled")]


@pytest.mark.parametrize("game", sorted(PLAYABLE))
@pytest.mark.parametrize("fault_at", [S.BETTING_OPEN, S.BETTING_CLOSED, S.OUTCOME_GENERATION])
def test_a_fault_before_the_point_voids_and_returns_every_stake(game, fault_at):
    r = play(game, fault_at=fault_at)
    assert r.state is S.VOID
    assert settlements(r) == [(b.customer, b.bet, b.stake, 0, 0) for b in PLAYABLE[game]]
    assert not any(e["kind"] == "outcome" for e in r.events)
    fault = next(e for e in r.events if e.get("state") == "FAULT")
    assert fault["at"] == fault_at.value and fault["resolution"] == "void"
    assert fault["clause"] == GAMES[game].etable.fault_clause


@pytest.mark.parametrize("game", sorted(PLAYABLE))
@pytest.mark.parametrize("fault_at", [S.OUTCOME_DETERMINED, S.SETTLEMENT])
def test_a_fault_after_the_point_settles_on_what_was_dealt(game, fault_at):
    clean, faulted = play(game), play(game, fault_at=fault_at)
    assert faulted.state is S.DONE
    assert faulted.outcome.record == clean.outcome.record
    assert settlements(faulted) == settlements(clean)
    assert next(e for e in faulted.events if e.get("state") == "FAULT")["resolution"] == "settle"


@pytest.mark.parametrize("game", sorted(PLAYABLE))
def test_money_is_conserved_and_no_bet_is_settled_twice(game):
    for fault_at in [None, *S]:
        if fault_at in (S.DONE, S.VOID, S.FAULT):
            continue
        r = play(game, fault_at=fault_at)
        t = r.totals()
        assert t["staked"] == t["returned"] + t["collected"]
        indices = [e["index"] for e in r.events if e["kind"] in ("settlement", "unsettled")]
        assert sorted(indices) == list(range(len(r.bets)))


def test_an_unsettleable_customer_is_recorded_and_kept():
    r = play("sic-bo", unreachable={"bob"})
    assert r.state is S.DONE
    kinds = {e["customer"]: e for e in r.events if e["kind"] in ("settlement", "unsettled")}
    assert kinds["bob"]["kind"] == "unsettled" and "第6 11-1" in kinds["bob"]["reason"]
    assert kinds["ann"]["kind"] == "settlement"
    assert kinds["bob"]["returned"] + kinds["bob"]["collected"] == 5  # the amounts owed are kept
    void = play("sic-bo", fault_at=S.BETTING_CLOSED, unreachable={"ann"})
    assert [e["kind"] for e in void.events if e.get("customer") == "ann"] == ["bet", "unsettled"]


def test_baccarat_truncates_winnings_below_one_yen():
    # 000 第1 8-1 (L269): a banker win of 15 at 19 to 20 is 14.25 yen, paid 14
    assert money.settle(15, F(19, 20), "000 別表第1 第1 8-1") == money.Amounts(15, 0, 14)
    assert money.settle(20, F(19, 20), "000 別表第1 第1 8-1") == money.Amounts(20, 0, 19)
    with pytest.raises(ValueError, match="not whole"):
        money.settle(15, F(19, 20), None)
    assert money.settle(10, F(0), None) == money.Amounts(10, 0, 0)
    assert money.settle(10, F(-1), None) == money.Amounts(0, 10, 0)
    for seed_round in range(40):  # every banker win of 15 in real rounds pays 14
        r = Round("baccarat", round_id=seed_round)
        r.place(Bet("ann", "banker", 15))
        r.close(); r.generate(rngcore.Generator(SEED, stream=seed_round)); r.determine(); r.settle()
        (s,) = [e for e in r.events if e["kind"] == "settlement"]
        assert (s["paid"], s["returned"] + s["collected"]) in {(14, 15), (0, 15)}
        assert s["paid"] == (14 if r.outcome.features["winner"] == "banker" else 0)
        assert s["returned"] == (0 if r.outcome.features["winner"] == "player" else 15)


def test_a_round_settles_every_bet_by_the_pay_table():
    r = play("roulette-single")
    pocket = r.outcome.features["pocket"]
    assert r.outcome.shown == f"{pocket} {r.outcome.features['colour']}"
    got = {e["bet"]: e for e in r.events if e["kind"] == "settlement"}
    assert got["straight"]["paid"] == (3500 if pocket == "17" else 0)
    assert got["red"]["paid"] == (50 if r.outcome.features["colour"] == "red" else 0)
    s = play("sic-bo")
    dice = s.outcome.features["dice"]
    assert s.outcome.shown == "-".join(map(str, dice))
    small = next(e for e in s.events if e.get("bet") == "small" and e["kind"] == "settlement")
    assert small["paid"] == (100 if 4 <= sum(dice) <= 10 and len(set(dice)) > 1 else 0)


@pytest.mark.parametrize("game", sorted(PLAYABLE))
def test_an_outcome_is_re_derived_from_its_recorded_positions(game):
    r = play(game)
    (outcome,) = [e for e in r.events if e["kind"] == "outcome"]
    p = outcome["provenance"]
    assert p["mode"] == "replay" and p["stream"] == 3 and p["end"] > p["start"]
    g = rngcore.Generator(SEED, stream=3)
    g.seek(p["start"])
    again = r.rules.engine.round_outcome(g, r.rules.variant)
    assert again.record == outcome["record"] and again.shown == outcome["shown"]


def test_games_without_a_round_engine_say_so(monkeypatch):
    from harness.rounds import table
    from tests.rounds_support import declared_only

    for game in declared_only():
        with pytest.raises(RoundError, match="no round engine yet"):
            Round(game)
    # every declared game plays today: a game read without its registered engine shows the refusal
    monkeypatch.setattr(table, "engine_of", lambda g: g)
    with pytest.raises(RoundError, match=r"let-it-ride has no round engine yet \(its permitted bets and "
                                         r"determination point are declared; rounds are not played\)"):
        Round("let-it-ride")
    monkeypatch.undo()
    with pytest.raises(RoundError, match="no electronic table-game mode"):
        Round("big-six")
    with pytest.raises(RoundError, match="not the e-table game"):
        Round("baccarat", variant="macau")


def test_the_docs_table_is_the_registrys():
    from registry_support import ROOT
    from harness.rounds.table import markdown_table
    assert markdown_table() in (ROOT / "docs/rounds.md").read_text(encoding="utf-8"), \
        "regenerate the table in docs/rounds.md from harness.rounds.table.markdown_table()"
