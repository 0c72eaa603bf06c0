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
