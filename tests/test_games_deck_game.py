"""The deck games' shared simulation loop (harness.games._deck_game.play_deals): a signal that comes
while a chunk of deals is being settled acts once the chunk is counted, so an interrupted report's
tallies hold exactly the rounds it says were played."""
from __future__ import annotations

import os
import signal

import rngcore
from harness.games import three_card_poker as tcp

SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"


def test_ctrl_c_while_a_chunk_is_settled_leaves_tallies_that_match_the_rounds(monkeypatch):
    real = tcp._label
    armed = []

    def label(outcome, category):  # called inside a chunk, after its Pair Plus tally has taken some rounds
        if armed == [True]:
            armed.append(False)
            os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, here, in the middle of the chunk
        return real(outcome, category)

    monkeypatch.setattr(tcp, "_label", label)
    sim = tcp.simulate(5000, rngcore.Generator(SEED, stream=3), "optimal",
                       progress=lambda done, total: armed.append(True) if not armed else None, chunk=1000)
    assert armed == [True, False], "the signal was not sent inside the second chunk"
    assert sim.interrupted and sim.rounds == 2000
    assert [b.decisions for b in sim.bets] == [2000, 2000]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back after each chunk
