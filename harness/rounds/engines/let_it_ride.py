"""Let It Ride rounds in mode B (000 別表第1 第3 8-10, applying 4-9): one customer position, the three spots.

Built on :mod:`harness.games.let_it_ride`'s public rules (its pay table, its spots, the exact optimal
decision and the ``deck`` device procedure of its simulation): a round shuffles a fresh deck through
the ``deck`` device, the customer's three cards its first three and the two community cards the next
two (8-3, applying 7-3 with 「2枚」 and 「3枚」 exchanged).

The bets.  Mode B offers the three-spot bet only (8-10): the customer stakes the same amount on each of
``spot_1``, ``spot_2`` and ``spot_3`` (8-2-ロ: only a customer with equal stakes on all three of the
set joins), so a round needs all three, equal.  Stakes are known when betting closes, as in the
other poker rounds.

The decisions.  After seeing the three cards the customer keeps the 1st spot or takes it back (8-4-イ:
賭金を減少させないこと又は減少させること; taken back, the stake is returned); after the first community
card is turned, the same for the 2nd spot (8-5); the 3rd spot stays.  Each is the game's exact optimal
decision (a spot kept exactly when its expectation with the cards in view is positive), journaled as
its own ``decision`` record while the round is dealt.  A spot taken back settles ``taken_back``: its
stake returned at the settlement (the text returns it at once; a fault before the determination
point voids the round and returns every stake all the same, so settling it there changes nothing the
journal could show).

The settlement (8-6, 8-7 applying 7-8): every spot still in place wins by the customer's hand, a pair of
10s or better (1 to 1 up to 1,000 to 1 for a royal flush), and loses otherwise; the odds are whole,
so no rounding arises (8-7 states none).

The determination point: 8-11 applies 4-10-イ with its proviso read as 「86のイの処理が終了した」: a fault
after the customer's hand is turned face up and checked (8-6-イ) settles, before it voids.  The
journal's ``outcome`` comes after both decisions and the whole hand, so a fault anywhere before it
voids the round.
"""
from __future__ import annotations

import functools

from harness.games import let_it_ride as lir
from harness.games.core import BetRule
from harness.games.etable import Dealt
from harness.rounds.engine import DeckRounds, card_text, equal_stake

CARDS = 5  # the customer's three, then the two community cards (the game's simulation deals the same)
TAKEN_BACK = lir.TAKEN_BACK


@functools.lru_cache(maxsize=None)
def spot_rules() -> tuple[BetRule, ...]:
    """Each spot's rule, read from its own feature (a spot may be taken back while another rides)."""
    return tuple(lir.spot_rule(name, source, feature=name) for name, _, source in lir.SPOTS)


class LetItRideRounds(DeckRounds):
    """The round engine of Let It Ride (see the module doc): cards 1-3 the customer's, 4-5 the community
    cards."""

    name = "let-it-ride"
    cards = CARDS

    def round_bets(self, variant: str) -> tuple:
        return spot_rules()

    def deal(self, variant: str, codes: list[int], **options) -> Dealt:
        hand = lir.hand_label(codes)
        features, decisions = {}, []
        for name, known, source in lir.SPOTS:
            if known == CARDS:
                features[name] = hand
                continue
            keep = lir.keeps(codes[:known])
            features[name] = hand if keep else TAKEN_BACK
            decisions.append({"decision": "ride" if keep else "take-back", "spot": name, "strategy": "optimal",
                              "clause": source, "cards": card_text(codes[:known])})
        taken = [n for n, label in features.items() if label == TAKEN_BACK]
        shown = (f"customer {card_text(codes[:3])}, community {card_text(codes[3:])} ({hand})"
                 f"{'; taken back: ' + ', '.join(taken) if taken else ''}")
        return Dealt(features, shown, {"cards": codes, "hand": hand}, tuple(decisions))

    def check_bet(self, bet, placed: tuple, options: dict) -> None:
        super().check_bet(bet, placed, options)
        if placed:
            equal_stake(self.name, f"the three spots take equal stakes ({lir.SOURCE} 8-2-ロ)", placed[0], bet)

    def check_bets(self, bets: tuple, options: dict):
        names = {b.bet for b in bets}
        missing = [name for name, *_ in lir.SPOTS if name not in names]
        if missing:
            return 0, (f"a let-it-ride round needs equal stakes on all three spots ({lir.SOURCE} 8-2-ロ); "
                       f"missing: {', '.join(missing)}")
        return None


ROUND_ENGINES = (LetItRideRounds(),)
