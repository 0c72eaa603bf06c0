"""Baccarat: the C exact kernel and the dealt-shoe kernel against code written here.

* Every ordered deal of small compositions is enumerated in this file with
  its own tableau (typed from 000 別表第1 第1 6 / baccarat.md §7) and compared
  count for count with ``kern_bac_exact``.
* The main bets' exact returns are recomputed from that brute force.
* Published 6- and 8-deck edges are extra checks.
* The simulation kernel is replayed round by round here (cut card, burn).
"""
import itertools
from collections import Counter
from fractions import Fraction as F

import numpy as np
import pytest

import rngcore
from harness.games import _native, baccarat
from harness.games.registry import GAMES
from tests.games_support import assert_returns_agree
from rngcore.devices import cards

SEED = bytes(range(32))


def code(rank, suit, deck=0):
    return cards.encode(rank, suit, deck)


def point(rank):
    return 0 if rank >= 10 else rank


def banker_draws(b, x):
    # 000 第1 6-2 イ..ホ, typed from the rules: b = banker two-card total, x = player's third card.
    if b <= 2:
        return True
    return {3: x != 8, 4: 2 <= x <= 7, 5: 4 <= x <= 7, 6: x in (6, 7)}.get(b, False)


def deal(hand):
    """Independent tableau: (pt, bt, player cards, banker cards) from codes P1 B1 P2 B2 X5 X6."""
    ranks = [c & 15 for c in hand]
    p = [ranks[0], ranks[2]]
    b = [ranks[1], ranks[3]]
    pt = (point(p[0]) + point(p[1])) % 10
    bt = (point(b[0]) + point(b[1])) % 10
    nxt = 4
    if pt < 8 and bt < 8:
        if pt <= 5:
            x = point(ranks[nxt])
            nxt += 1
            p.append(ranks[4])
            if banker_draws(bt, x):
                b.append(ranks[nxt])
        elif bt <= 5:
            b.append(ranks[nxt])
    pf = sum(point(r) for r in p) % 10
    bf = sum(point(r) for r in b) % 10
    return pf, bf, len(p), len(b)


def pair_state(hand):
    def state(a, b):
        if a & 15 != b & 15:
            return 0
        return 2 if (a >> 4) & 3 == (b >> 4) & 3 else 1
    pp, bp = state(hand[0], hand[2]), state(hand[1], hand[3])
    twin = int(pp > 0 and bp > 0 and hand[0] & 15 == hand[1] & 15)
    return pp, bp, twin


def brute_force(shoe):
    """Counter of (pt, bt, np, nb, pp, bp, twin) over every ordered 6-card deal."""
    out = Counter()
    for hand in itertools.permutations(shoe, 6):
        out[deal(hand) + pair_state(hand)] += 1
    return out


def kernel_as_tuples(counts):
    out = {}
    for c in np.nonzero(counts)[0]:
        f = baccarat.class_features(int(c))
        rest, ps = divmod(int(c), 18)
        rest_ps, twin = divmod(ps, 2)
        pp, bp = divmod(rest_ps, 3)
        key = (f["player_total"], f["banker_total"], f["player_cards"], f["banker_cards"], pp, bp, twin)
        out[key] = int(counts[c])
    return out


SMALL_SHOES = {
    # ten cards: two suited 5s from two decks, a K-K pair in two suits, a J, naturals, low cards
    "mixed": [code(5, 0), code(5, 0, 1), code(13, 1), code(13, 2), code(11, 0), code(9, 3), code(8, 1),
              code(1, 2), code(3, 0), code(6, 1)],
    # nine cards rich in ties and sixes, with a three-of-a-kind of 6s
    "sixes": [code(6, 0), code(6, 1), code(6, 0, 1), code(10, 2), code(12, 3), code(2, 0), code(4, 1),
              code(7, 2), code(1, 3)],
}


@pytest.fixture(scope="module", params=sorted(SMALL_SHOES))
def small_shoe(request):
    shoe = SMALL_SHOES[request.param]
    return shoe, brute_force(shoe)


def test_exact_kernel_matches_every_ordered_deal(small_shoe):
    shoe, expected = small_shoe
    counts, total = baccarat.exact_counts(baccarat.faces_of_cards(shoe))
    n = len(shoe)
    assert total == n * (n - 1) * (n - 2) * (n - 3) * (n - 4) * (n - 5) == sum(expected.values())
    assert kernel_as_tuples(counts) == dict(expected)


def test_main_bets_from_brute_force(small_shoe):
    shoe, expected = small_shoe
    total = sum(expected.values())
    banker = player = tie = ppair = bpair = F(0)
    for (pt, bt, _, _, pp, bp, _), count in expected.items():
        w = F(count, total)
        if bt > pt:
            banker += w * F(19, 20)
            player -= w
        elif pt > bt:
            banker -= w
            player += w
        else:
            tie += 9 * w
        ppair += w * (12 if pp else 0)
        bpair += w * (12 if bp else 0)
    results = {r.name: r for r in baccarat.analyse(baccarat.faces_of_cards(shoe))}
    assert results["banker"].rtp == 1 + banker
    assert results["player"].rtp == 1 + player
    assert results["tie"].rtp == tie
    assert results["player_pair"].rtp == ppair and results["banker_pair"].rtp == bpair


def test_published_edges():
    # Widely published exact edges (e.g. the Wizard of Odds baccarat tables).
    for decks, banker, player, tie in ((8, "1.0579", "1.2351", "14.3596"), (6, "1.0558", "1.2374", "14.4382")):
        r = {x.name: x for x in baccarat.analyse(baccarat.shoe_faces(decks))}
        assert f"{float(r['banker'].house_edge) * 100:.4f}" == banker
        assert f"{float(r['player'].house_edge) * 100:.4f}" == player
        assert f"{float(r['tie'].house_edge) * 100:.4f}" == tie
    r = {x.name: x for x in baccarat.analyse(baccarat.shoe_faces(8))}
    assert f"{float(r['player_pair'].house_edge) * 100:.4f}" == "10.3614"


def test_pair_probability_closed_form():
    # P(first two player cards share a rank) for a full N-deck shoe: 13 * 4N (4N - 1) / (52N (52N - 1)).
    for decks in (1, 3, 8):
        n = 52 * decks
        r = {x.name: x for x in baccarat.analyse(baccarat.shoe_faces(decks))}
        assert r["player_pair"].outcome("win").probability == F(13 * 4 * decks * (4 * decks - 1), n * (n - 1))


def test_composition_errors_are_clear():
    with pytest.raises(ValueError, match="6..1024 cards"):
        baccarat.exact_counts(np.zeros(52, dtype=np.uint32) + (np.arange(52) < 5))
    with pytest.raises(ValueError, match="52 face counts"):
        baccarat.exact_counts(np.ones(13, dtype=np.uint32))
    with pytest.raises(ValueError, match="1..12"):
        baccarat.shoe_faces(13)


# ------------------------------------------------------- dealt-shoe replay --

def play_devices_round(shoe):
    """One round dealt by rngcore.devices.shoe.Shoe with the tableau written here."""
    shoe.start_round()
    hand = [int(c) for c in shoe.deal(4)]
    pt = (point(hand[0] & 15) + point(hand[2] & 15)) % 10
    bt = (point(hand[1] & 15) + point(hand[3] & 15)) % 10
    if pt < 8 and bt < 8:
        if pt <= 5:
            hand.append(shoe.deal())
            if banker_draws(bt, point(hand[4] & 15)):
                hand.append(shoe.deal())
        elif bt <= 5:
            hand.append(shoe.deal())
    shoe.end_round()
    padded = hand + [hand[0]] * (6 - len(hand))  # unused slots: any card (deal() reads only what it needs)
    pf, bf, np_, nb = deal(padded)
    assert np_ + nb == len(hand)
    return (pf, bf, np_, nb) + pair_state(hand)


@pytest.mark.parametrize("variant", ["jp", "macau", "sbo"])
def test_kernel_deals_the_devices_shoes(variant):
    """From one seed, the C table deals the very rounds rngcore.devices' Shoe
    deals under the devices' procedure (shuffle, cut, cut card, burn, end)."""
    from rngcore.devices.shoe import Shoe

    shoe = Shoe(rngcore.Generator(SEED), baccarat.rule_set(variant), decks=8)
    table = _native.BaccaratTable(cards.fresh_stack(8), baccarat.c_rules(variant, 8))
    gen = rngcore.Generator(SEED)
    counts = np.zeros(baccarat.CLASSES, dtype=np.uint64)
    rounds = 0
    while shoe.shuffles < 4 or not shoe.reshuffle_due:
        expected = play_devices_round(shoe)
        counts[:] = 0
        table.play(gen, 1, counts)
        assert list(kernel_as_tuples(counts)) == [expected], f"round {rounds}"
        assert table.shoes == shoe.shuffles and table.cut_card_index == shoe.cut_card_index
        rounds += 1
    assert rounds > 150


def test_round_by_round_on_dealt_shoes():
    """The harness's replay of recorded shoes agrees with the C dealer, and the
    round-by-round test (exact probabilities per remaining composition) accepts it."""
    table = _native.BaccaratTable(cards.fresh_stack(8), baccarat.c_rules("jp", 8))
    gen = rngcore.Generator(SEED)
    shoes, kernel_classes = [], []
    counts = np.zeros(baccarat.CLASSES, dtype=np.uint64)
    while True:
        before = table.shoes
        counts[:] = 0
        table.play(gen, 1, counts)
        if table.shoes != before:
            if table.shoes == 4:
                break
            shoes.append((table.cards(), table.cut_card_index))
            kernel_classes.append([])
        kernel_classes[-1].append(int(np.nonzero(counts)[0][0]))
    for (shoe, cut), classes in zip(shoes, kernel_classes):
        assert [cls for _, cls in baccarat.deal_shoe(shoe, "jp", cut)] == classes
    result = baccarat.round_by_round(shoes, "jp")
    assert result.rounds == sum(len(c) for c in kernel_classes) > 150
    assert sum(result.observed.values()) == result.rounds
    assert abs(sum(result.expected.values()) - result.rounds) < 1e-9
    assert result.pvalue > 1e-9


def test_round_of_six_cards_follows_the_independent_tableau():
    """The C table's round (used by the replay) equals this file's tableau on every point pattern."""
    table = _native.BaccaratTable(cards.fresh_stack(1), baccarat.c_rules("etable", 1))
    rng = np.random.default_rng(7)
    every_point = [code(r, s) for r in range(1, 11) for s in range(4)]
    hands = [list(h) for h in rng.choice(every_point + [code(r, 1) for r in (11, 12, 13)], size=(20000, 6))]
    hands += [[code(a, 0), code(b, 1), code(c, 2), code(d, 3), code(x, 0, 1), code(y, 1, 1)]
              for a, b, c, d in itertools.product((1, 5, 8, 10), repeat=4) for x in (2, 8) for y in (6, 9)]
    for hand in hands:
        cls, used = table.round(np.array(hand, dtype=np.uint16))
        pf, bf, np_, nb = deal(hand)
        assert kernel_as_tuples(np.bincount([cls], minlength=baccarat.CLASSES)) == {
            (pf, bf, np_, nb) + pair_state(hand): 1}
        assert used == np_ + nb
    with pytest.raises(ValueError, match="codes must be"):
        table.round(np.array([0, 1, 2, 3, 4, 5], dtype=np.uint16))


def test_replay_deals_the_shoe_the_device_dealt():
    """A recorded shoe replayed by the devices' procedure ends where the device's shoe ended."""
    from rngcore.devices.shoe import Shoe

    for variant in ("jp", "macau", "sbo"):
        shoe = Shoe(rngcore.Generator(SEED, 3), baccarat.rule_set(variant), decks=6)
        shoe.start_round()
        recorded, cut = shoe._stack.copy(), shoe.cut_card_index
        shoe.end_round()
        replay = Shoe.replay(baccarat.rule_set(variant), recorded, cut)
        assert replay.burned == shoe.burned and replay.cut_card_index == cut and replay.generator is None
        rounds = baccarat.deal_shoe(recorded, variant, cut)
        assert rounds[0][0] == len(shoe.burned) and len(rounds) > 40
    with pytest.raises(ValueError, match="whole number of 52-card decks"):
        Shoe.replay("jp-baccarat", recorded[:-1], cut)
    with pytest.raises(ValueError, match="cut_card_index must be in 1..311"):
        baccarat.deal_shoe(recorded, "sbo", 0)


def test_one_deck_limit():
    """cards.MAX_DECKS is the limit; the C table's storage holds a shoe of that many decks."""
    from harness.kernels import lib
    from rngcore.devices import device_spec

    assert lib.KERN_BAC_MAX_SHOE == 52 * cards.MAX_DECKS
    assert GAMES["baccarat"].option("decks").high == cards.MAX_DECKS
    assert device_spec(f"shoe:{cards.MAX_DECKS}").width == 52 * cards.MAX_DECKS
    with pytest.raises(ValueError, match=f"1..{cards.MAX_DECKS}"):
        device_spec(f"shoe:{cards.MAX_DECKS + 1}")


def test_rule_set_converts_itself_for_the_kernels():
    from rngcore.devices.rulesets import rule_set

    assert rule_set("macau-baccarat").c_rules(8) == {
        "fresh_each_round": 0, "cut_min_from_end": 1, "cut_behind_lo": 12, "cut_behind_hi": 12, "one_more_round": 0,
        "burn_mode": 2, "burn_count": 0, "burn_ace": 1, "burn_ten": 10, "burn_indicator_counts": 0,
        "burn_each_round": 0}
    assert rule_set("jp-baccarat").c_rules(8)["cut_behind_lo"] == 104  # a quarter of 416, rounded up
    assert rule_set("jp-pontoon").c_rules(4)["cut_behind_lo"] == 48  # 192 cards without the 10s
    with pytest.raises(ValueError, match="dealt-down shoe"):
        rule_set("jp-poker").c_rules(1)


def test_shoe_rules_that_do_not_fit_are_refused():
    tight = dict(baccarat.c_rules("jp", 4), cut_behind_lo=5, cut_behind_hi=5)  # one-more-round needs 11
    with pytest.raises(ValueError, match="cut card"):
        _native.BaccaratTable(cards.fresh_stack(4), tight)
    with pytest.raises(ValueError, match="4..8 decks"):
        baccarat.c_rules("jp", 12)
    with pytest.raises(ValueError, match="jp, macau, sbo, etable"):
        baccarat.rule_set("atlantic")


def test_fresh_round_sampler_is_exactly_uniform():
    """Exhaustive proof on 8-bit words: the fresh-stack round (a Fisher-Yates
    stopped after six positions) gives every ordered six-card deal of a
    six-card stack equally often over all accepted word pairs."""
    from harness.kernels import ffi, lib
    from rngcore.testing import TestEngine

    stack = np.array([code(r, 0) for r in (1, 2, 3, 4, 5, 6)], dtype=np.uint16)
    table = _native.BaccaratTable(stack, baccarat.c_rules("etable", 1))
    counts = np.zeros(baccarat.CLASSES, dtype=np.uint64)
    seen = Counter()
    for w1 in range(256):
        for w2 in range(256):
            engine = TestEngine.from_words([w1, w2], 8)
            ffi.memmove(table._table.shoe.cards, ffi.from_buffer(stack), stack.nbytes)  # the same stack every run
            status = lib.kern_bac_play(engine.source, table._table, 1, ffi.from_buffer("uint64_t[]", counts), 8)
            if status == 0 and engine.consumed == 2:
                seen[tuple(table.cards()[::-1])] += 1
            else:
                assert status == lib.RNG_E_EXHAUSTED  # the first batch was rejected: needs a third word
    # 8-bit words: batch (6, 5, 4) keeps 240 of 256 words, batch (3, 2, 1) keeps 252: 2 * 42 per deal.
    assert len(seen) == 720 and set(seen.values()) == {84}


# ------------------------------------------------------------- simulation --

@pytest.mark.parametrize("variant", ["etable", "jp"])
def test_simulation_agrees_with_exact(variant):
    sim = GAMES["baccarat"].simulate(400_000, rngcore.Generator(SEED), variant=variant, decks=8)
    assert sim.rounds == 400_000 and not sim.interrupted
    assert sim.outcome_fit.impossible == 0
    assert sim.outcome_fit.pvalue > 1e-9
    assert_returns_agree(sim)


@pytest.mark.slow
def test_simulation_large_dealt_shoe():
    sim = GAMES["baccarat"].simulate(200_000_000, rngcore.Generator(SEED), variant="jp", decks=8)
    assert sim.outcome_fit.pvalue > 1e-9
    assert_returns_agree(sim)
