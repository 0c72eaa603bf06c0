"""Deluxe Blackjack rounds (001, a live-dealer rules sheet): one seat against the dealer, its Pairs side
bets and the customers betting behind it.

The round is the twenty-one engine's (:class:`~harness.rounds.engines.twentyone.TwentyOneRounds`: the
deal, insurance, the seat's decisions and the stakes they add, the dealer's drawing, replay), played
by the game's module (:mod:`harness.games.deluxe_blackjack`: its cited rules table, 8 decks, the Pairs
classes and the bet-behind's options).  001 is cited by its headings; what it adds to 000's game:

* the bets (001 1. ベッティング): the seat bet ``main`` (シートベット) of the seated customer; ``pairs``
  (ペア) on the seat's first two cards, by any customer ("任意の占有座席に"), one each; ``bet_behind``
  (ベットビハインド) by any other customer, one each ("着席プレイヤーは自分自身にベットビハインド
  することはできません": not the seated customer), whose result follows the seat's;
* the seat's choices (着席プレイヤーのアクション): insurance with an ace up, half the seat bet, with a
  blackjack too, paid 2 to 1 (no even money); surrender of the initial hand only, against a 2..9 up
  card, half the seat bet; the double of any initial or split hand but split aces, one card; one
  split (no re-split), split aces one card each;
* the bet-behind (ベットビハインドプレイヤーのアクション): insurance of its own, one decision per
  bet-behind after the seat's (half its stake, 2 to 1); ``follow-double`` (ダブルダウンに従う: yes, its
  stake on the doubled hand doubles, ``behind_double_K``; no, the default, the third card is a hit for
  it) and ``follow-split`` (スプリットに従う: yes, an equal stake on the second split hand,
  ``behind_split_2``; no, the default, it follows the first hand only) are round options (the
  game's own options), the same for every bet-behind of the round: a reading, 001 making them each
  bet-behind player's choice;
* payouts (ペイアウト): 3 to 2 a blackjack, 1 to 1 any other win; Pairs (only the highest pattern)
  three card 50 (the seat's two cards and the dealer's first card of one rank and suit), perfect 30,
  coloured 10, mixed 5; 001 states no rounding, so the seat bet and every bet-behind must be even
  (a 3 to 2 blackjack, a surrender's and insurance's halves are whole units only then);
* the round ends without more cards on a dealer blackjack (the peek: the hole card, 2. 初期の配札) and
  when every hand of the seat is a blackjack (注意事項); otherwise the dealer draws to 17, standing on
  a soft 17 (ディーラーのアクション: "必ずヒット"), even after the seat busted (001 names only those two
  cases; the outcome is the same either way).

One seat a round (001 lets a customer hold two, 1. ベッティング; the rounds play one position, as the
other twenty-one rounds do).

The determination point.  001's own rule (エラー処理) pauses the round on a fault: "問題がすぐに解決
された場合、ラウンドは再開され、通常どおり続行されます。即時解決が不可能な場合、ラウンドは
キャンセルされ、すべてのベットは返金されます": resumed if resolved at once, otherwise cancelled with
every bet refunded.  It names no point; the reading is the twenty-one rounds' one: the round result
is fixed when the dealer's drawing ends (4. 結果: "ラウンド結果が確定するまで続行します"), and a round
the journal holds past that point resumes at restart and is settled on what was dealt (nothing of
it is lost: it "continues normally"), while one stopped before it cannot resume what was being
dealt and is cancelled, every bet refunded, the additional stakes too.  :data:`TABLE` states it.
001's 回線切断ポリシー (a customer's disconnection: the round plays on) is the customer's side, not
a fault of the system.
"""
from __future__ import annotations

import functools

from harness.games import deluxe_blackjack
from harness.games import twentyone as tw
from harness.games.core import BetRule, Where, rows
from harness.games.etable import ETable
from harness.rounds.engines.twentyone import INSURE, Row, TwentyOneRounds, hand_of

SOURCE = "001"
BEHIND = "bet_behind"

#: Deluxe Blackjack's round facts (see :class:`~harness.rounds.engines.twentyone.Row`).
TABLE = (
    Row(deluxe_blackjack.GAMES[0], SOURCE,
        "the dealer's drawing is finished, the round result fixed (001 4. 結果: 「ラウンド結果が確定するまで」): "
        "001 エラー処理 resumes a round or cancels it, every bet refunded, and names no point; read as the "
        "twenty-one rounds' rule, 000 別表第1 第2 1-19-イ (seed 000 L643)",
        {"main": "1. ベッティング (シートベット)", "side": "1. ベッティング (ペア)",
         "behind": "1. ベッティング (ベットビハインド)",
         "insurance": "着席プレイヤーのアクション (インシュランス)", "surrender": "着席プレイヤーのアクション (サレンダー)",
         "split": "着席プレイヤーのアクション (スプリット)", "double": "着席プレイヤーのアクション (ダブルダウン)",
         "hit": "着席プレイヤーのアクション (ヒット)", "stand": "着席プレイヤーのアクション (スタンド)",
         "behind_insurance": "ベットビハインドプレイヤーのアクション (インシュアランス)",
         "follow_double": "ベットビハインドプレイヤーのアクション (ダブルダウンに従う)",
         "follow_split": "ベットビハインドプレイヤーのアクション (スプリットに従う)"},
        etable=ETable("001 (a live-dealer rules sheet: no electronic table-game item)", ("standard",),
                      ("main", "insurance", "pairs", BEHIND),
                      "001 1. ベッティング: the seat bet, the bet-behind and the Pairs side bet",
                      "the dealer's drawing (4. 結果) is finished",
                      "001 エラー処理 (resumed, or cancelled with every bet refunded); read as 000 別表第1 第2 1-19-イ",
                      note="insurance is the seat's and each bet-behind's decision, not a bet placed at the "
                           "betting; 001 states no rounding (even stakes settle every outcome in whole units)"),
        joiner=" "),
)


class DeluxeRounds(TwentyOneRounds):
    """The round engine of Deluxe Blackjack (see the module doc)."""

    deals_for_bets = True  # the bet-behinds placed: each follows the seat and decides its own insurance

    @functools.lru_cache(maxsize=None)
    def _bets(self) -> tuple:
        seat = super()._bets()
        by = {b.name: b for b in seat}
        note = "a bet-behind's stake follows the seat's: the class of {} (001 ベットビハインド)"

        def following(name, slot):
            rule = by[slot]
            return BetRule(name, rule.source, rows(*((r.label, Where(**{name: r.label}), r.pays) for r in rule.rows)),
                           push_labels=rule.push_labels, note=note.format(repr(slot)))

        behind = [following(BEHIND, "main"), following("behind_split_2", "split_2"),
                  following("behind_double_1", "double_1"), following("behind_double_2", "double_2"),
                  following("behind_insurance", "insurance")]
        return seat + tuple(behind)

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        """One seat (the ``main`` bet); ``pairs`` by any customer, ``bet_behind`` by any but the seated one,
        one of each per customer, both after the seat bet (001 1. ベッティング)."""
        name = bet.bet
        if name.startswith("insurance"):
            super().check_bet(bet, (), options)  # refused there: a decision of the round, not a bet
        seat = next((b for b in placed if b.bet == "main"), None)
        if name == "main":
            if seat is not None:
                self._refuse(f"the round deals one seat, and {seat.customer!r} holds it ({self.row.cite('main')})")
            return
        if seat is None:
            self._refuse(f"the {name!r} bet needs the seat bet 'main' placed first "
                         f"({self.row.cite('behind' if name == BEHIND else 'side')})")
        if name == BEHIND and bet.customer == seat.customer:
            self._refuse(f"the seated customer {seat.customer!r} cannot bet behind its own seat "
                         f"({self.row.cite('behind')}: 着席プレイヤーは自分自身にベットビハインドすることはできません)")
        if any(b.bet == name and b.customer == bet.customer for b in placed):
            self._refuse(f"{bet.customer!r} already has a {name!r} bet in this round")

    def _refuse(self, reason: str) -> None:
        raise ValueError(f"{self.name}: {reason}")

    # -- dealing --------------------------------------------------------------------------------

    def round_outcome(self, generator, variant: str, *, bets=(), **options):
        return super().round_outcome(generator, variant, behind=self.behinds(bets), **options)

    def round_dealt(self, variant: str, record: dict, **options):
        behind = record.get("behind") if isinstance(record, dict) else None
        if not isinstance(behind, list) or not all(type(i) is int and i > 0 for i in behind):
            raise ValueError(f"{self.name}: {record!r} is not a Deluxe Blackjack round (cards, actions, behind)")
        return super().round_dealt(variant, record, behind=tuple(behind), **options)

    @staticmethod
    def behinds(bets) -> tuple[int, ...]:
        """The indices of the round's bet-behinds among its bets (placed at the betting, in order)."""
        return tuple(i for i, name in enumerate(bets) if name == BEHIND)

    def rules_of(self, options: dict) -> tuple[tw.Rules, int]:
        return super().rules_of({k: v for k, v in options.items() if k != "behind"})

    def _play(self, shoe, decide, rules, options):
        dealt = super()._play(shoe, decide, rules, options)
        dealt.record["behind"] = list(options["behind"])
        return dealt

    def following_stakes(self, item: str, adds, options: dict) -> list[dict]:
        """A bet-behind's stakes following the seat's double or split (follow-double, follow-split)."""
        if item not in ("split", "double"):
            return []
        number = int(adds[0]["bet"].rsplit("_", 1)[1])  # the seat's own stake: split_K, double_K
        follows_split = options.get("follow_split") == "yes"
        if item == "split" and follows_split:
            bet = f"behind_split_{number}"
        elif item == "double" and options.get("follow_double") == "yes" and (number == 1 or follows_split):
            bet = f"behind_double_{number}"
        else:
            return []
        return [{"bet": bet, "of": i, "share": "1"} for i in options["behind"]]

    def after_insurance(self, against, rules, decide, decision, options) -> None:
        """Each bet-behind's own insurance, after the seat's (half its stake; basic declines it, as the seat's
        basic does when insurance's exact value is negative)."""
        for n, i in enumerate(options["behind"], 1):
            where = f"insurance: bet-behind {n} (bet {i + 1}) against {against}"
            word = decide.choose(where, INSURE, lambda: "insure" if self._insurance_value(rules) > 0 else "no-insurance")
            decision(word, where, "behind_insurance",
                     [{"bet": "behind_insurance", "of": i, "share": "1/2"}] if INSURE[word] else ())

    def dealer_draws(self, hands) -> bool:
        """001 注意事項: no more cards when every hand of the seat is a blackjack; else the dealer draws
        (ディーラーのアクション), a busted seat too."""
        return not all(h.natural for h in hands)

    # -- settlement -----------------------------------------------------------------------------

    def _settle(self, hands, dealer, insured, rules, firsts, seconds) -> dict:
        """The seat's classes (the twenty-one engine's), and each bet-behind stake the class of the seat's
        stake it follows; a bet-behind's insurance wins on a dealer blackjack."""
        features = super()._settle(hands, dealer, insured, rules, firsts, seconds)
        for name, slot in ((BEHIND, "main"), ("behind_split_2", "split_2"), ("behind_double_1", "double_1"),
                           ("behind_double_2", "double_2")):
            features[name] = features[slot]
        features["behind_insurance"] = "win" if tw.is_natural(hand_of(dealer)) else "lose"
        return features


ROUND_ENGINES = tuple(DeluxeRounds(row) for row in TABLE)
