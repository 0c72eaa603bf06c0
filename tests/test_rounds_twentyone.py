"""Twenty-one rounds (harness/rounds/engines/twentyone.py): the deal, the customer's decisions and the
stakes they add, the dealer's play, the settlement, replay and recovery.

The settlement is checked against :func:`reference`, a straightforward reading of 000 別表第1 第2 1
written here from the seed (5 the deal, 6 insurance, 7 even money, 8 the peek, 9 the customer's
choices, 10 the dealer, 11 and 12 the settlement, 13 the pair side bet): it replays the journaled
cards and actions and computes every stake's amounts without the engine's code.
"""
import random
import signal
from fractions import Fraction as F
from math import floor

import pytest

import rngcore
from harness.rounds import Bet, Round, RoundError, State, recall
from harness.games import twentyone as tw
from harness.rounds.engines import twentyone as engine
from harness.rounds.journal import Journal
from harness.rounds.table import rules_for

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
MAIN, PAIR = 100, 10
BETS = {"blackjack": [Bet("ann", "main", MAIN), Bet("ann", "pair", PAIR)],
        "blackjack-switch": [Bet("ann", "main", MAIN), Bet("ann", "main_2", MAIN), Bet("ann", "super_match", PAIR)],
        "pa-blackjack": [Bet("ann", "main", MAIN)],
        "deluxe-blackjack": [Bet("ann", "main", MAIN), Bet("ann", "pairs", PAIR), Bet("bob", "bet_behind", 50),
                             Bet("cy", "bet_behind", 20), Bet("bob", "pairs", PAIR)]}
#: How :func:`reference` reads each game's rules with its default options.
REFERENCE = {"blackjack": {}, "blackjack-switch": {"areas": 2},
             "pa-blackjack": {"pair": False, "max_hands": 3, "dealer_stops": "settled"},
             "deluxe-blackjack": {"bets": BETS["deluxe-blackjack"], "max_hands": 2, "dealer_stops": "naturals"}}
#: A Deluxe round of one customer's two seats (001 1. ベッティング): Pairs and bet-behinds on each seat.
TWO_SEATS = [Bet("ann", "main", MAIN), Bet("ann", "main_2", MAIN), Bet("ann", "pairs_2", PAIR), Bet("bob", "pairs", PAIR),
             Bet("bob", "bet_behind_2", 50), Bet("cy", "bet_behind", 20), Bet("dee", "bet_behind_2", 30),
             Bet("dee", "pairs_2", PAIR)]
TWO_SEATS_REFERENCE = {**REFERENCE["deluxe-blackjack"], "bets": TWO_SEATS}


# ------------------------------------------------------------------------------ the reference --

def points(code):
    return min(code & 0x0F, 10)


def total(codes):
    t = sum(points(c) for c in codes)
    return t + 10 if any(points(c) == 1 for c in codes) and t + 10 <= 21 else t


def soft(codes):
    t = sum(points(c) for c in codes)
    return any(points(c) == 1 for c in codes) and t + 10 <= 21


def natural(codes):
    return len(codes) == 2 and total(codes) == 21


def amounts(stake, net):
    """(returned, collected, paid) of ``stake`` at net ``net`` per unit; winnings truncated (12-イ)."""
    if net >= 0:
        return stake, 0, floor(stake * net)
    lost = stake * -net
    assert lost.denominator == 1
    return stake - int(lost), int(lost), 0


def reference(cards, actions, hole=True, h17=False, bj=F(3, 2), pair=True, areas=1, max_hands=4, surrender=True,
              busts_returned=False, dealer_stops="settled", bets=None, follow=(False, False)):
    """[(bet, stake, returned, collected, paid)] of a round dealt ``cards`` with ``actions`` (see the doc;
    ``busts_returned``: 12-ロ read for the whole area, option split-busts=returned; ``dealer_stops``: the
    dealer draws nothing when every hand is settled, busted (10-ハ), surrendered, a blackjack or paid
    even money (``settled``: no drawn card changes them, the C round's rule; Pennsylvania's 002
    § 549.13(c)), or only when every hand is a blackjack (``naturals``, Deluxe's 001 注意事項));
    ``bets``: the bets placed, for Deluxe Blackjack (001: the seat's ``main``, ``pairs`` by any customer
    on 001's pay table, each ``bet_behind`` following the seat: its insurance its own decision after the
    seats', its stake added to a double or a split by ``follow`` = (follow double, follow split); with
    ``main_2`` the customer's second seat, dealt and played after the first, with its own ``pairs_2`` and
    ``bet_behind_2``);
    ``areas=2``: Blackjack Switch (第2 2: two areas, insurance per hand, the switch of 8-ニ, the dealer
    hitting soft 17 and pushing on 22 (2-9, 2-10), every win 1 to 1, the Super Match of 2-12; the surrender
    of either or both hands after the switch and before any other action on the pair, 2-8-ハ)."""
    cards, actions = list(cards), list(actions)
    draw = lambda: cards.pop(0)  # noqa: E731
    act = lambda: actions.pop(0)  # noqa: E731
    switch = areas == 2
    if bets is not None and any(b.bet == "main_2" for b in bets):
        areas = 2                                                  # 001: the customer's second seat
    h17, bj = (True, F(1)) if switch else (h17, bj)
    firsts = [draw() for _ in range(areas)]                        # 5-イ (2-5-イ; 001 2. 初期の配札)
    up = draw()
    seconds = [draw() for _ in range(areas)]
    dealer = [up] + ([draw()] if hole else [])
    mains = ["main"] if areas == 1 else ["main", "main_2"]
    stakes = [[m, MAIN] for m in mains] + ([["super_match" if switch else "pair", PAIR]] if pair else [])
    if bets is not None:
        stakes = [[b.bet, b.stake] for b in bets]
    behinds = {seat: [stake for name, stake in stakes if name == ("bet_behind" if seat == 1 else "bet_behind_2")]
               for seat in (1, 2)}

    def followed(name, h):  # the bet-behinds of the hand's seat: stakes following its double or split
        original = h["n"] == h["area"]
        if (name == "split" and follow[1]) or (name == "double" and follow[0] and (original or follow[1])):
            stakes.extend([f"behind_{name}_{h['n']}", s] for s in behinds[h["area"]])

    hands = [{"n": k + 1, "area": k + 1, "cards": [firsts[k], seconds[k]], "split": False, "aces": False,
              "double": False, "gave_up": False, "even": False} for k in range(areas)]
    if points(up) == 1:                                            # 6-イ (per hand), 7-イ
        for h in hands:
            word = act()
            h["even"] = word == "even-money"
            if word == "insure":
                stakes.append(["insurance" if h["n"] == 1 else f"insurance_{h['n']}", MAIN // 2])
        for stake in behinds[1] + behinds[2]:                      # 001: each bet-behind's own insurance
            if act() == "insure":
                stakes.append(["behind_insurance", stake // 2])
    peeked_blackjack = hole and points(up) in (1, 10) and natural(dealer)   # 8-イ (2-7-イ)
    if not peeked_blackjack:
        if switch and act() == "switch":                           # 2-8-ニ
            hands[0]["cards"][1], hands[1]["cards"][1] = hands[1]["cards"][1], hands[0]["cards"][1]
        if switch and surrender and (hole or points(up) != 1):     # 2-8-ハ
            for h in hands:
                h["gave_up"] = act() == "surrender"
        i = 0
        while i < len(hands):                                      # 9 (2-8)
            h = hands[i]
            while not (natural(h["cards"]) or h["even"] or h["gave_up"]) and total(h["cards"]) < 21 \
                    and not h["double"] \
                    and not (h["aces"] and len(h["cards"]) == 2):
                word = act()
                if word == "stand":
                    break
                if word == "surrender":
                    h["gave_up"] = True
                    break
                if word == "split":
                    assert sum(x["area"] == h["area"] for x in hands) < max_hands
                    new = {"n": len(hands) + 1, "area": h["area"], "cards": [h["cards"].pop()], "split": True,
                           "double": False, "aces": points(h["cards"][0]) == 1, "gave_up": False, "even": False}
                    h["split"], h["aces"] = True, new["aces"]
                    stakes.append([f"split_{new['n']}", MAIN])
                    followed("split", new)
                    h["cards"].append(draw())
                    new["cards"].append(draw())
                    hands.insert(i + 1, new)
                    continue
                if word == "double":
                    h["double"] = True
                    stakes.append([f"double_{h['n']}", MAIN])
                    followed("double", h)
                h["cards"].append(draw())
            i += 1
    every_hand_busted = all(total(h["cards"]) > 21 for h in hands)   # 10-ハ: settled at once, notwithstanding イ
    if not hole and not every_hand_busted and not all(h["even"] for h in hands):   # 7-イ: paid at once
        dealer.append(draw())                                      # 10-イ
    blackjacks = [not h["split"] and natural(h["cards"]) for h in hands]
    stops = {"naturals": blackjacks,
             "settled": [total(h["cards"]) > 21 or h["gave_up"] or h["even"] or b for h, b in zip(hands, blackjacks)]}
    if not peeked_blackjack and not all(stops[dealer_stops]):
        while total(dealer) < 17 or (h17 and total(dealer) == 17 and soft(dealer)):
            dealer.append(draw())                                  # 10-ロ (2-9-ロ)
    assert not cards and not actions, "the reference used every card and action of the record"
    dealer_bj, d = natural(dealer), total(dealer)
    # 12-ロ: against a dealer blackjack one original stake per area, from its first hand still standing
    standing = {}
    for h in hands:
        if not (h["even"] or h["gave_up"] or (not h["split"] and natural(h["cards"])) or total(h["cards"]) > 21):
            standing.setdefault(h["area"], h["n"])

    def net(h, stake):
        if h["even"]:
            return F(1)                                            # 7-イ
        if h["gave_up"]:
            return F(-1, 2)                                        # 9-ハ
        if not h["split"] and natural(h["cards"]):
            return F(0) if dealer_bj else bj                       # 11-ロ-(1)-(一), 12-ハ
        t = total(h["cards"])
        if dealer_bj and busts_returned and h["area"] in standing:
            return F(-1) if stake == "main" else F(0)              # 12-ロ read for the whole area
        if t > 21:
            return F(-1)                                           # 11-ロ-(2)-(三)
        if dealer_bj:
            return F(-1) if stake != "double" and standing[h["area"]] == h["n"] else F(0)  # 11-ロ-(2)-(一), 12-ロ
        if switch and d == 22:
            return F(0)                                            # 2-10
        return F(1) if d > 21 or t > d else F(0) if t == d else F(-1)

    by = {h["n"]: h for h in hands}
    out = []
    for name, stake in stakes:
        follows = name.startswith(("behind_", "bet_behind"))
        name, shown = {"bet_behind": "main", "bet_behind_2": "main_2"}.get(name, name.replace("behind_", "")) \
            if follows else name, name
        if name in ("main", "main_2"):
            n = net(by[1 if name == "main" else 2], "main")
        elif name.startswith("split_"):
            n = net(by[int(name[6:])], "split")
        elif name.startswith("double_"):
            n = net(by[int(name[7:])], "double")
        elif name.startswith("insurance"):
            n = F(2) if dealer_bj else F(-1)                       # 6-ロ, 6-ハ
        elif name == "pair":                                       # 13-ロ, 13-ハ
            n = F(11) if (firsts[0] & 0x0F) == (seconds[0] & 0x0F) else F(-1)
        elif name in ("pairs", "pairs_2"):                         # 001 ペイアウト (ペア): the highest pattern
            a, b = (firsts[0], seconds[0]) if name == "pairs" else (firsts[1], seconds[1])
            suit, red = (lambda c: c >> 4 & 3), (lambda c: (c >> 4 & 3) in (1, 2))
            n = F(-1) if (a & 0x0F) != (b & 0x0F) else F(5) if red(a) != red(b) else F(10) if suit(a) != suit(b) \
                else F(50) if (up & 0xFF) == (a & 0xFF) else F(30)
        else:                                                      # 2-12-ロ, 2-12-ハ: by rank, as dealt
            ranks = sorted([sum((x & 0x0F) == (y & 0x0F) for y in firsts + seconds) for x in firsts + seconds])
            pays = {(4, 4, 4, 4): F(40), (1, 3, 3, 3): F(5), (2, 2, 2, 2): F(8), (1, 1, 2, 2): F(1)}
            n = pays.get(tuple(ranks), F(-1))
        out.append((shown, stake, *amounts(stake, n)))
    return out


# ------------------------------------------------------------------------------ playing rounds --

def play(rules, generator, options=None, actions=None, sink=None, round_id=1, bets=None) -> Round:
    r = Round(rules, round_id, sink=sink, options=options, actions=actions)
    for bet in BETS[rules.game.name] if bets is None else bets:
        r.place(bet)
    r.close()
    r.generate(generator)
    r.determine()
    r.settle()
    return r


@pytest.fixture
def random_choices(monkeypatch):
    """The customer chooses at random among the actions allowed (every decision the rules offer)."""
    return choosing_randomly(monkeypatch)


def choosing_randomly(monkeypatch) -> random.Random:
    """:func:`random_choices`' patch (its ``random.Random``, seeded 21)."""
    rnd = random.Random(21)
    real = engine.Decider.choose

    def choose(self, where, allowed, basic):
        self.strategy, self.actions = "script", list(self.taken) + [rnd.choice(sorted(allowed))]
        return real(self, where, allowed, basic)

    monkeypatch.setattr(engine.Decider, "choose", choose)
    monkeypatch.setattr(engine.Decider, "done", lambda self: None)
    return rnd


RULE_SETS = [
    ({}, {}),
    ({"deal": "no-hole-card", "dealer": "h17", "blackjack_pays": "6to5"}, {"hole": False, "h17": True, "bj": F(6, 5)}),
    ({"surrender": "no", "das": "no", "max_hands": 2, "even_money": "take"}, {}),
]


def settlements(r):
    return [(e["bet"], e["stake"], e["returned"], e["collected"], e["paid"])
            for e in sorted((e for e in r.events if e["kind"] == "settlement"), key=lambda e: e["index"])]


@pytest.mark.parametrize("game,options,ref", [("blackjack", *r) for r in RULE_SETS] + [
    ("blackjack-switch", {}, {"areas": 2}),
    ("blackjack-switch", {"deal": "no-hole-card", "max_hands": 2}, {"areas": 2, "hole": False, "max_hands": 2}),
    ("blackjack", {"deal": "no-hole-card", "split_busts": "returned"}, {"hole": False, "busts_returned": True}),
    ("blackjack-switch", {"surrender": "no"}, {"areas": 2, "surrender": False}),
    ("pa-blackjack", {}, REFERENCE["pa-blackjack"]), ("pa-blackjack", {"decks": 1}, REFERENCE["pa-blackjack"]),
    ("deluxe-blackjack", {}, REFERENCE["deluxe-blackjack"]),
    ("deluxe-blackjack", {"follow_double": "yes"}, {**REFERENCE["deluxe-blackjack"], "follow": (True, False)}),
    ("deluxe-blackjack", {"follow_double": "yes", "follow_split": "yes"},
     {**REFERENCE["deluxe-blackjack"], "follow": (True, True)}),
    ("deluxe-blackjack", {}, TWO_SEATS_REFERENCE),
    ("deluxe-blackjack", {"follow_double": "yes", "follow_split": "yes"}, {**TWO_SEATS_REFERENCE, "follow": (True, True)})])
def test_every_stake_settles_as_the_reference_reads_the_seed(game, options, ref, random_choices):
    rules = rules_for(game)
    checked = rules.check_options(options)
    g = rngcore.Generator(SEED, stream=11)
    seen = set()
    for n in range(250):
        r = play(rules, g, checked, round_id=n, bets=ref.get("bets"))
        record = r.outcome.record
        assert settlements(r) == reference(record["cards"], record["actions"], **ref), r.outcome.shown
        seen.update(e["bet"].split("_")[0] for e in r.events if e["kind"] == "stake")
        seen.update(e["bet"] for e in r.events if e["kind"] == "stake")
        seen.update(d["decision"] for d in (e for e in r.events if e["kind"] == "decision"))
    expected = {"split", "double", "insurance", "hit", "stand", "insure", "no-insurance"}
    if options.get("surrender") != "no":
        expected |= {"surrender"}
    if game == "blackjack-switch":
        expected |= {"switch", "keep"}
    if game == "deluxe-blackjack" and ref["bets"] is TWO_SEATS:  # both seats' stakes, the second seat's splits
        expected |= {"insurance_2", "split_3", "double_2"}
        follows = {"behind_insurance"} | ({"behind_double_1", "behind_double_2", "behind_split_3", "behind_double_3"}
                                          if all(ref.get("follow", (0, 0))) else set())
        behind = {b for b in seen if b.startswith("behind_")}
        assert follows <= behind <= follows | {"behind_split_4", "behind_double_4"}, behind  # hand 4: both split
    elif game == "deluxe-blackjack":  # each bet-behind's insurance; its stakes following the seat's (001)
        follows = {"behind_insurance"} | ({"behind_double_1"} if ref.get("follow", (0, 0))[0] else set()) \
            | ({"behind_split_2", "behind_double_2"} if all(ref.get("follow", (0, 0))) else set())
        behind = {b for b in seen if b.startswith("behind_")}
        assert behind == follows, behind
    assert expected <= seen  # the random customer met every kind of decision and stake


@pytest.mark.parametrize("split_busts", ["lost", "returned"])
def test_a_first_hand_bust_before_a_no_hole_card_blackjack_settles_as_the_reference(split_busts, random_choices):
    # 12-ロ: the original stake is the area's, whichever split hand busted: the first hand busts, a
    # later one stands, the dealer's card makes a blackjack (the random customer meets it by round 729).
    rules = rules_for("blackjack")
    checked = rules.check_options({"deal": "no-hole-card", "surrender": "no", "split_busts": split_busts})
    g = rngcore.Generator(SEED, stream=14)
    for n in range(1000):
        r = play(rules, g, checked, round_id=n)
        record = r.outcome.record
        assert settlements(r) == reference(record["cards"], record["actions"], hole=False, surrender=False,
                                           busts_returned=split_busts == "returned"), r.outcome.shown
        hands, dealer = r.outcome.shown.rsplit("; dealer ", 1)
        first, *split = hands.split("; ")
        if "(blackjack)" in dealer and "bust" in first and any("bust" not in h for h in split):
            break
    else:
        pytest.fail("no round met the case")
    nets = area_nets(r)
    busted = sum(2 if "doubled" in h else 1 for h in (first, *split) if h.endswith(": bust"))  # stakes lost at once
    assert nets["main"] == (F(-1) if split_busts == "returned" else F(-1 - busted))


@pytest.mark.parametrize("game,bets,ref", [(g, BETS[g], REFERENCE[g]) for g in sorted(BETS)]
                         + [("deluxe-blackjack", TWO_SEATS, TWO_SEATS_REFERENCE)])
def test_basic_strategy_rounds_settle_as_the_reference_and_conserve_money(game, bets, ref):
    rules = rules_for(game)
    g = rngcore.Generator(SEED, stream=12)
    added = 0
    for n in range(200):
        r = play(rules, g, round_id=n, bets=bets)
        record = r.outcome.record
        assert settlements(r) == reference(record["cards"], record["actions"], **ref)
        t = r.totals()
        stakes = [e for e in r.events if e["kind"] in ("bet", "stake")]
        assert t["staked"] == sum(e["stake"] for e in stakes) == t["returned"] + t["collected"]
        kinds = [e["kind"] for e in r.events]
        if "stake" in kinds:  # each additional stake right after its decision, all before the outcome
            added += 1
            assert max(i for i, k in enumerate(kinds) if k == "stake") < kinds.index("outcome")
            for i, k in enumerate(kinds):
                if k == "stake":
                    assert kinds[i - 1] in ("decision", "stake")
    assert added > 10


def test_the_record_replays_and_the_journal_re_derives(tmp_path):
    rules = rules_for("blackjack")
    path = tmp_path / "bj.sqlite"
    with Journal(path) as j:
        g = rngcore.Generator(SEED, stream=5)
        for _ in range(12):
            play(rules, g, sink=j.append, round_id=j.next_round_id())
        scripted = rules.engine.round_dealt("standard", j.events()[3][-1] and next(
            e for e in j.events()[3] if e["kind"] == "outcome")["record"])
        for round_id in j.events():
            replayed = recall.replay(j, round_id, SEED)
            assert replayed.equal, round_id
        assert j.verify().ok
    assert scripted.record["cards"]  # round_dealt rebuilt a journaled round from its record alone



#: (game, options, cards as (rank, suit), actions) of rounds whose every hand busts, and the classes they settle
EVERY_HAND_BUSTED = {
    "no hole card: the customer's cards only": (
        "blackjack", {"deal": "no-hole-card"}, [(10, 0), (2, 1), (2, 2), (12, 3)], ["hit"], {"main": "bust"}),
    "no hole card, insured: the insurance loses": (
        "blackjack", {"deal": "no-hole-card"}, [(10, 0), (1, 1), (2, 2), (12, 3)], ["insure", "hit"],
        {"main": "bust", "insurance": "lose"}),
    "the hole card, dealt at the start": (
        "blackjack", {}, [(10, 0), (2, 1), (2, 2), (9, 0), (12, 3)], ["hit"], {"main": "bust"}),
    "Switch, no hole card, both areas": (
        "blackjack-switch", {"deal": "no-hole-card", "surrender": "no"},
        [(10, 0), (10, 1), (6, 2), (2, 3), (3, 0), (12, 1), (13, 2)], ["keep", "hit", "hit"],
        {"main": "bust", "main_2": "bust"}),
}


@pytest.mark.parametrize("case", EVERY_HAND_BUSTED)
def test_when_every_hand_busted_the_dealer_takes_no_second_card(case):
    """10-ハ (2-9-ハ), seed L491: every hand busted, the round is settled at once, notwithstanding 10-イ (the
    no-hole-card dealer's second card): the journaled cards are the customer's (and a hole card dealt at the
    start) and no more; a record holding the dealer's card as well no longer replays."""
    from rngcore.devices.cards import encode

    game, options, dealt, actions, expected = EVERY_HAND_BUSTED[case]
    rules = rules_for(game)
    checked = rules.check_options(options)
    record = {"cards": [encode(r, s) for r, s in dealt], "actions": actions}
    round_ = rules.engine.round_dealt("standard", record, **checked)
    assert {k: round_.features[k] for k in expected} == expected, round_.shown
    assert round_.shown.endswith("(every hand busted: no second card)") == ("deal" in options)
    longer = {"cards": record["cards"] + [encode(9, 3)], "actions": actions}
    with pytest.raises(ValueError, match="its play used"):
        rules.engine.round_dealt("standard", longer, **checked)

def test_scripted_actions_play_replay_and_are_refused_with_their_place(tmp_path):
    rules = rules_for("blackjack")
    basic = play(rules, rngcore.Generator(SEED, stream=2))
    actions = basic.outcome.record["actions"]
    path = tmp_path / "s.sqlite"
    with Journal(path) as j:
        again = play(rules, rngcore.Generator(SEED, stream=2), actions=actions, sink=j.append)
        assert again.outcome.record == basic.outcome.record and settlements(again) == settlements(basic)
        assert recall.replay(j, 1, SEED).equal  # the scripted actions are journaled with the round
        assert j.events()[1][0]["actions"] == actions
    # a round whose first decision is a play of a hand that is not a pair: 'split' is refused there
    for stream in range(40):
        r = play(rules, rngcore.Generator(SEED, stream=stream))
        first = next((e for e in r.events if e["kind"] == "decision"), None)
        if first and first["decision"] in ("hit", "stand") and "insurance" not in first["at"]:
            break
    bad = Round(rules, 7, actions=["split"])
    bad.place(Bet("ann", "main", MAIN))
    bad.close()
    with pytest.raises(RoundError, match=r"round 7: blackjack: action 1 \(hand 1 .* against .*\): 'split' is not "
                                         r"allowed here \(allowed: stand, hit"):
        bad.generate(rngcore.Generator(SEED, stream=stream))
    assert bad.state is State.VOID and bad.totals()["returned"] == MAIN  # the round is void, nothing lost
    short = Round(rules, 8, actions=[])
    short.place(Bet("ann", "main", MAIN))
    short.close()
    with pytest.raises(RoundError, match="action 1 .*: the bet script has no action left for it"):
        short.generate(rngcore.Generator(SEED, stream=stream))


def test_the_cli_names_the_script_and_exits_2(tmp_path):
    from click.testing import CliRunner

    from harness.cli import main

    script = tmp_path / "bets.toml"
    script.write_text('actions = [["split"]]\n[[bets]]\ncustomer = "ann"\nbet = "main"\nstake = 100\n')
    run = CliRunner().invoke(main, ["play", "blackjack", "--journal", str(tmp_path / "j.sqlite"), "--bets",
                                    str(script), "--seed", SEED, "--stream", "3"])
    assert run.exit_code == 2
    assert f"{script}: round 1: blackjack: action 1" in run.output and "Traceback" not in run.output
    run = CliRunner().invoke(main, ["play", "blackjack", "--journal", str(tmp_path / "k.sqlite"), "--bets",
                                    str(script), "--seed", SEED, "--option", "strategy=basic"])
    assert run.exit_code == 2 and "'actions': blackjack: the bet script gives actions, but strategy=basic" in run.output


def test_bets_the_rules_refuse():
    rules = rules_for("blackjack")
    r = Round(rules, 1)
    with pytest.raises(RoundError, match="the 'pair' bet needs the customer's main bet placed first"):
        r.place(Bet("ann", "pair", 10))
    with pytest.raises(RoundError, match="insurance is offered after the deal"):
        r.place(Bet("ann", "insurance", 50))
    with pytest.raises(RoundError, match="not permitted in an electronic table game"):
        r.place(Bet("ann", "double_1", 100))
    with pytest.raises(RoundError, match="a stake of 15 on 'main' would settle in a fraction of a yen"):
        r.place(Bet("ann", "main", 15))  # surrender's and insurance's halves: an even main stake
    r.place(Bet("ann", "main", 100))
    with pytest.raises(RoundError, match="cannot join"):
        r.place(Bet("bob", "main", 100))
    odd = Round(rules, 2, options=rules.check_options({"even-money": "take", "blackjack-pays": "6to5"}))
    odd.place(Bet("ann", "main", 100))
    with pytest.raises(RoundError, match="even money is not offered with blackjack-pays=6to5"):
        odd.close()


# ------------------------------------------------------------------------ stops and recovery --

def doubled_stream(rules, bets=None, of=None) -> int:
    """A stream whose first basic-strategy round adds a stake (a double or a split; ``of``: a share of the
    round's bet of that index)."""
    for stream in range(200):
        r = play(rules, rngcore.Generator(SEED, stream=stream), bets=bets)
        if any(e["kind"] == "stake" and of in (None, e["to"]) for e in r.events):
            return stream
    raise AssertionError("no round with an additional stake in 200 streams")


STOPS = ["BETTING_OPEN", "BETTING_CLOSED", "OUTCOME_GENERATION", "OUTCOME_DETERMINED", "SETTLEMENT"]


def stopped_at(rules, path, stream, state, bets=None, actions=None) -> None:
    """A round with an additional stake, journaled up to ``state`` and left open (the process stops)."""
    with Journal(path) as j:
        r = Round(rules, 1, sink=j.append, actions=actions)
        for bet in BETS[rules.game.name] if bets is None else bets:
            r.place(bet)
        steps = {"BETTING_CLOSED": r.close,
                 "OUTCOME_GENERATION": lambda: r.generate(rngcore.Generator(SEED, stream=stream)),
                 "OUTCOME_DETERMINED": r.determine, "SETTLEMENT": r.start_settlement}
        for name, step in steps.items():
            if STOPS.index(name) > STOPS.index(state):
                break
            step()


def recovered_after_stop(path, state) -> tuple[list, list]:
    """Restart after :func:`stopped_at` ``state``: the recovery's invariants (finished by the rule, every
    stake settled exactly once, money conserved, a void returns everything); (events, settlement records)."""
    with Journal(path) as j:
        finished = recall.recover(j)
        assert recall.recover(j) == [] and j.verify().ok
        events = j.events()[1]
    settles = state in ("OUTCOME_DETERMINED", "SETTLEMENT")
    assert finished == [(1, state, "DONE" if settles else "VOID")]
    stakes = [e for e in events if e["kind"] in ("bet", "stake")]
    moves = [e for e in events if e["kind"] == "settlement"]
    assert sorted(m["index"] for m in moves) == list(range(len(stakes)))  # every stake exactly once
    assert sum(s["stake"] for s in stakes) == sum(m["returned"] + m["collected"] for m in moves)
    if state in ("OUTCOME_GENERATION", "OUTCOME_DETERMINED", "SETTLEMENT"):
        assert any(s["kind"] == "stake" for s in stakes)  # the additional stake was journaled before the stop
    if not settles:
        assert all(m["result"] == "void" and m["paid"] == 0 for m in moves)  # all returned, the added ones too
    return events, moves


@pytest.mark.parametrize("game,state", [
    (g, s) if g in ("blackjack", "pa-blackjack", "deluxe-blackjack") and s in ("OUTCOME_GENERATION",
                                                                             "OUTCOME_DETERMINED") else
    pytest.param(g, s, marks=pytest.mark.slow) for g in BETS for s in STOPS])
def test_a_round_stopped_at_each_state_is_finished_by_the_rule(tmp_path, game, state):
    rules = rules_for(game)
    path = tmp_path / f"{state}.sqlite"
    stopped_at(rules, path, doubled_stream(rules), state)
    events, moves = recovered_after_stop(path, state)
    if state in ("OUTCOME_DETERMINED", "SETTLEMENT"):
        outcome = next(e for e in events if e["kind"] == "outcome")["record"]
        assert [(m["bet"], m["stake"], m["returned"], m["collected"], m["paid"]) for m in moves] == \
            reference(outcome["cards"], outcome["actions"], **REFERENCE[game])


@pytest.mark.parametrize("state", STOPS)
def test_a_two_seat_round_stopped_at_each_state_is_finished_by_the_rule_for_both_seats(tmp_path, state):
    """001 1. ベッティング: the customer's second seat; a stop before the dealer's drawing ends returns every
    stake of both seats (the second seat's additional stake, its Pairs and bet-behinds too), one at or
    after it settles each seat's stakes on what was dealt, as the reference reads them."""
    rules = rules_for("deluxe-blackjack")
    path = tmp_path / f"{state}.sqlite"
    stopped_at(rules, path, doubled_stream(rules, TWO_SEATS, of=1), state, bets=TWO_SEATS)  # a stake of seat 2
    events, moves = recovered_after_stop(path, state)
    seat_2 = {"main_2", "pairs_2", "bet_behind_2"}
    assert seat_2 <= {m["bet"] for m in moves}
    if state in ("OUTCOME_DETERMINED", "SETTLEMENT"):
        outcome = next(e for e in events if e["kind"] == "outcome")["record"]
        assert outcome["seats"] == 2 and outcome["behind_2"] == [4, 6]
        assert [(m["bet"], m["stake"], m["returned"], m["collected"], m["paid"]) for m in moves] == \
            reference(outcome["cards"], outcome["actions"], **TWO_SEATS_REFERENCE)
    elif state != "BETTING_OPEN":
        added = [e for e in events if e["kind"] == "stake" and e["to"] == 1]  # seat 2's own
        assert (state == "OUTCOME_GENERATION") == bool(added)
        assert all(m["result"] == "void" and m["returned"] == m["stake"] for m in moves)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["blackjack", "pa-blackjack", "deluxe-blackjack", "deluxe-blackjack-two-seats"])
@pytest.mark.parametrize("target", ["BETTING_OPEN", "BET", "BETTING_CLOSED", "OUTCOME_GENERATION",
                                    "OUTCOME_DETERMINED", "SETTLEMENT", "DONE"])
@pytest.mark.parametrize("how", ["after-commit", "before-commit", "exception"])
def test_sigkill_at_every_state_of_a_twenty_one_round(tmp_path, game, target, how):
    sigkilled_and_recovered(tmp_path, game, target, how)


@pytest.mark.slow
def test_random_power_losses_in_two_seat_rounds(tmp_path):
    """200 random stop points in two-seat Deluxe rounds (record, before or after its commit), each followed
    by a restart: the invariants hold for every stake of both seats."""
    from tests.test_rounds_journal import random_power_losses

    random_power_losses(tmp_path, ["deluxe-blackjack"], 200, 23, bets={"deluxe-blackjack": TWO_SEATS})


def sigkilled_and_recovered(tmp_path, game, target, how):
    """A child journaling two rounds of ``game`` (``deluxe-blackjack-two-seats``: Deluxe with
    :data:`TWO_SEATS`) stopped at ``target`` by ``how``; the restart's invariants."""
    from tests.test_rounds_journal import check_recovered, run_child

    name, bets = ("deluxe-blackjack", {**BETS, "deluxe-blackjack": TWO_SEATS}) \
        if game == "deluxe-blackjack-two-seats" else (game, BETS)
    path, done = run_child(tmp_path, name, target, how, bets=bets)
    assert done.returncode in (-signal.SIGKILL, 1), done.stderr
    finished, rounds = check_recovered(path, name)
    if game == "deluxe-blackjack-two-seats":  # the child's finished round dealt both seats
        assert "main_2" in {e.get("bet") for e in rounds[1]}
    return finished


@pytest.mark.slow
def test_a_twenty_one_round_killed_mid_deal_is_voided_at_restart(tmp_path):
    from tests.test_rounds_journal import check_recovered, run_child

    path, done = run_child(tmp_path, "blackjack", "OUTCOME_GENERATION", "after-commit")
    assert done.returncode == -signal.SIGKILL, done.stderr
    finished, rounds = check_recovered(path, "blackjack")
    assert finished == [(2, "OUTCOME_GENERATION", "VOID")] and len(rounds) == 2


@pytest.mark.slow
def test_the_rounds_basic_strategy_is_the_games_analysed_chart():
    from harness.games.twentyone_game import infinite

    g = rules_for("blackjack").game
    for choices in ({}, {"deal": "no-hole-card", "dealer": "h17"}):
        rules = g.game_rules(**choices)
        analysed = infinite(rules)[1]
        chart = engine.basic_chart(rules)
        assert (chart.cells, chart.splits) == (analysed.cells, analysed.splits)


def test_the_determination_point_is_declared_with_its_citation():
    # the seed's words (1-19-イ, L643: 「10の処理が終了した後」; 2-18, L821: 「十」 read as 「2の九」),
    # and the digest's §3
    expected = {"blackjack": ("L643", "10の処理が終了した後", "1-19-イ", "item 10"),
                "blackjack-switch": ("L821", "「2の九」", "2-18 (applying 1-19-イ)", "item 9")}
    assert {row.game.name for row in engine.TABLE} == set(expected)
    for row in engine.TABLE:
        line, words, clause, item = expected[row.game.name]
        rules = rules_for(row.game.name)
        assert rules.engine.row is row
        assert line in row.point and words in row.point and item in row.point
        assert rules.etable.fault_clause.endswith(clause) and item in rules.etable.determined_after


def refusing(r: Round, steps) -> Round:
    """Place each bet of ``steps`` in ``r``: a ``(bet, words)`` pair is refused with a message matching
    ``words``, a bet alone is accepted."""
    for step in steps:
        bet, words = step if isinstance(step, tuple) else (step, None)
        if words is None:
            r.place(bet)
            continue
        with pytest.raises(RoundError, match=words):
            r.place(bet)
    return r


def test_the_pennsylvania_rounds_rules():
    """002 58 Pa. Code ch. 549: the wager only (§ 549.4(a)), no side wager, no even money, the fault rule
    read as 000's (ch. 549 has none), no rounding (an even stake), three hands at most (§ 549.12(c)(1))."""
    from harness.rounds.engines import twentyone_pa

    rules = rules_for("pa-blackjack")
    assert rules.engine.row is twentyone_pa.TABLE[0]
    e = rules.etable
    assert e.permitted == ("main", "insurance") and e.truncation is None
    assert "§ 549.4(a)" in e.permitted_source and "no side wager" in e.permitted_source
    assert "1-19-イ" in e.fault_clause and "none in 002" in e.fault_clause
    assert "§ 549.7(i)" in e.determined_after and "L643" in rules.engine.row.point
    assert not any(b.startswith("pair") or b == "even_money" for b in rules.bets)
    refusing(Round(rules, 1), [
        (Bet("ann", "insurance", 50), r"insurance is offered after the deal .*\(002 58 Pa. Code § 549.10\)"),
        (Bet("ann", "main", 25), "a stake of 25 on 'main' would settle in a fraction"),  # 3 to 2, § 549.9's half
        Bet("ann", "main", 100), (Bet("bob", "main", 100), "cannot join")])


def test_the_pennsylvania_dealer_draws_only_when_its_count_matters(random_choices):
    """§ 549.13(c): no dealer card after the hole card when every hand busted, surrendered or is a blackjack;
    the dealer draws to 17 otherwise (§ 549.13(b)); splits stop at three hands (§ 549.12(c)(1))."""
    rules = rules_for("pa-blackjack")
    g = rngcore.Generator(SEED, stream=40)
    quiet = drawn = hands = 0
    for n in range(600):
        r = play(rules, g, round_id=n)
        text, dealer = r.outcome.shown.rsplit("; dealer ", 1)
        dealt = len(dealer.split("(")[0].split())
        results = [part.rsplit(": ", 1)[1] for part in text.split("; ")]
        hands = max(hands, len(results))
        assert len(results) <= 3
        if "blackjack" in dealer:
            continue  # the peek ended the round
        if all(x in ("bust", "surrender", "blackjack_3to2") for x in results):
            assert dealt == 2, r.outcome.shown
            quiet += 1
        else:
            drawn += dealt > 2
    assert quiet > 20 and drawn > 100 and hands == 3


def test_the_deluxe_rounds_rules():
    """001: one customer's seat or two (the seat bets, equal), Pairs on a seat by any customer, bet-behinds
    by any other customer, one of each per customer and seat, after the seat's bet (1. ベッティング); even
    stakes (001 states no rounding); the point and the fault rule read with their citations (4. 結果,
    エラー処理)."""
    from harness.rounds.engines import twentyone_deluxe

    rules = rules_for("deluxe-blackjack")
    assert rules.engine.row is twentyone_deluxe.TABLE[0]
    e = rules.etable
    assert e.permitted == ("main", "main_2", "insurance", "pairs", "pairs_2", "bet_behind", "bet_behind_2")
    assert e.truncation is None
    assert "エラー処理" in e.fault_clause and "1-19-イ" in e.fault_clause and "4. 結果" in e.determined_after
    assert "ラウンド結果が確定する" in rules.engine.row.point and "L643" in rules.engine.row.point
    placed = refusing(Round(rules, 1), [
        (Bet("bob", "bet_behind", 50), "the 'bet_behind' bet needs the seat bet 'main' placed first"),
        (Bet("bob", "pairs", 10), "the 'pairs' bet needs the seat bet"),
        Bet("ann", "main", 100),
        (Bet("bob", "main", 100), "'ann' holds seat 1 .* a second one by 'main_2'"),
        (Bet("ann", "main", 100), "'ann' holds seat 1"),
        (Bet("ann", "bet_behind", 50), "'ann' cannot bet behind its own seat .*自分自身にベットビハインド"),
        (Bet("bob", "bet_behind", 25), "a stake of 25 on 'bet_behind' would settle in a fraction"),  # 3 to 2, 1/2
        Bet("bob", "bet_behind", 50),
        (Bet("bob", "bet_behind", 50), "'bob' already has a 'bet_behind' bet"),
        Bet("bob", "pairs", 5), Bet("ann", "pairs", 7),  # Pairs on any occupied seat, by any customer
        (Bet("cy", "insurance", 50), "insurance is offered after the deal"),
        (Bet("cy", "behind_double_1", 50), "not permitted .*001 1. ベッティング"),
        (Bet("bob", "pairs_2", 10), "the 'pairs_2' bet needs the seat bet 'main_2' placed first"),
        (Bet("bob", "bet_behind_2", 50), "the 'bet_behind_2' bet needs the seat bet 'main_2'"),
        (Bet("bob", "main_2", 100), "seat 2 is the seated customer 'ann''s second seat; .* 'bob' cannot take it"),
        (Bet("ann", "main_2", 50), "each seat takes the same seat bet .*同額のベット.*: 100 on 'main', got 50"),
        Bet("ann", "main_2", 100),
        (Bet("ann", "main_2", 100), "'ann' already holds seat 2"),
        (Bet("ann", "bet_behind_2", 50), "'ann' cannot bet behind its own seat"),
        Bet("bob", "bet_behind_2", 50), Bet("ann", "pairs_2", 10),
        (Bet("ann", "pairs_2", 10), "'ann' already has a 'pairs_2' bet")])
    assert [b.bet for b in placed.bets] == ["main", "bet_behind", "pairs", "pairs", "main_2", "bet_behind_2",
                                            "pairs_2"]
    assert rules.engine.behinds(tuple(b.bet for b in placed.bets)) == ((1,), (5,))
    for record in ({"cards": [1, 2, 3, 4], "actions": []},
                   {"cards": [1, 2, 3, 4], "actions": [], "behind": [], "seats": 2},      # seat 2's bet-behinds?
                   {"cards": [1, 2, 3, 4], "actions": [], "behind": [], "seats": 3, "behind_2": [], "behind_3": []}):
        with pytest.raises(ValueError, match="is not a Deluxe Blackjack round"):
            rules.engine.round_dealt("standard", record)


def test_two_seats_are_dealt_and_settled_in_seat_order():
    """001 2. 初期の配札: a first card to each seat, the dealer's, a second card to each seat, the hole card;
    3. 決定フェーズ: the seats decide in seat order; 注意事項: no more cards when every seat holds a blackjack,
    else the dealer draws to 17 (ディーラーのアクション); each seat's Pairs on its own first two cards."""
    from rngcore.devices.cards import encode

    engine_ = rules_for("deluxe-blackjack").engine
    two = {"behind": [], "seats": 2, "behind_2": []}
    ace, king, queen, seven, nine = encode(1, 0), encode(13, 0), encode(12, 1), encode(7, 1), encode(9, 2)
    both = engine_.round_dealt("standard", {"cards": [ace, encode(1, 1), encode(5, 3), king, queen, nine],
                                            "actions": [], **two})
    assert (both.features["main"], both.features["main_2"]) == ("blackjack_3to2", "blackjack_3to2"), both.shown
    assert both.shown.endswith("dealer 5C 9D (14)")  # every seat a blackjack: the dealer draws nothing
    one = engine_.round_dealt("standard", {"cards": [ace, encode(10, 1), encode(5, 3), king, seven, nine,
                                                     encode(3, 2)], "actions": ["stand"], **two})
    assert (one.features["main"], one.features["main_2"]) == ("blackjack_3to2", "push"), one.shown
    assert one.decisions[0]["at"].startswith("hand 2 10H 7H, hard 17")  # seat 2 decides; seat 1 has a blackjack
    pairs = engine_.round_dealt("standard", {"cards": [encode(8, 0), encode(9, 1), encode(5, 3), encode(8, 0, 1),
                                                       encode(9, 3), nine, encode(3, 0)], "actions": ["stand", "stand"],
                                             **two})
    assert (pairs.features["pairs"], pairs.features["pairs_2"]) == ("perfect_pair", "mixed_pair"), pairs.shown
    assert [d["at"].split(",")[0] for d in pairs.decisions] == ["hand 1 8S 8S", "hand 2 9H 9C"]


def test_a_deluxe_dealer_stops_only_when_every_hand_is_a_blackjack():
    """001 注意事項: the round ends without more cards on a dealer blackjack or when the seat holds blackjacks
    only; else the dealer draws to 17 (ディーラーのアクション), a busted seat too."""
    rules = rules_for("deluxe-blackjack")
    g = rngcore.Generator(SEED, stream=41)
    naturals = busted = 0
    for n in range(800):
        r = play(rules, g, round_id=n)
        text, dealer = r.outcome.shown.rsplit("; dealer ", 1)
        cards_, total_ = dealer.split(" (")
        if "blackjack" in dealer:
            continue
        if text.endswith("blackjack_3to2"):
            assert len(cards_.split()) == 2, r.outcome.shown
            naturals += 1
        elif text.endswith("bust"):
            assert int(total_.rstrip(")")) >= 17, r.outcome.shown
            busted += 1
    assert naturals > 10 and busted > 10


def test_the_switch_rounds_rules():
    rules = rules_for("blackjack-switch")
    assert rules.etable.fault_clause == "000 別表第1 第2 2-18 (applying 1-19-イ)"
    assert rules.etable.truncation is None and set(rules.permitted) == {"main", "main_2", "super_match"}
    r = Round(rules, 1)
    r.place(Bet("ann", "main", 100))
    with pytest.raises(RoundError, match="the pair of areas takes equal stakes"):
        r.place(Bet("ann", "main_2", 50))
    with pytest.raises(RoundError, match="needs the bet 'main_2'"):
        r.close()
    assert engine.super_match([1, 17, 33, 49]) == "four" and engine.super_match([2, 18, 34, 5]) == "three"
    assert engine.super_match([2, 18, 5, 21]) == "two_pair" and engine.super_match([2, 18, 5, 6]) == "pair"
    assert engine.super_match([2, 3, 4, 5]) == "lose"


@pytest.mark.slow
def test_the_rounds_switch_decisions_are_the_games():
    g = rules_for("blackjack-switch").game
    rules = g.game_rules()
    assert (engine.basic_swaps(rules) == g.swaps(rules, None)).all()


# ------------------------------------------------------------------------------- journal pins --

def _events_digest(game, options, rounds, stream, bets=None):
    """SHA-256 of every event (hence every journal record's body) of ``rounds`` rounds of ``game`` (``bets``:
    each round's, default :data:`BETS`'s)."""
    import hashlib
    import json

    rules = rules_for(game)
    checked = rules.check_options(options)
    g = rngcore.Generator(SEED, stream=stream)
    h = hashlib.sha256()
    for n in range(rounds):
        r = play(rules, g, checked, round_id=n + 1, bets=bets)
        for e in r.events:
            h.update(json.dumps(e, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


#: (game, options, rounds, stream) -> the digest of their events, pinned on the engine as it was before its
#: play and settlement were moved onto the game modules' functions (the journals must not change); the two
#: no-hole-card pins re-pinned when a round whose hands all bust stopped dealing the dealer's second card
#: (10-ハ, 2-9-ハ: its journaled cards end with the customer's), the hole-card pins unchanged by it; all
#: re-pinned when the dealer stopped drawing to hands settled already and dealing the second card after
#: even money (the C round's cards, docs/rounds.md: a round's cards changed, so the rounds after it too).
BASIC_PINS = {("blackjack", (), 60, 1): "ad143778c6528837ce757f6f8f4ee684e35b66b5eafe390e8d2cd6196bda9fde",
              ("blackjack-switch", (), 40, 2): "d7d2d0f57c55b61a93ad7b6d885388d78b155df03aeb62a8dc80d9b349a7cc75"}
RANDOM_PINS = {
    ("blackjack", (), 150, 3): "cca71c3cdd7c6dd9636a12ddc5bfab2a0bc8a8e88d97e89fa45cc759977618af",
    ("blackjack", (("deal", "no-hole-card"), ("dealer", "h17"), ("blackjack-pays", "6to5")), 150, 3):
        "a7a3d04fd274002f9fff536983222fd02ff82ed8eac31d128ed5524ac449d606",
    ("blackjack-switch", (("deal", "no-hole-card"),), 150, 3):
        "2c3ca8e7f9afe6ad1f7f4384a47c3a8c9bbc2e0d549c178542698f827bb9c90a"}


#: The bets of :data:`SEAT_PINS` by name.
PINNED_BETS = {"one seat": None, "two seats": TWO_SEATS, "pontoon": [Bet("ann", "main", MAIN)]}
FOLLOW = (("follow-double", "yes"), ("follow-split", "yes"))
#: (game, bets, options, rounds, stream, random choices) -> the digest of their events, pinned on the engine
#: before the seat's hands were played through harness.games.twentyone_seat.SeatPlay and Deluxe's seats
#: could be two customers' (the journals of the games and seats pinned above must not change).
SEAT_PINS = {
    ("pa-blackjack", "one seat", (), 60, 5, False):
        "adfce785d4cdc5b3885a15868003abb614d4d66034b44650f06bb6e7ae9f351c",
    ("pa-blackjack", "one seat", (), 150, 5, True):
        "9510382ef0fc5250fcd2b905e9c486d4f4f09e8cd013a5d1ae6d94d1c345de77",
    ("deluxe-blackjack", "one seat", (), 60, 6, False):
        "e799fd20a73596ef4b2b1a17988fc5050ee908d39f65d8b2c7de8ab5fe4df74f",
    ("deluxe-blackjack", "one seat", FOLLOW, 150, 6, True):
        "9095115a1c58c192ab1542892d86f6f78a1d9af8b65cea924741939a2f10bc09",
    ("deluxe-blackjack", "two seats", (), 40, 7, False):
        "63e60c589f2f919ddad04ba04084b8c80bca05b74dc90fd487a878ccebcc850c",
    ("deluxe-blackjack", "two seats", FOLLOW, 100, 7, True):
        "3e6afbbcb1e05d8e06812d69976e981988a77026b305b41b944b00277ac01565",
    ("pontoon", "pontoon", (), 60, 8, False):
        "80abf065efb46124c83ef333ea6ed13eccef3290c2a5aa7d3991a7f5f86ed464",
    ("pontoon", "pontoon", (), 150, 8, True):
        "03220f15ce3c54c0d50278b3e0bf4175d8f89fee1587282896122df76fd41b49"}


@pytest.mark.parametrize("key", sorted(SEAT_PINS))
def test_every_twenty_one_games_journals_are_pinned(key, monkeypatch):
    game, bets, options, rounds, stream, randomly = key
    if randomly:
        choosing_randomly(monkeypatch)
    assert _events_digest(game, dict(options), rounds, stream, PINNED_BETS[bets]) == SEAT_PINS[key]


def test_basic_strategy_journals_are_pinned():
    for (game, options, rounds, stream), pin in BASIC_PINS.items():
        assert _events_digest(game, dict(options), rounds, stream) == pin, (game, options)


def test_random_choice_journals_are_pinned(random_choices):
    for (game, options, rounds, stream), pin in RANDOM_PINS.items():
        random_choices.seed(21)
        assert _events_digest(game, dict(options), rounds, stream) == pin, (game, options)


# ----------------------------------------------------------- the C round engine, the same cards --

def area_nets(r) -> dict[str, F]:
    """Each main area's net per unit of its stake (the hand stakes of the area: its main bet, the splits and
    doubles added to it), and a bet-behind's (of a stake of ``MAIN``), from the round's settlement records;
    insurance and side bets apart."""
    events = {e["index"]: e for e in r.events if e["kind"] == "stake"}
    bets = [e for e in r.events if e["kind"] in ("bet", "stake")]
    area = {}
    for i, b in enumerate(bets):
        if b["bet"] in ("main", "main_2", "bet_behind"):
            area[i] = b["bet"]
        elif i in events and "insurance" not in b["bet"]:
            area[i] = bets[events[i]["to"]]["bet"]
    out = {}
    for e in r.events:
        if e["kind"] == "settlement" and e["index"] in area:
            out[area[e["index"]]] = out.get(area[e["index"]], 0) + F(e["paid"] - e["collected"], MAIN)
    return out


def c_table(rules, options):
    """The game's C round engine with the basic strategy the rounds play (and its switch decisions)."""
    from harness.games.twentyone_table import TwentyOneTable

    game_rules, decks = rules.engine.rules_of(options)
    swaps = engine.basic_swaps(game_rules) if game_rules.switch else None
    behind = tuple(options.get(f"follow_{what}") == "yes" for what in ("double", "split"))
    return TwentyOneTable(game_rules, rules.engine.chart(game_rules), rules.game.shoe_rules, decks, swaps=swaps,
                          behind=behind)


#: The bets the C engine's round is compared with: one bet-behind of the seat's stake (its net per unit).
C_BETS = {"deluxe-blackjack": [Bet("ann", "main", MAIN), Bet("ann", "pairs", PAIR), Bet("bob", "bet_behind", MAIN)]}


def c_engine_agrees(game, options, rounds, stream):
    rules = rules_for(game)
    checked = rules.check_options(options)
    table = c_table(rules, checked)
    g = rngcore.Generator(SEED, stream=stream)
    mains = []
    for n in range(rounds):
        r = play(rules, g, checked, round_id=n + 1, bets=C_BETS.get(game, BETS.get(game, [Bet("ann", "main", MAIN)])))
        codes = r.outcome.record["cards"]
        (a, b, behind), side, used, _ = table.round_areas(codes)
        mine = area_nets(r)
        assert (mine["main"], mine.get("main_2", F(0))) == (a, b), r.outcome.shown
        if "bet_behind" in mine:
            assert mine["bet_behind"] == behind, r.outcome.shown
        # the cards the C round takes, card for card (docs/rounds.md), but where the rounds' dealer
        # draws to settled hands: Deluxe's to a busted seat too (001 注意事項: only a seat of
        # blackjacks stops him), Pontoon's to a pontoon, a surrender or a rescue
        assert used == len(codes) if game not in ("deluxe-blackjack", "pontoon") else used <= len(codes), \
            r.outcome.shown
        labels = rules.game.side_labels_of(side)
        assert all(r.outcome.features[k] == v for k, v in labels.items() if k in r.outcome.features), r.outcome.shown
        mains.append(r.outcome.features["main"])
    return mains


@pytest.mark.parametrize("game,options", [
    ("blackjack", {}), ("blackjack-switch", {}), ("pa-blackjack", {}), ("deluxe-blackjack", {}),
    ("deluxe-blackjack", {"follow_double": "yes", "follow_split": "yes"}),
    pytest.param("deluxe-blackjack", {"follow_split": "yes"}, marks=pytest.mark.slow),
    pytest.param("blackjack", {"deal": "no-hole-card", "dealer": "h17"}, marks=pytest.mark.slow),
    pytest.param("blackjack-switch", {"deal": "no-hole-card"}, marks=pytest.mark.slow)])
def test_basic_rounds_play_as_the_c_engine_plays_the_same_cards(game, options):
    c_engine_agrees(game, options, 200, 31)


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"double-cards": "any", "das": "no"}])
def test_basic_pontoon_rounds_play_as_the_c_engine_plays_the_same_cards(options):
    c_engine_agrees("pontoon", options, 1000, 32)


def surrenders(hand, up, ctx, allowed):
    """A strategy that leaves most rounds settled but not busted: surrender where allowed, else hit
    below 17."""
    if tw.SURRENDER in allowed:
        return tw.SURRENDER
    return tw.HIT if tw.total(hand)[0] < 17 and tw.HIT in allowed else tw.STAND


@pytest.mark.parametrize("game,options", [("blackjack", {"deal": "no-hole-card", "even-money": "take"}),
                                          ("blackjack", {"even-money": "take"}),
                                          ("blackjack-switch", {"deal": "no-hole-card"})])
def test_settled_rounds_take_the_cards_the_c_round_takes(monkeypatch, game, options):
    """Every hand settled, none compared with the dealer's total (surrendered, a blackjack, even money):
    the dealer draws nothing, and without the hole card deals the second card but after even money;
    the rounds and the C round take the same cards from the same seeded shoes."""
    rules = rules_for(game)
    monkeypatch.setattr(rules.engine, "chart", lambda game_rules: surrenders)
    mains = c_engine_agrees(game, options, 300, 34)
    assert sum(m in ("surrender", "blackjack_3to2", "pontoon", "even_money") for m in mains) > 30


@pytest.mark.parametrize("deal", ["hole-card", "no-hole-card"])
def test_even_money_ends_the_round_where_the_c_round_ends_it(deal):
    """7-イ: even money is paid at once; no second card (no hole card) and no drawing follow."""
    from rngcore.devices.cards import encode

    rules = rules_for("blackjack")
    checked = rules.check_options({"deal": deal, "even-money": "take"})
    hole = [encode(6, 1)] if deal == "hole-card" else []
    record = {"cards": [encode(1, 0), encode(1, 1), encode(13, 2)] + hole, "actions": ["even-money"]}
    dealt = rules.engine.round_dealt("standard", record, **checked)
    assert dealt.features["main"] == "even_money"
    pad = [encode(5, 3), encode(4, 3), encode(9, 3)]          # the dealer would draw to
    assert c_table(rules, checked).round_areas(record["cards"] + pad)[2] == len(record["cards"])


def test_a_pairs_basic_surrender_is_the_strategys_first_decision(monkeypatch):
    """2-8-ハ (seed L709): both hands' surrenders are decided before any 8-ヘ action; basic surrenders a hand
    when the strategy's first action for it, a split open as the C engine asks it, is the surrender (one
    reading with the game's simulation): a pair the strategy splits is not surrendered."""
    from rngcore.devices.cards import encode

    class SplitsElseSurrenders:  # a strategy whose best play without the split is the surrender
        def __call__(self, hand, up, ctx, allowed):
            return next(a for a in (tw.SPLIT, tw.SURRENDER, tw.STAND) if a in allowed)

    rules = rules_for("blackjack-switch")
    monkeypatch.setattr(rules.engine, "chart", lambda game_rules: SplitsElseSurrenders())
    game_rules = rules.engine.rules_of({})[0]
    hands = [engine.Hand(1, [encode(8, 0), encode(8, 1)], area=1), engine.Hand(2, [encode(5, 0), encode(7, 2)], area=2)]
    decide, made = engine.Decider("blackjack-switch", "basic", None), []
    rules.engine._surrenders(hands, 10, "KH", game_rules, decide, lambda *a: made.append(a[0]))
    assert made == ["no-surrender", "surrender"] and [h.surrendered for h in hands] == [False, True]
