"""``--simulate``'s choice of player and every refusal, from the one table of
harness/slot/simulate_features.py: each refused model exits 2 with one line naming the file and
the model's section, and the model itself loads (only its simulation is refused)."""
from __future__ import annotations

import pathlib
import re

import pytest
from click.testing import CliRunner

import slot_support as sup
from harness.cli import main
from harness.slot import simulate_features as sf
from harness.slot.errors import ModelError

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "slot_model.md"
PROGRESSIVE = '[progressive]\nsymbol = "A"\ncount = 2\ncontribution = "1/100"\nreset = 40\n'


def _models() -> dict[str, str]:
    from test_slot_mystery import GAME as MYSTERY_GAME

    return {
        "mystery-beyond-32-bits": MYSTERY_GAME.replace('"1/20000"', '"1/5000000000"'),
    }


# model, the section named, what the message says
REFUSALS = [
    ("mystery-beyond-32-bits", "mystery", "common denominator 5,000,000,000"),
]


@pytest.mark.parametrize("name, where, says", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_every_refusal_exits_2_with_a_located_line(tmp_path, name, where, says):
    text = _models()[name]
    sup.model(text)  # the model itself is valid: only the simulation is refused
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["slot", str(path), "--simulate", "1000", "--seed", bytes(range(32)).hex()])
    line = result.stderr.strip()
    assert result.exit_code == 2 and "Traceback" not in result.output, result.output
    assert len(line.splitlines()) == 1 and str(path) in line and f"{where}:" in line and says in line, line


@pytest.mark.parametrize("text, player", [
    (sup.TWO_BY_TWO, sf.KERNEL), (sup.SMALL, sf.KERNEL), (sup.FEATURE, sf.KERNEL),
    (sup.HOLD_TWO_BY_TWO, sf.ROUNDS), (sup.TWO_BY_TWO + '[cap]\nwin = 2\n', sf.ROUNDS),
], ids=["lines", "progressive", "free-spins", "hold-and-spin", "cap"])
def test_the_fastest_player_that_plays_every_feature(text, player):
    assert sf.player_for(sup.model(text)) == player


def test_the_window_and_round_players_take_their_features():
    from test_slot_cascade import WAYS as CASCADE
    from test_slot_cascade_features import GAME as CASCADE_FREE, MYSTERY
    from test_slot_jackpot import BOTH as LINE_LEVELS, GAME as SCATTER_LEVELS
    from test_slot_mystery import GAME as MYSTERY_GAME
    from test_slot_sticky import LINES, RETRIGGERS

    assert sf.player_for(sup.model(CASCADE)) == sf.WINDOWS
    assert sf.player_for(sup.model(CASCADE + MYSTERY)) == sf.WINDOWS
    assert sf.player_for(sup.model(CASCADE_FREE)) == sf.ROUNDS  # cascades with scatters and free spins
    assert sf.player_for(sup.model(LINES)) == sf.KERNEL  # one sticky wild without retriggers
    assert sf.player_for(sup.model(RETRIGGERS)) == sf.ROUNDS
    assert sf.player_for(sup.model(SCATTER_LEVELS)) == sf.KERNEL
    assert sf.player_for(sup.model(LINE_LEVELS)) == sf.ROUNDS
    assert sf.player_for(sup.model(MYSTERY_GAME)) == sf.ROUNDS


def test_reel_heights_go_to_the_kernel_unless_both_ways_or_too_tall():
    """One way, with or without free spins: the C kernel (a reel's height and stop draws as one virtual stop);
    both ways with free spins: a round's play; virtual reels past the kernel's limit: the Python players."""
    from test_slot_heights import GAME as HEIGHTS
    from test_slot_ways_free import BOTH_WAYS, GAME as HEIGHTS_FREE

    from harness.slot.limits import MAX_KERNEL_HEIGHT_STOPS

    assert sf.player_for(sup.model(HEIGHTS)) == sf.KERNEL
    assert sf.player_for(sup.model(HEIGHTS_FREE)) == sf.KERNEL
    assert sf.player_for(sup.model((ROOT / "examples" / "slot_megaways_free_spins.toml").read_text())) == sf.KERNEL
    assert sf.player_for(sup.model(BOTH_WAYS)) == sf.ROUNDS
    alone = (lambda text: re.sub(r"feature = .*\n", "", text.split("[free_spins]")[0]))  # noqa: E731
    assert sf.player_for(sup.model(alone(BOTH_WAYS))) == sf.WINDOWS
    # reel 1: more (height draw, stop) pairs than the limit: 8 virtual stops x its height weights
    heavy = HEIGHTS_FREE.replace("{ 1 = 1, 3 = 2 }", f"{{ 1 = 1, 3 = {MAX_KERNEL_HEIGHT_STOPS // 8} }}")
    assert sf.player_for(sup.model(heavy)) == sf.ROUNDS
    assert sf.player_for(sup.model(alone(heavy))) == sf.WINDOWS


def _supported() -> dict[str, str]:
    """Models --simulate plays only since the round's play counts meters (combinations of a feature only it
    plays with a meter), each played through it."""
    from test_slot_cap import GAME as CAP
    from test_slot_cascade_features import MYSTERY
    from test_slot_sticky import RETRIGGERS

    progressive = PROGRESSIVE.replace("count = 2", "count = 3")
    return {"bonus-cap-progressive": CAP, "hold-mystery": sup.HOLD_TWO_BY_TWO + MYSTERY,
            "sticky-sessions-progressive": RETRIGGERS.replace("[reels]", progressive + "[reels]")}


@pytest.mark.parametrize("name", ["bonus-cap-progressive", "hold-mystery", "sticky-sessions-progressive"])
def test_a_meter_beside_a_round_play_feature_simulates_inside_its_intervals(tmp_path, name):
    report = sup.round_play_simulates(tmp_path, _supported()[name], 10_000)
    assert report["features"] > 0


def test_the_numpy_player_refuses_what_its_table_row_lacks():
    from test_slot_sticky import LINES

    from harness.slot.simulate import simulate_numpy

    with pytest.raises(ModelError, match=r"symbols: --simulate does not play sticky wilds"):
        simulate_numpy(sup.model(LINES), 10, None)
    assert sf.player_for(sup.model(sup.HOLD_TWO_BY_TWO), (sf.NUMPY,)) == sf.NUMPY


def test_every_feature_names_a_section_of_the_docs_and_a_known_player():
    headings = set(re.findall(r"^## (.+)$", DOCS.read_text(encoding="utf-8"), flags=re.M))
    for f in sf.FEATURES:
        assert f.doc in headings, f.doc
        assert f.players <= set(sf.PLAYER_NAMES), f.players
