"""Shared helpers for the table-game tests."""


def assert_returns_agree(sim, misses: int = 2):
    """Every bet's exact RTP within z = 6.1 (two-sided p ~ 1e-9) of its simulated
    return, and at most ``misses`` of the reported 99.9 % intervals miss it."""
    for bet in sim.bets:
        assert bet.decisions > 1, bet.name
        lo, hi = bet.interval
        sd = (hi - lo) / 2 / 3.2905
        assert abs(float(bet.mean_return) - float(bet.exact.rtp)) <= 6.1 * sd, bet.name
        assert bet.fit.impossible == 0, bet.name
        assert bet.fit.pvalue is None or bet.fit.pvalue > 1e-9, bet.name
    assert sum(not b.inside for b in sim.bets) <= misses


# The games whose exact analysis enumerates every deal of the full 52-card deck for a minute or more
# (their full-deck figures are the `slow` tests of their own test modules), each with a reduced deck
# on which the same code (C enumeration, tables, report) runs in a fraction of a second.
FULL_DECK_STUDIES = {
    "caribbean-stud": tuple(s * 13 + r - 1 for s in range(2) for r in (1, 2, 3, 4, 5, 13)),
    "texas-holdem-bonus": tuple(s * 13 + r for s in (0, 1) for r in (0, 9, 10, 11, 12)),
}


def reduced_decks(monkeypatch) -> None:
    """Make the games of :data:`FULL_DECK_STUDIES` analyse their reduced deck for the rest of a test.

    For tests that check what every game's report holds (its schema, its bets' citations), not
    the full deck's figures.  Each game gets a fresh analysis cache for the test, and its own
    cache back afterwards, so no later test sees a reduced-deck figure.
    """
    import functools

    from harness.games.registry import GAMES

    for name, deck in FULL_DECK_STUDIES.items():
        game = GAMES[name]
        monkeypatch.setattr(type(game), "analysis", staticmethod(functools.partial(type(game).analysis, deck=deck)))
        monkeypatch.setattr(game, "_analyses", {}, raising=False)
