"""Twenty-one rounds in mode B (000 別表第1 第2 1-18, 2-17): one customer position against the dealer.

The games are the rows of :data:`TABLE` (blackjack, Blackjack Switch) and of the modules built on
:class:`TwentyOneRounds` (Pontoon: :mod:`harness.rounds.engines.twentyone_pontoon`); what follows is
blackjack's procedure, the others' differences are in their rows, their modules and ``docs/rounds.md``.

Built on the public rules of the twenty-one game modules (each game's
``game_rules`` from its options, its cited table, its side bets and their
classes) and the family's math (:mod:`harness.games.twentyone`: totals, the
legal actions of a hand, the dealer's drawing rule, the computed basic
strategy).  A round deals from a freshly shuffled stack of ``decks`` decks
(as baccarat's and Casino War's e-table rounds: 000 does not say how often
a virtual stack is reshuffled, digest §2): every card drawn is uniform over
the cards not yet drawn (a partial Fisher-Yates shuffle, one bounded draw a
card), in the order of 第2 1-5-イ: the customer's first card, the dealer's
up card, the customer's second card and, under the hole-card rule, the
dealer's hole card; then insurance or even money (6, 7), the peek (8), the
customer's choices (9: surrender, split, double, hit, stand), the dealer's
drawing (10) and the settlement (11, 12).

Why the round is played here, not in the C engine.  The game's C round engine
(:class:`harness.games.twentyone_table.TwentyOneTable`) plays a whole round from a strategy table
to one net per area.  A round of this engine is the source of truth of its own play, by design:
its decisions arrive one at a time (the bet script's, or the basic strategy's), each is checked
against what the rules allow at that point and journaled as its own record before the outcome,
each adds its stake as it is made, and every stake settles by its own class (a split's, a
double's, insurance, a surrender); none of that is in the kernel's result, and a script's
actions are no strategy table.  So the play is Python, and every rule it applies is the game
module's one home for it: the totals, the actions a hand may take, the dealer's drawing and the
settlement of a hand against the dealer (:mod:`harness.games.twentyone`:
``total``, ``allowed_actions``, ``dealer_stands``, ``dealer_outcome``, ``standard_settle``;
Pontoon's :mod:`harness.games.twentyone_pontoon`), the side bets' classes (each game's
``side_labels``), the basic strategy and the switch (the game's computed chart and
:func:`harness.games.twentyone_switch.swap_cells`).  The tests deal the rounds' own cards to the C
engine with the same strategy and check every area's net and side class are the kernel's.

Decisions.  Every decision point is one ``decision`` record, journaled
before the outcome; the customer's action comes from the round option
``strategy``: ``script`` takes the bet script's ``actions``, one per
decision point in order (an action the rules do not allow there, or a point
with none left, is refused with its place), ``basic`` the game's computed
basic strategy (the infinite-shoe optimum of its rules; insurance by the
sign of its exact infinite-shoe value, even money by the game's option
``even-money``).  Unless the option is given, a round with scripted actions
plays them and one without plays basic.

Stakes.  ``main`` is the original stake of the first hand; every stake the
round adds is an additional stake (:meth:`harness.rounds.machine.Round.add_stake`)
announced by its decision: ``insurance`` half the main stake (6-イ: "up to
half"; half is taken), ``split_K`` the original stake again for hand K
(9-ニ-(1)-(一)), ``double_K`` the original stake again on hand K (9-ニ-(2)-(一):
"up to" it; all of it is taken).  Each settles on its own rule (12): a
dealer blackjack collects only the original stake (12-ロ: one per main area,
from its first hand still standing, a split's or a double's stake returned;
``Rules.split_busts_returned``: the area's main stake only), a surrender
collects half the main stake and returns the rest (9-ハ), even money pays 1 to 1 (7-イ), a winning below 1 yen
is truncated (12-イ).  The main stake must be even: surrender's half and
insurance's half are whole yen only then, and 000 states no rounding of
either.

The determination point is the end of item 10, the dealer's drawing (1-19-イ,
seed L643: "10の処理が終了した後"; digest electronic_table_games.md §3, which
agrees; Blackjack Switch's is the end of its item 9, 2-18): each row of
:data:`TABLE` states it (``point``), and a round reaches it when
:meth:`TwentyOneRounds.round_outcome` returns, the dealer's hand finished.
Every card of the round, the customer's and the dealer's, is drawn before
it, so a fault anywhere before it voids
the round and returns every stake, the additional ones too; the engine
settles nothing earlier (a blackjack against a 2..9, 5-ハ, or a surrender,
9-ハ, is settled "at once" by the text, but a fault before item 10 voids the
round's result all the same, so settling it early changes nothing the
journal could show).
"""
from __future__ import annotations

import collections
import dataclasses
import functools
from fractions import Fraction

from harness.games import blackjack, blackjack_switch
from harness.games import twentyone as tw
from harness.games import twentyone_switch as sw
from harness.games.base import GameOption
from harness.games.core import BetRule, Where, odds, rows
from harness.games.etable import Dealt, ETable
from harness.games.twentyone_seat import SeatPlay
from harness.kernels import lib
from harness.rounds.engine import RoundEngine, equal_stake, one_position
from rngcore.devices import cards

STRATEGIES = ("basic", "script")
STRATEGY = GameOption.choice("strategy", "where the customer's actions come from: basic = the game's computed "
                                         "basic strategy (000 第2 1-9); script = the bet script's 'actions', one "
                                         "per decision point (docs/rounds.md; the default when the script gives "
                                         "them)", STRATEGIES)
#: The script's words for each decision (the play's are harness.games.twentyone's action names).
PLAY = {name: code for code, name in tw.ACTION_NAMES.items()}
INSURE = {"insure": True, "no-insurance": False}
EVEN = {"even-money": True, "no-even-money": False}
SWITCH = {"switch": True, "keep": False}
GIVE_UP = {"surrender": True, "no-surrender": False}
MAX_HANDS = 4  # per main area: the most any option allows (the games' max-hands options)


@dataclasses.dataclass(frozen=True)
class Row:
    """One twenty-one game's round facts beyond its module.

    Attributes
    ----------
    game : object
        The registered game (a :class:`~harness.games.twentyone_game.TwentyOneGame`).
    clause : str
        The game's items, as a decision record cites them (``"000 別表第1 第2 1"``).
    point : str
        The determination point and its citation: the step of the game after which a fault
        settles instead of voiding (the end of the dealer's drawing), where the deal ends.
    items : dict
        The game's item of each step a decision record cites (``"insurance": "6-イ"``).
    areas : int
        Main areas of the customer position: 1, or 2 (Blackjack Switch's pair of areas, 2-4-ハ,
        whose second cards may be switched, 2-8-ニ).
    etable : ETable or None
        The mode-B declaration, for a game whose module declares none (None: the module's).
    ranks : tuple of int
        The ranks of one deck of the game's stack (Pontoon's has no 10s, 第2 3-1).
    joiner : str
        What joins ``clause`` and an item in a citation: ``"-"`` for 000's numbered items
        (``"000 別表第1 第2 1-6-イ"``), ``" "`` for a source cited by section or heading
        (``"002 58 Pa. Code § 549.10"``).
    """

    game: object
    clause: str
    point: str
    items: dict
    areas: int = 1
    etable: ETable | None = None
    ranks: tuple = cards.STANDARD_RANKS
    joiner: str = "-"

    def cite(self, item: str) -> str:
        """The citation of the game's step ``item`` (a key of :attr:`items`)."""
        return f"{self.clause}{self.joiner}{self.items[item]}"


#: The games played.  000's blackjack declares its mode B in its module (第2 1-18); Blackjack Switch's
#: (第2 2-17, applying 1-18 with its own items) is declared here.
TABLE = (
    Row(blackjack.GAMES[0], blackjack.SOURCE,
        "item 10 (the dealer's drawing, 第2 1-10) is finished: 000 別表第1 第2 1-19-イ (seed L643, "
        "「10の処理が終了した後」); electronic_table_games.md §3",
        {"main": "4-ハ", "insurance": "6-イ", "even_money": "7-イ", "surrender": "9-ハ", "split": "9-ニ-(1)",
         "double": "9-ニ-(2)", "hit": "9-ニ-(3)", "stand": "9-ニ", "side": "13-イ"}),
    Row(blackjack_switch.GAMES[0], blackjack_switch.SOURCE,
        "item 9 (the dealer's drawing, 第2 2-9) is finished: 000 別表第1 第2 2-18 (seed L821: 1-19-イ applied, "
        "its 「十」 read as 「2の九」); electronic_table_games.md §3",
        {"main": "4-ハ", "insurance": "6-イ", "surrender": "8-ハ", "switch": "8-ニ", "split": "8-ヘ-(1)",
         "double": "8-ヘ-(2)", "hit": "8-ヘ-(3)", "stand": "8-ヘ", "side": "12-イ"},
        areas=2,
        etable=ETable("000 別表第1 第2 2-17 (applying 1-18)", ("standard",), ("main", "main_2", "super_match"),
                      "000 別表第1 第2 2-17 (applying 1-18): the bets of 2-4-ハ (the pair of areas) and, as an "
                      "additional bet, only 2-12-イ",
                      "item 9 (the dealer's drawing) is finished", "000 別表第1 第2 2-18 (applying 1-19-イ)",
                      note="insurance (2-6) is read as part of the main bets' procedure; 2-11 states no rounding "
                           "(every winning is whole yen at 1 to 1, 2 to 1 and the Super Match odds)")),
)


class Shoe:
    """The cards of one round: drawn from a fresh stack (``generator``), or read from a journaled record."""

    def __init__(self, decks: int, generator=None, recorded=None, game: str = "", ranks=cards.STANDARD_RANKS):
        self.left = [int(c) for c in cards.fresh_stack(decks, ranks)]
        self.generator, self.recorded, self.drawn, self.game = generator, recorded, [], game

    def draw(self) -> int:
        if self.recorded is None:  # a partial Fisher-Yates shuffle: uniform over the cards left
            j = int(self.generator.integers(0, len(self.left)))
            self.left[j], self.left[-1] = self.left[-1], self.left[j]
            code = self.left.pop()
        else:
            if len(self.drawn) >= len(self.recorded):
                raise ValueError(f"{self.game}: the journaled round has {len(self.recorded)} cards; its play needs "
                                 "more")
            code = self.recorded[len(self.drawn)]
            if type(code) is not int or code not in self.left:
                raise ValueError(f"{self.game}: journaled card {code!r} is not a card left in the stack")
            self.left.remove(code)
        self.drawn.append(code)
        return code


@functools.lru_cache(maxsize=16)
def basic_chart(rules: tw.Rules) -> tw.TableStrategy:
    """The computed basic strategy of ``rules``: the infinite-shoe optimum, every cell by exact EV
    (the strategy of the game's ``main`` analysis; its outcome laws are not needed here)."""
    return tw.infinite_deck_analysis(rules, distributions=False)[1]


def value(code: int) -> int:
    """Point value 1..10 of a card code (an ace 1; 10, J, Q, K 10: 5-ロ)."""
    return min(int(cards.rank_of(code)), 10)


def hand_of(codes) -> tuple:
    """The point-value multiset of card codes (:mod:`harness.games.twentyone`'s hand)."""
    return tw.of(*(value(c) for c in codes))


def shown(codes) -> str:
    """Card codes as printed (``"AS 10H"``)."""
    return " ".join(cards.card_label(c) for c in codes)


def blackjack_label(pays: Fraction) -> str:
    """The class of a blackjack paying ``pays`` (``"blackjack_3to2"``)."""
    return f"blackjack_{pays.numerator}to{pays.denominator}"


def hand_classes(blackjack, original: bool) -> list[tuple[str, Fraction]]:
    """(class, net per unit) of one stake on a hand (1-11, 1-12): an original stake (of a main area) may
    be a blackjack, surrendered or paid even money; a split's or a double's stake is returned against a
    dealer blackjack (12-ロ, ``returned``)."""
    first = [(blackjack_label(p), p) for p in blackjack] if original else []
    extra = [("even_money", odds(1)), ("surrender", Fraction(-1, 2))] if original else []
    return [*first, ("win", odds(1)), ("push", Fraction(0)), ("returned", Fraction(0)), *extra,
            ("bust", Fraction(-1)), ("lose", Fraction(-1))]


def hand_rule(slot: str, source: str, classes, note: str) -> BetRule:
    """The rule of one stake on a hand, read from the feature ``slot``: its ``classes`` (label, net per
    unit); a class paying 0 returns the stake."""
    return BetRule(slot, source, rows(*((label, Where(**{slot: label}), pays) for label, pays in classes)),
                   push_labels=frozenset(label for label, pays in classes if pays == 0), note=note)


class Decider:
    """The customer's actions: the script's in order (checked against what the rules allow), or basic."""

    def __init__(self, game: str, strategy: str, actions):
        self.game, self.strategy = game, strategy
        self.actions = None if actions is None else list(actions)
        self.taken: list[str] = []

    def choose(self, where: str, allowed: dict, basic) -> str:
        """The action at decision point ``where``: one of ``allowed`` (word -> meaning)."""
        n = len(self.taken) + 1
        if self.strategy == "basic":
            word = basic()
        elif self.actions is None or n > len(self.actions):
            raise ValueError(f"{self.game}: action {n} ({where}): the bet script has no action left for it "
                             f"(allowed: {', '.join(allowed)})")
        else:
            word = self.actions[n - 1]
            if word not in allowed:
                raise ValueError(f"{self.game}: action {n} ({where}): {word!r} is not allowed here "
                                 f"(allowed: {', '.join(allowed)})")
        self.taken.append(word)
        return word

    def done(self) -> None:
        """At the round's end: ValueError if the script gave more actions than it had decision points."""
        if self.strategy == "script" and self.actions is not None and len(self.actions) > len(self.taken):
            raise ValueError(f"{self.game}: the bet script gives {len(self.actions)} actions for the round, which "
                             f"had decision points for {len(self.taken)} (the first unused: "
                             f"{self.actions[len(self.taken)]!r})")


@dataclasses.dataclass
class Hand:
    """One hand of the customer position as the round plays it (its card codes and what was done to it)."""

    number: int          # 1.. the original hands (one per main area), then the hands splits formed, in order
    codes: list
    area: int = 1
    split: bool = False  # formed by a split (so a two-card 21 is not a blackjack)
    aces: bool = False   # a split ace
    doubled: bool = False
    surrendered: bool = False
    even_money: bool = False
    rescued: bool = False  # Pontoon's double rescue (3-7-ホ): the double stake withdrawn, the hand finished
    hard: bool = False     # its aces count 1 (Pontoon's doubled hand, 3-5-ロ-(1))

    @property
    def hand(self) -> tuple:
        return hand_of(self.codes)

    @property
    def points(self) -> tuple[int, bool]:
        """(total, soft) by the game's count (:func:`harness.games.twentyone.total`; every ace 1 if ``hard``)."""
        return (tw.hard_total(self.hand), False) if self.hard else tw.total(self.hand)

    @property
    def original(self) -> bool:
        """One of the hands dealt at the start, one per main area (the rest a split formed)."""
        return self.number == self.area

    @property
    def natural(self) -> bool:
        return not self.split and tw.is_natural(self.hand)

    @property
    def bust(self) -> bool:
        return tw.hard_total(self.hand) > 21

    def describe(self) -> str:
        t, soft = self.points
        return f"hand {self.number} {shown(self.codes)}, {'soft' if soft else 'hard'} {t}"


class TwentyOneRounds(RoundEngine):
    """The round engine of one twenty-one game of :data:`TABLE` (see the module doc)."""

    takes_actions = True  # a round may carry the bet script's actions (Round(actions=...))
    natural_word = "blackjack"  # what the shown outcome calls a dealer's two-card 21

    def __init__(self, row: Row):
        self.row, self.game = row, row.game
        self.name = self.game.name
        self.etable = row.etable
        self.round_options = tuple(o for o in self.game.options if not o.file) + (STRATEGY,)

    # -- the rules ------------------------------------------------------------------------------

    def rules_of(self, options: dict) -> tuple[tw.Rules, int]:
        """(the twenty-one rules of the game options given, decks)."""
        choices = {k: v for k, v in options.items() if k not in ("strategy", "decks", "actions")}
        rules = self.game.game_rules(**choices)
        decks = options.get("decks") or self.game.fixed_decks or self.game.entry("decks").value
        return rules, decks

    def round_bets(self, variant: str) -> tuple:
        return self._bets()

    @functools.lru_cache(maxsize=None)
    def _bets(self) -> tuple:
        areas, most = self.row.areas, MAX_HANDS * self.row.areas

        def hand(slot, kind):
            return hand_rule(slot, self.row.clause, self.hand_classes(kind), self.hand_note)

        out = [hand(self.main_slot(k), "original") for k in range(1, areas + 1)]
        out += [hand(f"split_{k}", "split") for k in range(areas + 1, most + 1)]
        out += [hand(f"double_{k}", "double") for k in range(1, most + 1)]
        out += [self.insurance_rule(k) for k in range(1, areas + 1)]
        for side in self.game.side_bets(8):
            out.append(BetRule(side.name, side.source, rows(*((o.label, Where(**{side.name: o.label}), o.net)
                                                              for o in side.outcomes)), note=side.note))
        return tuple(out)

    def insurance_rule(self, k: int) -> BetRule:
        """The insurance of original hand ``k`` (main area ``k``): half its stake, an additional stake."""
        insurance, slot = self.game.entry("insurance_pays"), self.insurance_slot(k)
        return BetRule(slot, insurance.source, rows(("win", Where(**{slot: "win"}), insurance.value),
                                                    ("lose", Where(**{slot: "lose"}), Fraction(-1))),
                       note=f"half the stake of {self.main_slot(k)!r}, taken as a decision when the up card "
                            f"is an ace ({self.row.items['insurance']})")

    hand_note = "a hand's stake (11, 12); 'returned': a split's or a double's stake against a dealer blackjack (12-ロ)"

    def hand_classes(self, kind: str) -> list[tuple[str, Fraction]]:
        """(class, net per unit) of a stake on a hand: ``kind`` ``original`` (a main area's), ``split`` (a
        hand a split formed) or ``double`` (a double's stake)."""
        return hand_classes(sorted(set(self._blackjack_pays())), kind == "original")

    def _blackjack_pays(self):
        option = self.game.option("blackjack-pays")
        if option is None:
            return (self.game.game_rules().blackjack_pays,)
        return tuple(self.game.game_rules(blackjack_pays=c).blackjack_pays for c in option.choices)

    @staticmethod
    def main_slot(k: int) -> str:
        """The bet of original hand ``k`` (main area ``k``)."""
        return "main" if k == 1 else f"main_{k}"

    @staticmethod
    def insurance_slot(k: int) -> str:
        return "insurance" if k == 1 else f"insurance_{k}"

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        one_position(self.name, bet, placed)
        if bet.bet.startswith("insurance"):
            raise ValueError(f"{self.name}: insurance is offered after the deal when the up card is an ace "
                             f"({self.row.cite('insurance')}): it is an additional stake of the round (a decision), not "
                             "a bet placed at the betting")
        main = next((b for b in placed if b.bet == "main"), None)
        if bet.bet != "main" and main is None:
            raise ValueError(f"{self.name}: the {bet.bet!r} bet needs the customer's main bet placed first "
                             f"({self.row.cite('main' if bet.bet.startswith('main') else 'side')})")
        if bet.bet.startswith("main_"):
            equal_stake(self.name, f"the pair of areas takes equal stakes ({self.row.cite('main')})", main, bet)

    def check_bets(self, bets: tuple, options: dict):
        names = {b.bet for b in bets}
        for k in range(1, self.row.areas + 1):
            if self.main_slot(k) not in names:
                return 0, (f"a {self.name} round needs the bet {self.main_slot(k)!r} (the hand bet of main area {k}, "
                           f"{self.row.cite('main')})")
        try:
            self.game.check_together(None, {k: v for k, v in options.items() if k not in ("strategy", "actions")})
        except ValueError as exc:
            return 0, str(exc)
        return None

    def check_actions(self, actions, options: dict) -> None:
        """Refuse (ValueError) scripted ``actions`` with ``strategy=basic``, which decides every action,
        and ``strategy=script`` without them."""
        if actions is not None and options.get("strategy") == "basic":
            raise ValueError(f"{self.name}: the bet script gives actions, but strategy=basic decides every action; "
                             "leave the option out (or give strategy=script) to play them")
        if actions is None and options.get("strategy") == "script":
            raise ValueError(f"{self.name}: strategy=script plays the bet script's 'actions', and it gives none")

    # -- dealing --------------------------------------------------------------------------------

    def round_outcome(self, generator, variant: str, *, strategy: str | None = None, actions=None,
                      **options) -> Dealt:
        self.check_actions(actions, {"strategy": strategy})
        strategy = strategy or ("basic" if actions is None else "script")
        rules, decks = self.rules_of(options)
        shoe = Shoe(decks, generator, game=self.name, ranks=self.row.ranks)
        return self._play(shoe, Decider(self.name, strategy, actions), rules, options)

    def round_dealt(self, variant: str, record: dict, *, strategy: str | None = None, actions=None,
                    **options) -> Dealt:
        if not isinstance(record, dict) or not isinstance(record.get("cards"), list) \
                or not isinstance(record.get("actions"), list):
            raise ValueError(f"{self.name}: {record!r} is not a twenty-one round (cards and actions)")
        rules, decks = self.rules_of(options)
        shoe = Shoe(decks, recorded=record["cards"], game=self.name, ranks=self.row.ranks)
        dealt = self._play(shoe, Decider(self.name, "script", record["actions"]), rules, options)
        if len(shoe.drawn) != len(record["cards"]):
            raise ValueError(f"{self.name}: the journaled round has {len(record['cards'])} cards; its play used "
                             f"{len(shoe.drawn)}")
        return dealt

    def _play(self, shoe: Shoe, decide: Decider, rules: tw.Rules, options: dict) -> Dealt:
        """One round by the game's items (blackjack 第2 1-5 .. 1-12; see the module doc)."""
        areas = self.areas_of(options)
        decisions: list[dict] = []

        def decision(word: str, where: str, item: str, adds=(), hand: Hand | None = None) -> None:
            """One decision record; ``hand``: the hand a split formed or a double doubled (the stake it adds)."""
            d = {"decision": word, "at": where, "clause": self.row.cite(item), "strategy": decide.strategy}
            adds = [*adds, *self.following_stakes(item, hand, options)]
            if adds:
                d["adds"] = list(adds)
            decisions.append(d)

        # 5-イ: one card to each main area, the dealer's up card, a second card to each area, the hole card
        firsts = [shoe.draw() for _ in range(areas)]
        up = shoe.draw()
        seconds = [shoe.draw() for _ in range(areas)]
        dealer = [up] + ([shoe.draw()] if rules.hole_card else [])
        hands = [Hand(k + 1, [firsts[k], seconds[k]], area=k + 1) for k in range(areas)]
        upv = value(up)
        insured: set = set()
        against = cards.card_label(up)
        for h in hands if upv == tw.ACE else ():
            if h.natural and self._even_money_offered(rules):   # 7-イ
                where = f"even money: {h.describe()} against {against}"
                word = decide.choose(where, EVEN, lambda: "even-money" if rules.take_even_money else "no-even-money")
                h.even_money = EVEN[word]
                decision(word, where, "even_money")
                continue
            where = f"insurance: {h.describe()} against {against}"  # 6-イ: per hand
            word = decide.choose(where, INSURE,
                                 lambda: "insure" if self._insurance_value(rules) > 0 else "no-insurance")
            if INSURE[word]:
                insured.add(h.number)
            decision(word, where, "insurance", [{"bet": self.insurance_slot(h.number), "of": self.main_slot(h.number),
                                                 "share": "1/2"}] if INSURE[word] else ())
        if upv == tw.ACE:
            self.after_insurance(against, rules, decide, decision, options)
        dealer_bj_known = rules.peeks(upv) and tw.is_natural(hand_of(dealer))  # the peek (1-8-イ, 2-7-イ)
        if not dealer_bj_known and self.row.areas == 2:
            a, b = hands
            where = f"switch: {a.describe()}, {b.describe()} against {against}"
            word = decide.choose(where, SWITCH, lambda: "switch" if self._basic_switch(rules, upv, a, b) else "keep")
            if SWITCH[word]:
                a.codes[1], b.codes[1] = b.codes[1], a.codes[1]
            decision(word, where, "switch")
            self._surrenders(hands, upv, against, rules, decide, decision)
        if not dealer_bj_known:
            self._customer(hands, upv, against, rules, decide, decision, shoe)
        # the dealer's hand, unless every hand busted (10-ハ, 2-9-ハ: settled at once, notwithstanding
        # 10-イ, so not even the second card is dealt) or was paid even money (7-イ: at once, the seat's
        # round over), its drawing cannot change the round otherwise (dealer_draws) or a blackjack was
        # found at the peek: the cards the game's C round takes, card for card
        every_hand_busted = all(h.bust for h in hands)
        paid_even_money = all(h.even_money for h in hands)
        if not rules.hole_card and not (every_hand_busted or paid_even_money):
            dealer.append(shoe.draw())                                 # 10-イ: the second card face up
        if not dealer_bj_known and self.dealer_draws(hands):
            while not tw.dealer_stands(hand_of(dealer), rules.hit_soft_17):
                dealer.append(shoe.draw())                             # 10-ロ
        decide.done()
        features = self._settle(hands, dealer, insured, rules, firsts, seconds)
        d_hand = hand_of(dealer)
        d_total = (self.natural_word if tw.is_natural(d_hand) else
                   str(tw.total(d_hand)[0]) if len(dealer) > 1 else
                   "even money: no second card" if paid_even_money else "every hand busted: no second card")
        text = "; ".join(f"{h.describe()}{' doubled' if h.doubled else ''}: {features[self._slot(h)]}"
                         for h in hands)
        return Dealt(features, f"{text}; dealer {shown(dealer)} ({d_total})",
                     {"cards": list(shoe.drawn), "actions": list(decide.taken)}, tuple(decisions))

    def _surrenders(self, hands, upv, against, rules, decide, decision) -> None:
        """A pair of areas (2-8-ハ, seed L709): the surrender of either or both hands comes before any 8-ヘ
        action on the pair (and after the switch, which a surrender would bar, 8-ニ), one decision a hand.

        Basic surrenders a hand when the strategy's first decision for it is the surrender: the cell the
        game's C engine asks at the hand's first action, a split open (the area holds one hand).  No card
        is drawn for the decision and the cell reads only the hand and the up card, so asking it for both
        hands first (the seed's order) plays exactly what the game's simulation plays, which asks the
        second area's at its first action, after the first area's play (docs/table_games.md)."""
        if not rules.may_surrender(upv):
            return
        for h in hands:
            where = f"surrender: {h.describe()} against {against}"
            acts = tw.allowed_actions(rules, upv, h.hand, tw.Context(), 1 < rules.max_hands)
            word = decide.choose(where, GIVE_UP, lambda: "no-surrender" if h.natural else
                                 "surrender" if self.chart(rules)(h.hand, upv, tw.Context(), acts) == tw.SURRENDER
                                 else "no-surrender")
            h.surrendered = GIVE_UP[word]
            decision(word, where, "surrender")

    def _customer(self, hands, upv, against, rules, decide, decision, shoe) -> None:
        """The customer's choices (1-9, 2-8) for each hand in turn, in the seat's play order
        (:class:`~harness.games.twentyone_seat.SeatPlay`: a split's new hand is played right after the hand
        it came from); ``hands`` ends in that order.  A blackjack, an even-money hand, a 21, a split ace or
        a bust chooses nothing; a doubled hand chooses only what :meth:`allowed` gives it (Pontoon's rescue)."""
        seat = SeatPlay(tuple(hands))
        while not seat.done:
            h = seat.playing
            while not (h.natural or h.even_money or h.surrendered or h.rescued):
                ctx = tw.Context(split=h.split, split_aces=h.aces, doubled=h.doubled)
                room = sum(x.area == h.area for x in seat.hands) < rules.max_hands  # hands per main area (9-ヘ-(2))
                acts = self.allowed(rules, upv, h, ctx, room)
                if acts == (tw.STAND,):
                    break
                allowed = {tw.ACTION_NAMES[a]: a for a in acts}
                where = f"{h.describe()}{' doubled' if h.doubled else ''} against {against}"
                word = decide.choose(where, allowed,
                                     lambda: tw.ACTION_NAMES[self.chart(rules)(h.hand, upv, ctx, acts)])
                act = allowed[word]
                if act == tw.STAND:
                    decision(word, where, "stand")
                    break
                if act in (tw.SURRENDER, tw.RESCUE):
                    h.surrendered, h.rescued = act == tw.SURRENDER, act == tw.RESCUE
                    decision(word, where, "surrender" if h.surrendered else "rescue")
                    break
                if act == tw.SPLIT:
                    new = Hand(seat.held + 1, [h.codes.pop()], split=True, aces=value(h.codes[0]) == tw.ACE,
                               area=h.area)
                    h.split, h.aces = True, new.aces
                    decision(word, where, "split",
                             [{"bet": f"split_{new.number}", "of": self.main_slot(h.area), "share": "1"}], new)
                    seat = seat.split(h, new)
                    h.codes.append(shoe.draw())     # one card to each, the kept hand's first (9-ニ-(1))
                    new.codes.append(shoe.draw())
                    continue
                if act == tw.DOUBLE:
                    h.doubled, h.hard = True, rules.pontoon  # a doubled hand's aces count 1 (3-5-ロ-(1))
                    decision(word, where, "double",
                             [{"bet": f"double_{h.number}", "of": self.main_slot(h.area), "share": "1"}], h)
                else:
                    decision(word, where, "hit")
                h.codes.append(shoe.draw())         # a hit, or the double's one card
                if h.bust:
                    break                           # 9-ホ
            seat = seat.next()
        hands[:] = seat.hands

    def following_stakes(self, item: str, hand: Hand | None, options: dict) -> list[dict]:
        """The stakes other bets add with a decision of the seat (``item``; ``hand``, the hand a split
        formed or a double doubled, None for other items), each ``{"bet", "of", "share"}``; none here
        (Deluxe's bet-behind follows a double or a split)."""
        return []

    def areas_of(self, options: dict) -> int:
        """The main areas a round deals (its original hands): the row's (Deluxe: the customer's seats)."""
        return self.row.areas

    def after_insurance(self, against: str, rules: tw.Rules, decide: Decider, decision, options: dict) -> None:
        """Decisions of other customers once the seat's insurance is decided (an ace up, ``against``); none
        here (Deluxe's bet-behind insures on its own)."""

    def dealer_draws(self, hands) -> bool:
        """Whether the dealer draws to the hands the customer's choices left: only when a hand stands to
        be compared with the dealer's total (11-イ).  Every hand busted, 10-ハ (2-9-ハ) settles at once;
        a hand already settled (a blackjack, 5-ハ; even money, 7-イ; a surrender, 9-ハ; a rescue) is not
        changed by the dealer's total, so the round draws no card for it, as the game's C round does
        (docs/rounds.md; Pontoon's rounds keep the literal reading)."""
        return any(not (h.bust or h.natural or h.even_money or h.surrendered or h.rescued) for h in hands)

    def chart(self, rules: tw.Rules) -> tw.TableStrategy:
        """The computed basic strategy ``strategy=basic`` plays (:func:`basic_chart`)."""
        return basic_chart(rules)

    def allowed(self, rules: tw.Rules, up: int, h: Hand, ctx: tw.Context, room: bool) -> tuple[str, ...]:
        """The actions open to hand ``h`` (:func:`harness.games.twentyone.allowed_actions`): a doubled hand
        takes no more cards (9-ニ-(3)), a pair's surrenders were decided before any play (2-8-ハ)."""
        if h.doubled:
            return (tw.STAND,)
        acts = tw.allowed_actions(rules, up, h.hand, ctx, room)
        return tuple(a for a in acts if a != tw.SURRENDER) if self.row.areas == 2 else acts

    def _basic_switch(self, rules: tw.Rules, up: int, a: Hand, b: Hand) -> bool:
        """The switch by the exact values of the two candidate pairs of hands (the game's own decision,
        :func:`harness.games.twentyone_switch.swap_cells`, with the basic strategy's hand values)."""
        cell = lib.kern_tw_swap_cell(up, *(value(x) for x in (a.codes[0], a.codes[1], b.codes[0], b.codes[1])))
        return bool(basic_swaps(rules)[cell])

    def _even_money_offered(self, rules: tw.Rules) -> bool:
        """Even money (7-イ): where the game's table has it, and not with a 6 to 5 blackjack (12-ニ)."""
        offered = any(e.name == "even_money" and e.value for e in self.game.table)
        return offered and rules.blackjack_pays == self.game.entry("blackjack_pays").value

    def _insurance_value(self, rules: tw.Rules) -> Fraction:
        """Insurance's exact value per unit on an infinite shoe (the game's deck: 16 ten-value cards in 52,
        Pontoon's 12 in 48): basic declines it."""
        pays = self.game.entry("insurance_pays").value
        size, tens = self.game.deck
        return pays * Fraction(tens, size) - Fraction(size - tens, size)

    # -- settlement -----------------------------------------------------------------------------

    def _slot(self, h: Hand) -> str:
        return self.main_slot(h.number) if h.original else f"split_{h.number}"

    def _settle(self, hands, dealer, insured: set, rules: tw.Rules, firsts, seconds) -> dict:
        """Each stake's class (1-11, 1-12; 2-10, 2-11): the rule of every stake reads its own feature."""
        d_hand = hand_of(dealer)
        dealer_bj = tw.is_natural(d_hand)
        outcome = tw.dealer_outcome(d_hand, rules.dealer_22_push)
        features: dict = {b.name: None for b in self._bets()}
        for k in insured:
            features[self.insurance_slot(k)] = "win" if dealer_bj else "lose"
        # 12-ロ (2-11-ロ), no hole card: a dealer blackjack takes one original stake per area from its
        # hands still standing, the first of them (Rules.split_busts_returned: the area's original stake,
        # its split hands' busts returned too; the game's twentyone.Rules and docs/table_games.md).
        obo = dealer_bj and rules.original_bet_only
        standing = {h.area for h in hands if not (h.even_money or h.surrendered or h.natural or h.bust)}
        lost_original: set = set()
        for h in hands:
            original = h.original
            returned = obo and rules.split_busts_returned and h.area in standing
            if h.even_money:
                label = "even_money"                       # 7-イ: 11 and 12 do not apply
            elif h.surrendered:
                label = "surrender"                        # 9-ハ
            elif h.natural:
                label = "push" if dealer_bj else blackjack_label(rules.blackjack_pays)
            elif h.bust:
                label = "returned" if returned and not original else "bust"   # 11-ロ-(2)-(三)
            elif dealer_bj:                                # 11-ロ-(2)-(一); 12-ロ: original stakes only
                first = original if rules.split_busts_returned else h.area not in lost_original
                label = "lose" if first or not rules.original_bet_only else "returned"
                lost_original.add(h.area)
            else:
                net = tw.standard_settle(h.hand, outcome, h.split)  # a dealer 22 pushes in Switch (2-10)
                label = "win" if net > 0 else "push" if net == 0 else "lose"
            features[self._slot(h)] = label
            if h.doubled:
                features[f"double_{h.number}"] = "returned" if obo and (returned or not h.bust) else label
        if self.row.areas == 1:  # the pair side bet on the seat's first two cards (1-13)
            features.update(self.game.side_labels(firsts[0], dealer[0], seconds[0]))
        else:  # the Super Match on the four first cards of the pair of areas, as dealt (2-12)
            features["super_match"] = super_match(firsts + seconds)
        return features


@functools.lru_cache(maxsize=8)
def basic_swaps(rules: tw.Rules):
    """The switch decisions of the game's analysis (2-8-ニ), from the basic strategy's exact hand values."""
    return sw.swap_cells(rules, tw.infinite_deck_analysis(rules, distributions=False)[0])


def super_match(codes) -> str:
    """The Super Match class of four cards by rank (2-12-ロ: four, three, two pair, a pair; else lose)."""
    counts = sorted(collections.Counter(int(cards.rank_of(c)) for c in codes).values(), reverse=True)
    if counts[0] == 4:
        return "four"
    if counts[0] == 3:
        return "three"
    if counts[:2] == [2, 2]:
        return "two_pair"
    return "pair" if counts[0] == 2 else "lose"


ROUND_ENGINES = tuple(TwentyOneRounds(row) for row in TABLE)
