"""Helpers for the round tests: a set of bets for every game that plays rounds, and a round stepped by hand."""
from __future__ import annotations

from harness.rounds import Bet, Round

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

#: Bets of every game with a round engine (tests check the list is complete).
BETS = {
    "roulette-single": [Bet("ann", "straight", 100, "17"), Bet("bob", "red", 50)],
    "roulette-double": [Bet("ann", "five_number", 70, "0-00-1-2-3")],
    "money-wheel": [Bet("ann", "symbol_2", 10), Bet("bob", "symbol_7", 3)],
    "sic-bo": [Bet("ann", "small", 100), Bet("bob", "triple_6", 5)],
    "baccarat": [Bet("ann", "banker", 15), Bet("bob", "player", 10), Bet("cy", "tie", 7)],
    "craps": [Bet("ann", "field", 10), Bet("bob", "horn", 20)],
    "casino-war": [Bet("ann", "main", 100), Bet("ann", "tie", 10), Bet("ann", "additional", 100)],
    "pai-gow": [Bet("ann", "bet", 100), Bet("bob", "bet", 15)],
    "three-card-poker": [Bet("ann", "ante_play", 20), Bet("ann", "pair_plus", 10)],
    "caribbean-stud": [Bet("ann", "ante_bet", 30)],
    "blackjack": [Bet("ann", "main", 100), Bet("ann", "pair", 10)],
    "let-it-ride": [Bet("ann", "spot_1", 10), Bet("ann", "spot_2", 10), Bet("ann", "spot_3", 10)],
    "mississippi-stud": [Bet("ann", "ante", 10)],
    "texas-holdem-bonus": [Bet("ann", "ante", 10), Bet("ann", "bonus", 5)],
    "pa-blackjack": [Bet("ann", "main", 100)],
    "deluxe-blackjack": [Bet("ann", "main", 100), Bet("ann", "pairs", 10), Bet("bob", "bet_behind", 50),
                         Bet("cy", "bet_behind", 20)],
}


def step(journal, game, bets, generator, finish=True, meters=None) -> Round:
    """One round of ``game`` (a name or its rules) with ``bets``, every step called by hand, journaled
    (settled against the bank ``meters``, for a game with meters: default every meter at its reset)."""
    r = Round(game, journal.next_round_id(), sink=journal.append, meters=meters)
    for bet in bets:
        r.place(bet)
    r.close()
    r.generate(generator)
    r.determine()
    if finish:
        r.settle()
    return r


def play_metered(rules, journal, generator, bets) -> Round:
    """One round of a game with meters, placed, closed, generated, determined and settled against the meters
    as the journal's rounds left them (re-read each round, as a restart reads them: a power-loss trial)."""
    from harness.rounds.meters import bank_of

    return step(journal, rules, bets, generator, meters=bank_of(rules, journal))


def declared_only() -> list[str]:
    """Games with an e-table declaration and no round engine yet (they change as engines land)."""
    from harness.games.registry import GAMES
    from harness.rounds.table import engine_of

    out = []
    for name, g in GAMES.items():
        if g.etable is not None:
            try:
                engine_of(g).round_bets(g.etable.variants[0])
            except NotImplementedError:
                out.append(name)
    return out
