"""The confidence level of every simulation report: a two-sided 99.9 % normal interval.

A simulated return is reported as mean +- Z_999 s / sqrt(n); table games
(:mod:`harness.games.simulate`) and slots (:mod:`harness.slot.simulate`)
read the one constant here.
"""
Z_999 = 3.2905267314919255  # standard normal quantile 0.9995 (scipy.stats.norm.ppf(0.9995))
