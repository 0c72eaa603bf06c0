"""Baccarat (punto banco): the bets of 000 別表第1 第1, 003 and 004 as data,
exact results for any shoe composition, and the rules a dealt shoe follows.

A round is reported by the C kernel (``csrc/kernels/baccarat.h``) as one of 7200
outcome classes: final totals, cards per hand and the pair state of the two
initial hands.  :func:`class_features` turns a class into the features a pay
table may test; every bet below is a pay table over those features, so a new
side bet is one more :class:`~harness.games.core.BetRule` entry.

Features: ``player_total``, ``banker_total``, ``player_cards``,
``banker_cards`` (2 or 3), ``winner`` (``"player"``, ``"banker"``, ``"tie"``),
``margin`` (|difference of totals|), ``player_natural``, ``banker_natural``
(a two-card 8 or 9), ``player_pair``, ``banker_pair`` (first two cards of one
rank, 000 第1 9-2; "pair" = same rank per 003 Art. 13(4) and 004),
``player_suited_pair``, ``banker_suited_pair`` (same rank and suit),
``pairs`` (0, 1, 2 hands paired) and ``same_rank_pairs`` (both hands paired
with one rank, 004 Tiger Pair "twin").
"""
from __future__ import annotations

import dataclasses
import functools
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from rngcore.devices import cards as device_cards
from rngcore.devices.cards import MAX_DECKS, STANDARD_RANKS
from rngcore.devices.rulesets import rule_set as device_rule_set
from rngcore.devices.shoe import Shoe
from harness.games import _native
from harness.games.base import Analysis, Game, GameOption, _replay, _run
from harness.games.etable import Dealt, ETable
from harness.games.core import PUSH, BetResult, BetRule, Where, assert_unique_names, odds, result_from_weights, rows
from harness.games.simulate import BetSimulation, Simulation, class_counts, goodness_of_fit

CLASSES = 7200
PAIR_STATES = 18
FACES = 52  # face index = suit * 13 + rank - 1, the label order of rngcore.devices.cards
MIN_DECKS = 1


@functools.lru_cache(maxsize=None)
def class_features(index: int) -> dict[str, Any]:
    """Features of outcome class ``index`` (layout in csrc/kernels/baccarat.h)."""
    if not 0 <= index < CLASSES:
        raise ValueError(f"baccarat class index must be in 0..{CLASSES - 1}, got {index}")
    rest, ps = divmod(index, PAIR_STATES)
    rest, nb = divmod(rest, 2)
    rest, np_ = divmod(rest, 2)
    pt, bt = divmod(rest, 10)
    rest_ps, twin = divmod(ps, 2)
    pp, bp = divmod(rest_ps, 3)
    player_cards, banker_cards = np_ + 2, nb + 2
    return {
        "player_total": pt,
        "banker_total": bt,
        "player_cards": player_cards,
        "banker_cards": banker_cards,
        "winner": "player" if pt > bt else "banker" if bt > pt else "tie",
        "margin": abs(pt - bt),
        "player_natural": player_cards == 2 and pt >= 8,
        "banker_natural": banker_cards == 2 and bt >= 8,
        "player_pair": pp > 0,
        "banker_pair": bp > 0,
        "player_suited_pair": pp == 2,
        "banker_suited_pair": bp == 2,
        "pairs": (pp > 0) + (bp > 0),
        "same_rank_pairs": bool(twin),
    }


JP = "000 別表第1 第1"
SBO = "004"
TIE = Where(winner="tie")


def _dragon_bonus(side: str) -> BetRule:
    won = dict(winner=side)
    natural = f"{side}_natural"
    margins = ((9, 30), (8, 10), (7, 6), (6, 4), (5, 2), (4, 1))
    return BetRule(
        f"dragon_bonus_{side}", f"{SBO} ドラゴンボーナス (pay table)",
        rows(
            ("natural_win", Where(**won, **{natural: True}), odds(1)),
            ("natural_tie", Where(winner="tie", **{natural: True}), PUSH),
            *((f"win_by_{m}", Where(**won, margin=m, **{natural: False}), odds(pays)) for m, pays in margins),
        ),
        push_labels=frozenset({"natural_tie"}),
        note="004's prose says 30 to 1 is for a natural winning by 9; its table (followed here) pays "
             "every natural win 1 to 1 and 30 to 1 for a non-natural win by 9",
    )


def _banker_six(cards: int | tuple) -> Where:
    return Where(winner="banker", banker_total=6, banker_cards=cards)


BETS: tuple[BetRule, ...] = (
    BetRule("banker", f"{JP} 4-3-ロ, 7-2-ロ, 8-2-ロ; 003 Art. 17-1, 18; {SBO} 賞金配当",
            rows(("win", Where(winner="banker"), odds(19, 20)), ("push", TIE, PUSH)),
            push_labels=frozenset({"push"}),
            note="19 to 20 = even money less 5% commission (003, 004); 000 8-1 truncates winnings below 1 yen"),
    BetRule("player", f"{JP} 4-3-イ, 7-2-イ, 8-2-イ; 003 Art. 17-1; {SBO} 賞金配当",
            rows(("win", Where(winner="player"), odds(1)), ("push", TIE, PUSH)),
            push_labels=frozenset({"push"})),
    BetRule("tie", f"{JP} 4-3-ハ, 7-2-ハ, 8-2-ハ; 003 Art. 17-2; {SBO} 賞金配当",
            rows(("win", TIE, odds(8))),
            note="004 prints '1:8' (reversed notation for 8 to 1)"),
    BetRule("player_pair", f"{JP} 9-1-イ, 9-2-イ, 9-3; 003 Art. 13(4), 17-3; {SBO} ペア・ベット",
            rows(("win", Where(player_pair=True), odds(11))),
            note="000 does not define 'pair'; same rank (003 Art. 13(4), 004)"),
    BetRule("banker_pair", f"{JP} 9-1-ロ, 9-2-ロ, 9-3; 003 Art. 13(4), 17-3; {SBO} ペア・ベット",
            rows(("win", Where(banker_pair=True), odds(11))),
            note="000 does not define 'pair'; same rank (003 Art. 13(4), 004)"),
    BetRule("banker_no_commission", f"{JP} 8-3; {SBO} ノーコミッションバカラ",
            rows(("win_on_6", Where(winner="banker", banker_total=6), odds(1, 2)),
                 ("win", Where(winner="banker"), odds(1)),
                 ("push", TIE, PUSH)),
            push_labels=frozenset({"push"})),
    BetRule("super_six", f"{SBO} スーパー6",
            rows(("win", Where(winner="banker", banker_total=6), odds(12))),
            note="004 '配当は12倍' read as 12 to 1 (12 for 1 would be 11 to 1)"),
    BetRule("tiger", f"{SBO} タイガーのプレー方法",
            rows(("win_3_cards", _banker_six(3), odds(20)), ("win_2_cards", _banker_six(2), odds(12)))),
    BetRule("fortune_six", f"{SBO} フォーチュン・シックス",
            rows(("win_3_cards", _banker_six(3), odds(20)), ("win_2_cards", _banker_six(2), odds(12))),
            note="the same pay table as Tiger"),
    BetRule("big_tiger", f"{SBO} ビッグタイガーをプレー方法", rows(("win", _banker_six(3), odds(50)))),
    BetRule("small_tiger", f"{SBO} スモールタイガーをプレー方法", rows(("win", _banker_six(2), odds(22))),
            note="004 defines the win as exactly 2 cards but its payout sentence says 'exactly 3 cards'; "
                 "read as 2 cards (3 cards is Big Tiger)"),
    BetRule("tiger_tie", f"{SBO} タイガータイをプレー方法",
            rows(("win", Where(winner="tie", banker_total=6), odds(35)))),
    BetRule("tiger_pair", f"{SBO} タイガーペアをプレー方法",
            rows(("twin", Where(same_rank_pairs=True), odds(100)),
                 ("double", Where(pairs=2), odds(20)),
                 ("single", Where(pairs=1), odds(4))),
            note="twin = both hands paired with the same rank ('同じ番号またはお揃い絵札', e.g. J-J and J-J)"),
    _dragon_bonus("player"),
    _dragon_bonus("banker"),
)


# ------------------------------------------------------------ compositions --

def shoe_faces(decks: int) -> np.ndarray:
    """Face counts (52, label order of rngcore.devices.cards) of a fresh shoe."""
    if not isinstance(decks, (int, np.integer)) or not MIN_DECKS <= decks <= MAX_DECKS:
        raise ValueError(f"decks must be a whole number in {MIN_DECKS}..{MAX_DECKS}, got {decks!r}")
    return np.full(FACES, int(decks), dtype=np.uint32)


def faces_of_cards(codes: Sequence[int]) -> np.ndarray:
    """Face counts of a collection of card codes (rngcore.devices.cards)."""
    codes = np.asarray(codes, dtype=np.uint16)
    rank, suit = codes & 0x0F, (codes >> 4) & 0x03
    if np.any((rank < 1) | (rank > 13)) or np.any(codes & 0xC0):
        raise ValueError("card codes must be rngcore.devices.cards codes (rank 1..13 in bits 0-3, suit in bits 4-5)")
    return np.bincount(suit.astype(np.int64) * 13 + rank - 1, minlength=FACES).astype(np.uint32)


def _check_faces(faces) -> np.ndarray:
    arr = np.asarray(faces)
    if arr.shape != (FACES,):
        raise ValueError(f"a composition is {FACES} face counts (suit * 13 + rank - 1), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer) or np.any(arr < 0):
        raise ValueError("face counts must be non-negative integers")
    total = int(arr.sum())
    if not 6 <= total <= 1024:
        raise ValueError(f"a composition must hold 6..1024 cards (a round may need 6), got {total}")
    return np.ascontiguousarray(arr, dtype=np.uint32)


def exact_counts(faces) -> tuple[np.ndarray, int]:
    """Exact counts of every outcome class of the next round from ``faces``.

    Returns the 7200 integer counts (ordered six-card sequences) and their
    total N (N-1) ... (N-5).
    """
    return _native.baccarat_exact(_check_faces(faces))


@functools.lru_cache(maxsize=None)
def class_labels(rule: BetRule) -> tuple[tuple[str, ...], np.ndarray]:
    """Every class's outcome label for ``rule``: (labels, label index per class)."""
    labels = rule.labels()
    position = {label: i for i, label in enumerate(labels)}
    index = np.array([position[rule.classify(class_features(c)).label] for c in range(CLASSES)], dtype=np.intp)
    return labels, index


def label_counts(rule: BetRule, counts: np.ndarray) -> dict[str, int]:
    """Sum class counts into the rule's outcome classes (exact integers)."""
    labels, index = class_labels(rule)
    return class_counts(counts, index, labels)


def results_from_counts(counts: np.ndarray, total: int, bets: Sequence[BetRule] = BETS) -> tuple[BetResult, ...]:
    """Exact bet results from class counts out of ``total``."""
    return tuple(result_from_weights(rule, label_counts(rule, counts), total) for rule in bets)


def analyse(faces, bets: Sequence[BetRule] = BETS) -> tuple[BetResult, ...]:
    """Exact results of every bet for the next round from a composition."""
    counts, total = exact_counts(faces)
    return results_from_counts(counts, total, bets)


# --------------------------------------------------------- shoe procedures --

# --variant -> the devices' shoe procedure (rngcore.devices.rulesets); None:
# every round from a freshly shuffled stack.
PROCEDURES: dict[str, str | None] = {
    "jp": "jp-baccarat",
    "macau": "macau-baccarat",
    "sbo": "sbo-baccarat",
    "etable": None,
}

ETABLE_NOTE = ("every round from a freshly shuffled stack (000 第1 13-2: for electronic tables the stack "
               "initialisation and cut-card items 2 and 10 are disapplied; whether a virtual stack may be "
               "dealt down is not stated)")


def rule_set(variant: str):
    """The devices' RuleSet of a variant (None for ``etable``)."""
    if variant not in PROCEDURES:
        raise ValueError(f"baccarat variant must be one of {', '.join(PROCEDURES)}, got {variant!r}")
    name = PROCEDURES[variant]
    return None if name is None else device_rule_set(name)


def procedure_note(variant: str) -> str:
    rules = rule_set(variant)
    if rules is None:
        return ETABLE_NOTE
    return f"shoe procedure {rules.name} ({rules.citation}): " + "; ".join(rules.notes)


def c_rules(variant: str, decks: int) -> dict[str, int]:
    """The C table's rule struct of a variant for ``decks`` decks (the shoe procedure converts itself).

    Raises ValueError if the procedure does not allow that many decks.
    """
    rules = rule_set(variant)
    if rules is None:
        return {"fresh_each_round": 1}
    return shoe_c_rules(rules, decks)


def shoe_c_rules(rules, decks: int) -> dict[str, int]:
    """The ``kern_bac_rules`` fields of a devices' RuleSet (any kernel that deals a standard shoe).

    The rule set converts itself (:meth:`~rngcore.devices.rulesets.RuleSet.c_rules`); a card
    table of these kernels also needs the 13 standard ranks.
    """
    fields = rules.c_rules(decks)
    if rules.ranks != STANDARD_RANKS:
        raise ValueError(f"{rules.name}: a card table needs a dealt-down standard shoe with a cut card")
    return fields


# ------------------------------------------------------------------ replay --

def deal_shoe(codes: Sequence[int], variant: str, cut_card_index: int) -> list[tuple[int, int]]:
    """Replay a recorded shoe under a variant's procedure.

    ``codes``: the shoe's cards in dealing order after the shuffle and cut
    (burned cards included); ``cut_card_index``: how many cards were in front
    of the cut card.  Returns (position of the round's first card, class
    index) for every round until the shoe ends.  The shoe is dealt by the
    devices' :class:`~rngcore.devices.shoe.Shoe` (burns, cut card, last
    round) and each round by the C table's tableau, so the replay follows
    exactly the procedure and the rules the simulation plays.
    """
    rules = rule_set(variant)
    if rules is None:
        raise ValueError("deal_shoe replays a dealt-down shoe; the 'etable' procedure has no shoe to replay")
    codes = np.asarray(codes, dtype=np.uint16)
    shoe = Shoe.replay(rules, codes, cut_card_index)
    table = _native.BaccaratTable(device_cards.fresh_stack(1), c_rules("etable", 1))  # its tableau only
    rounds = []
    while True:
        shoe.start_round()
        pos = shoe.size - shoe.remaining
        if shoe.remaining < 6:
            raise ValueError(f"the shoe ran out of cards at position {pos} (cut card at {cut_card_index} of {shoe.size})")
        cls, used = table.round(shoe.stack[:6])
        shoe.deal(used)
        rounds.append((pos, cls))
        if shoe.end_round():
            return rounds


@dataclasses.dataclass(frozen=True)
class RoundByRound:
    """Observed winners of dealt rounds against their exact per-round probabilities.

    Each round's probabilities are exact for the composition left before it,
    so the expected counts carry no cut-card or depletion bias.  The statistic
    is the quadratic form (O - E)' V^-1 (O - E) over (player, banker) wins,
    V = sum over rounds of each round's multinomial covariance: approximately
    chi-square with 2 degrees of freedom under the null hypothesis that every
    round is dealt like a uniformly shuffled shoe.
    """

    rounds: int
    observed: dict
    expected: dict
    statistic: float
    pvalue: float


WINNERS = ("player", "banker", "tie")


def round_by_round(shoes: Sequence[tuple[Sequence[int], int]], variant: str) -> RoundByRound:
    """Round-by-round test of recorded shoes: (card codes in dealing order,
    cut-card index) pairs, dealt under ``variant``'s procedure."""
    from scipy.stats import chi2

    winner_of = np.array([WINNERS.index(class_features(c)["winner"]) for c in range(CLASSES)])
    observed = np.zeros(3)
    expected = np.zeros(3)
    covariance = np.zeros((3, 3))
    rounds = 0
    for codes, cut_card_index in shoes:
        for start, cls in deal_shoe(codes, variant, cut_card_index):
            counts, total = exact_counts(faces_of_cards(codes[start:]))
            p = np.array([float(Fraction(int(counts[winner_of == w].sum(dtype=np.uint64)), total)) for w in range(3)])
            observed[winner_of[cls]] += 1
            expected += p
            covariance += np.diag(p) - np.outer(p, p)
            rounds += 1
    if rounds == 0:
        raise ValueError("no rounds to test: give at least one shoe")
    d = (observed - expected)[:2]
    statistic = float(d @ np.linalg.solve(covariance[:2, :2], d))
    return RoundByRound(rounds, dict(zip(WINNERS, observed.astype(int).tolist())), dict(zip(WINNERS, expected.tolist())),
                        statistic, float(chi2.sf(statistic, 2)))


# --------------------------------------------------------------- the game --

class BaccaratGame(Game):
    name = "baccarat"
    summary = "punto banco: banker, player, tie and 12 side bets, exact for any shoe composition"
    rules = f"{JP}; 003; {SBO}"
    variants = tuple(PROCEDURES)
    variants_help = "jp, macau, sbo: the devices' shoe procedures; etable: a fresh stack every round"
    options = (GameOption("decks", "N", f"decks in the shoe, {MIN_DECKS}..{MAX_DECKS} (default 8; the simulation "
                                        "takes the counts its shoe procedure allows)", MIN_DECKS, MAX_DECKS, 8),)
    round_options = options  # an e-table round is dealt from a fresh stack of --option decks=N decks
    devices = "shoe:N"
    chunk = 1 << 21
    etable = ETable(f"{JP} 13", ("etable",), ("player", "banker", "tie", "player_pair", "banker_pair"),
                    f"{JP} 13 (L363): the bets of 4-3-イ-ハ and, as additional bets, only 9-1-イ and ロ",
                    "item 6 (third-card processing) is finished", f"{JP} 14-1", f"{JP} 8-1 (L269)",
                    note="banker_no_commission (8-3) is another payout method for the 4-3-ロ bet, not a bet of its "
                         "own; it is left out until the operator's choice of method is a round option")

    def _analyse(self, variant, *, decks) -> Analysis:
        assert_unique_names(BETS, self.name)
        rules = rule_set(variant)
        return Analysis(self.name, variant,
                        {"decks": decks, "procedure": "etable" if rules is None else rules.name},
                        analyse(shoe_faces(decks)),
                        "exact for the first round of a full shoe; simulation: " + procedure_note(variant))

    def round_bets(self, variant):
        return BETS

    def round_outcome(self, generator, variant, *, decks=8) -> Dealt:
        """One e-table round: six cards of a freshly shuffled stack (13-2: each card as likely as from a
        shuffled stack), dealt P1 B1 P2 B2 and third cards by the tableau of items 5-6."""
        stack = device_cards.fresh_stack(decks)
        cards = stack[generator.choice(stack.size, size=6, replace=False)]
        return self.round_dealt(variant, {"cards": [int(c) for c in cards]}, decks=decks)

    def round_dealt(self, variant, record, *, decks=8) -> Dealt:
        """The round six journaled cards make (the tableau decides how many of them are dealt)."""
        codes = record.get("cards") if isinstance(record, dict) else None
        try:
            cards = np.asarray(codes, dtype=np.uint16)
            cls, used = _native.BaccaratTable(device_cards.fresh_stack(1), c_rules("etable", 1)).round(cards)
        except (TypeError, ValueError, OverflowError) as exc:
            raise ValueError(f"baccarat: {record!r} is not a round of six card codes ({exc})") from None
        features = class_features(cls)
        player, banker = [cards[0], cards[2]], [cards[1], cards[3]]
        third = 4
        if features["player_cards"] == 3:
            player.append(cards[4])
            third = 5
        if features["banker_cards"] == 3:
            banker.append(cards[third])
        show = lambda hand: " ".join(device_cards.card_label(int(c)) for c in hand)  # noqa: E731
        return Dealt(features, f"player {show(player)} ({features['player_total']}), "
                               f"banker {show(banker)} ({features['banker_total']})",
                     {"cards": [int(c) for c in cards], "used": used, "class": cls})

    def _simulate(self, rounds, generator, variant, progress, *, decks) -> Simulation:
        table = _native.BaccaratTable(device_cards.fresh_stack(decks), c_rules(variant, decks))
        counts = np.zeros(CLASSES, dtype=np.uint64)
        done, interrupted, seconds = _run(
            rounds, self.chunk, lambda n: table.play(generator, n, counts),
            lambda: int(counts.sum(dtype=np.uint64)), progress)
        exact, total = exact_counts(shoe_faces(decks))
        results = results_from_counts(exact, total)
        sims = tuple(BetSimulation(result, label_counts(rule, counts)) for rule, result in zip(BETS, results))
        fit = goodness_of_fit(counts, [Fraction(int(c), total) for c in exact])
        note = ("outcome chi-square: round classes (totals, cards per hand, pair state) vs the exact "
                "fresh-shoe probabilities")
        if rule_set(variant) is not None:
            note += ("; rounds dealt down a shoe are not independent and carry a small cut-card effect, "
                     "so at very large N the fresh-shoe reference is approximate")
        return Simulation(self.name, variant, f"shoe:{decks}", done, rounds, seconds, fit, sims,
                          procedure=f"{procedure_note(variant)}; shoes shuffled: {table.shoes}",
                          interrupted=interrupted, replay=_replay(generator), note=note)


GAMES = (BaccaratGame(),)
