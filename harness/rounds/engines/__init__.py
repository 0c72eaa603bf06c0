"""Round engines of games whose modules do not carry their own: one module per game, each listing
its engine in ``ROUND_ENGINES`` (:mod:`harness.rounds.engine`)."""
