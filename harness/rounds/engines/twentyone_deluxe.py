"""Deluxe Blackjack rounds (001, a live-dealer rules sheet): one customer's seat, or two, against the dealer,
the Pairs side bets on them and the customers betting behind them.

The round is the twenty-one engine's (:class:`~harness.rounds.engines.twentyone.TwentyOneRounds`: the
deal, insurance, the seats' decisions and the stakes they add, the dealer's drawing, replay), played
by the game's module (:mod:`harness.games.deluxe_blackjack`: its cited rules table, 8 decks, the Pairs
classes and the bet-behind's options).  001 is cited by its headings; what it adds to 000's game:

* the bets (001 1. ベッティング): the seat bet ``main`` (シートベット) of the seated customer, who may
  occupy a second seat ("最大で 2 つの空席を占有"), ``main_2``, with the same stake
  ("各座席には同額のベットを置く必要があります"); ``pairs`` (ペア) on seat 1's first two cards and
  ``pairs_2`` on seat 2's, by any customer ("任意の占有座席に"), one each a seat; ``bet_behind``
  (ベットビハインド) behind seat 1 and ``bet_behind_2`` behind seat 2, by any other customer, one each
  a seat ("着席プレイヤーは自分自身にベットビハインドすることはできません": not the seated customer),
  whose result follows its seat's;
* the deal and the decisions in seat order (2. 初期の配札: a first card to each seat from the lowest,
  the dealer's, a second card to each seat, the dealer's face down; 3. 決定フェーズ: seat 1's hands,
  then seat 2's): hands 1 and 2 are the seats' own, a split's hand is numbered after them (a one-seat
  round's is 2, a two-seat round's 3 and 4);
* each seat's choices (着席プレイヤーのアクション): insurance with an ace up, half the seat bet, with a
  blackjack too, paid 2 to 1 (no even money); surrender of the initial hand only, against a 2..9 up
  card, half the seat bet; the double of any initial or split hand but split aces, one card; one
  split a seat (no re-split), split aces one card each;
* the bet-behind (ベットビハインドプレイヤーのアクション): insurance of its own, one decision per
  bet-behind after the seats' (half its stake, 2 to 1), seat 1's bet-behinds first, each seat's in bet
  order; ``follow-double`` (ダブルダウンに従う: yes, its stake on the doubled hand of its seat doubles,
  ``behind_double_K``; no, the default, the third card is a hit for it) and ``follow-split``
  (スプリットに従う: yes, an equal stake on its seat's second split hand, ``behind_split_K``; no, the
  default, it follows the first hand only) are round options (the game's own options), the same for
  every bet-behind of the round: a reading, 001 making them each bet-behind player's choice;
* payouts (ペイアウト): 3 to 2 a blackjack, 1 to 1 any other win; Pairs (only the highest pattern)
  three card 50 (the seat's two cards and the dealer's first card of one rank and suit), perfect 30,
  coloured 10, mixed 5; 001 states no rounding, so the seat bets and every bet-behind must be even
  (a 3 to 2 blackjack, a surrender's and insurance's halves are whole units only then);
* the round ends without more cards on a dealer blackjack (the peek: the hole card, 2. 初期の配札) and
  when every hand of the seats is a blackjack (注意事項: "すべての着席プレイヤーが「BJ」を持っている");
  otherwise the dealer draws to 17, standing on a soft 17 (ディーラーのアクション: "必ずヒット"), even
  after every seat busted (001 names only those two cases; the outcome is the same either way).

One customer's seats a round: another customer's seat is another customer position, which the
twenty-one rounds do not deal (each round is one position against the dealer).

The determination point.  001's own rule (エラー処理) pauses the round on a fault: "問題がすぐに解決
された場合、ラウンドは再開され、通常どおり続行されます。即時解決が不可能な場合、ラウンドは
キャンセルされ、すべてのベットは返金されます": resumed if resolved at once, otherwise cancelled with
every bet refunded.  It names no point; the reading is the twenty-one rounds' one: the round result
is fixed when the dealer's drawing ends (4. 結果: "ラウンド結果が確定するまで続行します"), and a round
the journal holds past that point resumes at restart and is settled on what was dealt (nothing of
it is lost: it "continues normally"), while one stopped before it cannot resume what was being
dealt and is cancelled, every bet refunded, the additional stakes too: for both seats alike, their
one dealer's drawing being the point of each.  :data:`TABLE` states it.  001's 回線切断ポリシー (a
customer's disconnection: the round plays on) is the customer's side, not a fault of the system.
"""
from __future__ import annotations

import functools

from harness.games import deluxe_blackjack
from harness.games import twentyone as tw
from harness.games.core import BetRule, Where, rows
from harness.games.etable import ETable
from harness.rounds.engine import equal_stake
from harness.rounds.engines.twentyone import INSURE, Row, TwentyOneRounds, hand_of, hand_rule

SOURCE = "001"
BEHIND = "bet_behind"
SEATS = 2  # 001 1. ベッティング: 「最大で 2 つの空席を占有」
HANDS = SEATS * deluxe_blackjack.GAMES[0].entry("max_hands").value  # one split a seat, no re-split


def seat_bet(name: str, seat: int) -> str:
    """The bet ``name`` (``main``, ``pairs``, ``bet_behind``) of seat ``seat`` (1: the name itself, 2: ``NAME_2``)."""
    return name if seat == 1 else f"{name}_{seat}"


#: (a bet-behind's stake, the seat's stake whose class it takes): each seat's bet-behind its seat bet, and
#: ``behind_split_K`` / ``behind_double_K`` the split or the double stake of hand K (hand K is one seat's).
FOLLOWS = (tuple((seat_bet(BEHIND, k), seat_bet("main", k)) for k in range(1, SEATS + 1))
           + tuple((f"behind_split_{k}", f"split_{k}") for k in range(2, HANDS + 1))
           + tuple((f"behind_double_{k}", f"double_{k}") for k in range(1, HANDS + 1)))

#: Deluxe Blackjack's round facts (see :class:`~harness.rounds.engines.twentyone.Row`).
TABLE = (
    Row(deluxe_blackjack.GAMES[0], SOURCE,
        "the dealer's drawing is finished, the round result fixed (001 4. 結果: 「ラウンド結果が確定するまで」): "
        "001 エラー処理 resumes a round or cancels it, every bet refunded, and names no point; read as the "
        "twenty-one rounds' rule, 000 別表第1 第2 1-19-イ (seed 000 L643)",
        {"main": "1. ベッティング (シートベット)", "seat_2": "1. ベッティング (最大で 2 つの空席, 同額のベット)",
         "side": "1. ベッティング (ペア)", "behind": "1. ベッティング (ベットビハインド)",
         "insurance": "着席プレイヤーのアクション (インシュランス)", "surrender": "着席プレイヤーのアクション (サレンダー)",
         "split": "着席プレイヤーのアクション (スプリット)", "double": "着席プレイヤーのアクション (ダブルダウン)",
         "hit": "着席プレイヤーのアクション (ヒット)", "stand": "着席プレイヤーのアクション (スタンド)",
         "behind_insurance": "ベットビハインドプレイヤーのアクション (インシュアランス)",
         "follow_double": "ベットビハインドプレイヤーのアクション (ダブルダウンに従う)",
         "follow_split": "ベットビハインドプレイヤーのアクション (スプリットに従う)"},
        etable=ETable("001 (a live-dealer rules sheet: no electronic table-game item)", ("standard",),
                      ("main", "main_2", "insurance", "pairs", "pairs_2", "bet_behind", "bet_behind_2"),
                      "001 1. ベッティング: the seat bet of one customer's seat or two, the bet-behind and the "
                      "Pairs side bet on each seat",
                      "the dealer's drawing (4. 結果) is finished",
                      "001 エラー処理 (resumed, or cancelled with every bet refunded); read as 000 別表第1 第2 1-19-イ",
                      note="insurance is each seat's and each bet-behind's decision, not a bet placed at the "
                           "betting; 001 states no rounding (even stakes settle every outcome in whole units)"),
        joiner=" "),
)


def renamed(rule: BetRule, name: str, note: str) -> BetRule:
    """``rule``'s classes as the rule ``name``, reading the feature ``name`` (a stake of the same classes as
    another: a bet-behind's, the second seat's)."""
    return BetRule(name, rule.source, rows(*((r.label, Where(**{name: r.label}), r.pays) for r in rule.rows)),
                   otherwise=rule.otherwise, push_labels=rule.push_labels, note=note)


class DeluxeRounds(TwentyOneRounds):
    """The round engine of Deluxe Blackjack (see the module doc)."""

    deals_for_bets = True  # the second seat and the bet-behinds placed: each follows its seat, insures on its own

    @functools.lru_cache(maxsize=None)
    def _bets(self) -> tuple:
        first = super()._bets()
        by = {b.name: b for b in first}
        second = (hand_rule(seat_bet("main", 2), self.row.clause, self.hand_classes("original"), self.hand_note),
                  self.insurance_rule(2),
                  renamed(by["pairs"], seat_bet("pairs", 2), "Pairs on seat 2's first two cards and the dealer's "
                                                             "first card (001 ペイアウト (ペア))"))
        by.update((b.name, b) for b in second)
        note = "a bet-behind's stake follows the seat's: the class of {} (001 ベットビハインド)"
        behind = tuple(renamed(by[slot], name, note.format(repr(slot))) for name, slot in FOLLOWS)
        own = renamed(by["insurance"], "behind_insurance", "a bet-behind's own insurance, half its stake: it wins on "
                                                           "a dealer blackjack (001 ベットビハインドプレイヤーのアクション)")
        return first + second + behind + (own,)

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        """Seat 1 (``main``) and the same customer's seat 2 (``main_2``, the same stake); ``pairs`` on a seat
        by any customer, ``bet_behind`` behind it by any but the seated one, one of each per customer and
        seat, after its seat bet (001 1. ベッティング)."""
        name = bet.bet
        if name.startswith("insurance"):
            super().check_bet(bet, (), options)  # refused there: a decision of the round, not a bet
        seats = {b.bet: b for b in placed if b.bet in (seat_bet("main", k) for k in range(1, SEATS + 1))}
        first = seats.get("main")
        if name == "main":
            if first is not None:
                self._refuse(f"{first.customer!r} holds seat 1 (the seat bet 'main'); the round deals one customer's "
                             f"seats, a second one by 'main_2' ({self.row.cite('main')})")
            return
        if name == seat_bet("main", 2):
            self._second_seat(bet, first, seats)
            return
        seat = 2 if name in (seat_bet("pairs", 2), seat_bet(BEHIND, 2)) else 1
        holder = seats.get(seat_bet("main", seat))
        behind = name.startswith(BEHIND)
        if holder is None:
            self._refuse(f"the {name!r} bet needs the seat bet {seat_bet('main', seat)!r} placed first "
                         f"({self.row.cite('behind' if behind else 'side')})")
        if behind and bet.customer == holder.customer:
            self._refuse(f"the seated customer {holder.customer!r} cannot bet behind its own seat "
                         f"({self.row.cite('behind')}: 着席プレイヤーは自分自身にベットビハインドすることはできません)")
        if any(b.bet == name and b.customer == bet.customer for b in placed):
            self._refuse(f"{bet.customer!r} already has a {name!r} bet in this round")

    def _second_seat(self, bet, first, seats: dict) -> None:
        """``main_2``: the seated customer's second seat, once, with the stake of the first."""
        cite = self.row.cite("seat_2")
        if first is None:
            self._refuse(f"the second seat 'main_2' needs the seat bet 'main' placed first ({cite})")
        if bet.customer != first.customer:
            self._refuse(f"seat 2 is the seated customer {first.customer!r}'s second seat; the round deals one "
                         f"customer's seats, so {bet.customer!r} cannot take it ({cite})")
        if bet.bet in seats:
            self._refuse(f"{bet.customer!r} already holds seat 2 ({cite}: at most two seats)")
        equal_stake(self.name, f"each seat takes the same seat bet ({cite}: 各座席には同額のベット)", first, bet)

    def _refuse(self, reason: str) -> None:
        raise ValueError(f"{self.name}: {reason}")

    # -- dealing --------------------------------------------------------------------------------

    def round_outcome(self, generator, variant: str, *, bets=(), **options):
        return super().round_outcome(generator, variant, behind=self.behinds(bets), **options)

    def round_dealt(self, variant: str, record: dict, *, bets=(), **options):
        # the record names the bet-behinds each seat dealt for: the bets placed add nothing
        return super().round_dealt(variant, record, behind=self._journaled_behinds(record), **options)

    def _journaled_behinds(self, record) -> tuple[tuple[int, ...], ...]:
        """The bet-behinds of each seat a journaled round names (``behind``, and ``behind_2`` with ``seats`` 2);
        ValueError for a record that is not a Deluxe Blackjack round."""
        seats = record.get("seats", 1) if isinstance(record, dict) else None
        lists = [record.get(seat_bet("behind", k)) for k in range(1, seats + 1)] \
            if type(seats) is int and 1 <= seats <= SEATS else [None]
        if not all(isinstance(b, list) and all(type(i) is int and i > 0 for i in b) for b in lists):
            raise ValueError(f"{self.name}: {record!r} is not a Deluxe Blackjack round (cards, actions, behind; "
                             "seats and behind_2 for two seats)")
        return tuple(tuple(b) for b in lists)

    @staticmethod
    def behinds(bets) -> tuple[tuple[int, ...], ...]:
        """Per seat (one, or two with ``main_2`` placed), the indices of its bet-behinds among the round's bets
        (placed at the betting, in order)."""
        seats = SEATS if seat_bet("main", 2) in bets else 1
        return tuple(tuple(i for i, name in enumerate(bets) if name == seat_bet(BEHIND, k)) for k in range(1, seats + 1))

    def areas_of(self, options: dict) -> int:
        """The customer's seats (001 1. ベッティング: one or two)."""
        return len(options["behind"])

    def rules_of(self, options: dict) -> tuple[tw.Rules, int]:
        return super().rules_of({k: v for k, v in options.items() if k != "behind"})

    def _play(self, shoe, decide, rules, options):
        dealt = super()._play(shoe, decide, rules, options)
        behind = options["behind"]
        dealt.record["behind"] = list(behind[0])
        if len(behind) > 1:  # a one-seat round's record keeps the form it had before the second seat
            dealt.record["seats"] = len(behind)
            dealt.record.update((seat_bet("behind", k), list(b)) for k, b in enumerate(behind[1:], 2))
        return dealt

    def following_stakes(self, item: str, hand, options: dict) -> list[dict]:
        """The stakes of the bet-behinds of ``hand``'s seat following its double or split (follow-double,
        follow-split): a split's second hand, and a double of the seat's own hand (of a split hand only
        when following the split too)."""
        if hand is None or item not in ("split", "double"):
            return []
        follows_split = options.get("follow_split") == "yes"
        if not (follows_split if item == "split" else
                options.get("follow_double") == "yes" and (hand.original or follows_split)):
            return []
        return [{"bet": f"behind_{item}_{hand.number}", "of": i, "share": "1"} for i in options["behind"][hand.area - 1]]

    def after_insurance(self, against, rules, decide, decision, options) -> None:
        """Each bet-behind's own insurance, after the seats' (half its stake; basic declines it, as the seat's
        basic does when insurance's exact value is negative): seat 1's bet-behinds, then seat 2's."""
        seats = options["behind"]
        n = 0
        for seat, indices in enumerate(seats, 1):
            for i in indices:
                n += 1
                where = f"insurance: bet-behind {n}{f' of seat {seat}' if len(seats) > 1 else ''} (bet {i + 1}) " \
                        f"against {against}"
                word = decide.choose(where, INSURE,
                                     lambda: "insure" if self._insurance_value(rules) > 0 else "no-insurance")
                decision(word, where, "behind_insurance",
                         [{"bet": "behind_insurance", "of": i, "share": "1/2"}] if INSURE[word] else ())

    def dealer_draws(self, hands) -> bool:
        """001 注意事項: no more cards when every hand of the seats is a blackjack; else the dealer draws
        (ディーラーのアクション), after busted seats too."""
        return not all(h.natural for h in hands)

    # -- settlement -----------------------------------------------------------------------------

    def _settle(self, hands, dealer, insured, rules, firsts, seconds) -> dict:
        """The seats' classes (the twenty-one engine's; seat 2's Pairs on its own first two cards), each
        bet-behind stake the class of the seat's stake it follows (:data:`FOLLOWS`); a bet-behind's
        insurance wins on a dealer blackjack."""
        features = super()._settle(hands, dealer, insured, rules, firsts, seconds)
        for seat in range(2, len(firsts) + 1):
            pairs = self.game.side_labels(firsts[seat - 1], dealer[0], seconds[seat - 1])["pairs"]
            features[seat_bet("pairs", seat)] = pairs
        for name, slot in FOLLOWS:
            features[name] = features[slot]
        features["behind_insurance"] = "win" if tw.is_natural(hand_of(dealer)) else "lose"
        return features


ROUND_ENGINES = tuple(DeluxeRounds(row) for row in TABLE)
