"""Stakes a round takes after betting closes (the money model of twenty-one's double, split and
insurance): each is a ``stake`` record journaled before the outcome, settled on its own rule,
returned with the rest by a fault before the determination point, and counted in the conservation
of every stake of the round.  A toy engine announces the stakes here, so this checks the round
machinery alone; tests/test_rounds_twentyone.py checks the twenty-one engine."""
from fractions import Fraction

import pytest

from harness.games.core import BetRule, Where, odds, rows
from harness.games.etable import Dealt, ETable
from harness.games.registry import GAMES
from harness.rounds import Bet, Round, RoundError, State, recall
from harness.rounds.journal import SCHEMA_VERSION, Journal
from harness.rounds.table import RoundRules

MAIN = BetRule("main", "toy", rows(("win", Where(main="win"), odds(1)), ("lose", Where(main="lose"), Fraction(-1))))
EXTRA = BetRule("double_1", "toy", rows(("win", Where(extra="win"), odds(1)),
                                        ("push", Where(extra="push"), Fraction(0)),
                                        ("lose", Where(extra="lose"), Fraction(-1))))
HALF = BetRule("insurance_1", "toy", rows(("win", Where(half="win"), odds(2)),
                                          ("lose", Where(half="lose"), Fraction(-1))))


class Toy:
    """A round engine whose one decision adds a double (the main stake again) and insurance (half)."""

    etable = ETable("toy", ("standard",), ("main",), "toy", "the toy's drawing", "toy fault clause")

    def round_bets(self, variant):
        return (MAIN, EXTRA, HALF)

    def round_outcome(self, generator, variant, **options):
        return self.round_dealt(variant, {})

    def round_dealt(self, variant, record, **options):
        adds = [{"bet": "double_1", "of": "main", "share": "1"}, {"bet": "insurance_1", "of": "main", "share": "1/2"}]
        return Dealt({"main": "win", "extra": "lose", "half": "win"}, "toy", {},
                     ({"decision": "double", "clause": "toy 9", "adds": adds},))


@pytest.fixture
def rules():
    return RoundRules(GAMES["casino-war"], "standard", {b.name: b for b in (MAIN, EXTRA, HALF)}, Toy())


def dealt_round(rules, sink=None) -> Round:
    r = Round(rules, 1, sink=sink)
    r.place(Bet("ann", "main", 100))
    r.close()
    r.generate(None)
    return r


def test_additional_stakes_are_journaled_before_the_outcome_and_settled_on_their_rules(rules):
    r = dealt_round(rules)
    kinds = [e["kind"] for e in r.events]
    assert kinds.index("decision") < kinds.index("stake") < len(kinds)
    stakes = [e for e in r.events if e["kind"] == "stake"]
    assert [(e["bet"], e["stake"], e["adds"], e["to"], e["index"]) for e in stakes] == [
        ("double_1", 100, "double", 0, 1), ("insurance_1", 50, "double", 0, 2)]
    r.determine()
    assert [e["kind"] for e in r.events].index("outcome") > kinds.index("stake")
    r.settle()
    paid = {e["bet"]: (e["returned"], e["collected"], e["paid"]) for e in r.events if e["kind"] == "settlement"}
    assert paid == {"main": (100, 0, 100), "double_1": (0, 100, 0), "insurance_1": (50, 0, 100)}
    t = r.totals()
    assert t["staked"] == 250 == t["returned"] + t["collected"]


def test_a_fault_before_the_point_returns_every_stake_the_additional_ones_too(rules):
    r = dealt_round(rules)
    r.fault("display failed after the double")
    assert r.state is State.VOID
    t = r.totals()
    assert (t["staked"], t["returned"], t["collected"], t["paid"]) == (250, 250, 0, 0)
    assert sorted(e["stake"] for e in r.events if e["kind"] == "settlement") == [50, 100, 100]


def test_a_fault_after_the_point_settles_every_stake(rules):
    r = dealt_round(rules)
    r.determine()
    r.fault("display failed after the dealer drew")
    assert r.state is State.DONE
    t = r.totals()
    assert (t["staked"], t["returned"], t["collected"], t["paid"]) == (250, 150, 100, 200)


def test_a_stake_is_added_only_while_the_outcome_is_generated(rules):
    r = Round(rules, 1)
    r.place(Bet("ann", "main", 100))
    with pytest.raises(RoundError, match="while the outcome is generated, not in BETTING_OPEN"):
        r.add_stake("double_1", "main", Fraction(1), "double")
    r.close()
    with pytest.raises(RoundError, match="not in BETTING_CLOSED"):
        r.add_stake("double_1", "main", Fraction(1), "double")
    r2 = Round(rules, 2)
    r2.place(Bet("ann", "main", 15))
    r2.close()
    with pytest.raises(RoundError, match="15/2 yen is not a whole stake"):  # half of 15: no rounding is invented
        r2.generate(None)


def test_a_killed_round_with_additional_stakes_is_recovered_by_the_rule(rules, tmp_path, monkeypatch):
    from harness.rounds import machine

    monkeypatch.setattr(machine, "rules_for", lambda game, variant=None: rules)  # restore reads the toy's rules
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        dealt_round(rules, sink=j.append)  # the process "dies" in OUTCOME_GENERATION, stakes journaled
    with Journal(path) as j:
        restored = Round.restore(j.events()[1])
        assert [(b.bet, b.stake) for b in restored.bets] == [("main", 100), ("double_1", 100), ("insurance_1", 50)]
        assert recall.recover(j) == [(1, "OUTCOME_GENERATION", "VOID")]
        s = recall.summary(j.events()[1])
        assert [(b["bet"], b["stake"], b.get("adds")) for b in s["bets"]] == [
            ("main", 100, None), ("double_1", 100, "double"), ("insurance_1", 50, "double")]
        assert sum(m["returned"] for m in s["settlements"]) == 250
        assert j.verify().ok


def test_a_schema_1_journal_is_migrated_and_stays_valid(tmp_path):
    path = tmp_path / "old.sqlite"
    with Journal(path) as j:
        r = Round("casino-war", 1, sink=j.append)
        r.place(Bet("ann", "main", 100))
        r.fault("before betting closed")
        tip = j.verify().tip
    import sqlite3

    db = sqlite3.connect(path)  # back to what a version-1 rngcert wrote (the records are the same)
    db.execute("DELETE FROM meta WHERE key = 'stake_records'")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Journal(path) as j:
        assert j.verify(tip_seen=tip).ok
        assert recall.summary(j.events()[1])["state"] == "VOID"
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()


def test_round_options_are_checked_once_per_table(monkeypatch):
    from harness.rounds.batch import Table
    from harness.rounds.table import RoundRules as Rules, rules_for

    rules = rules_for("casino-war")
    table = Table(rules, [Bet("ann", "main", 100), Bet("ann", "additional", 100)], {"decks": "6"})
    assert table.options == {"decks": 6} and rules.check_options(table.options) is table.options
    calls = []
    real = Rules.check_options
    monkeypatch.setattr(Rules, "check_options", lambda self, given: calls.append(given) or real(self, given))
    import rngcore

    table.play(rngcore.Generator("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", stream=1), 5)
    assert all(c is table.options for c in calls)  # the rounds are handed the table's checked options


def test_one_home_for_option_names():
    import click

    from harness.commands._options import parse_option_pairs
    from harness.games.base import named_options
    from harness.rounds.table import rules_for

    with pytest.raises(RoundError, match=r"casino-war rounds has no option 'deck' \(its options: decks, strategy\)"):
        rules_for("casino-war").check_options({"deck": 6})
    options = GAMES["blackjack"].options
    with pytest.raises(ValueError, match="blackjack: option max-hands given twice"):
        named_options("blackjack", options, [("max-hands", 2), ("max_hands", 3)])
    with pytest.raises(click.UsageError, match="blackjack: --option max-hands given twice"):
        parse_option_pairs("blackjack", options, ["max-hands=2", "max_hands=3"])
    with pytest.raises(click.UsageError, match="--option takes NAME=VALUE, got 'x'"):
        parse_option_pairs("blackjack", options, ["x", "bogus=1"])  # the first bad pair is named first
    assert parse_option_pairs("blackjack", options, ["max_hands=2", "dealer=h17"]) == {"max-hands": "2",
                                                                                      "dealer": "h17"}
