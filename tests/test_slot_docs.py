"""docs/slot_model.md stays true: its annotated model is valid and its table
of examples quotes the figures the analysis gives."""
from __future__ import annotations

import pathlib
import re

from harness.slot.exact import analyse
from harness.slot.model import load_model, parse_model
from harness.slot.profiles import check

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "slot_model.md").read_text(encoding="utf-8")


def test_annotated_model_is_valid_and_uses_every_feature():
    blocks = re.findall(r"```toml\n(.*?)```", DOC, re.S)
    assert len(blocks) == 1
    m = parse_model(blocks[0], source="docs/slot_model.md")
    kinds = {s.kind for s in m.symbols}
    assert kinds == {"regular", "wild", "scatter"}
    assert m.free_spins is not None and m.free_spins.retrigger and m.progressive is not None
    assert m.feature_strips != m.base_strips
    a = analyse(m)
    assert all(a.parts[k] > 0 for k in a.parts), a.parts
    assert 0 < a.hit_frequency < 1 and a.variance > 0


def test_examples_table_quotes_the_analysis():
    expect = {
        "slot_compliant.toml": ("RTP 93.28%", "1 in 657,694", True),
        "slot_below_90.toml": ("RTP 85.47%", None, False),
        "slot_rare_award.toml": (None, "1 in 3,435,973,837", False),
        "slot_ways243.toml": ("RTP 93.12%", "1 in 10,374", True),
        "slot_weighted.toml": ("RTP 93.33%", "1 in 2,160", True),
        "slot_two_scatters.toml": ("RTP 92.20%", "1 in 10,374", True),
        "slot_hold_and_spin.toml": ("RTP 93.08%", "1 in 23,269", True),
        "slot_pick_bonus.toml": ("RTP 95.98%", "1 in 20,000", True),
        "slot_mystery_levels.toml": ("RTP 98.81%", "1 in 2,000,000", True),
        "slot_cascade.toml": ("RTP 92.70%", "1 in 172", True),
        "slot_cascade_megaways.toml": ("RTP 93.55%", "1 in 256", True),
        "slot_jackpot_levels.toml": ("RTP 99.41%", "1 in 20,000", True),
        "slot_jackpot_lines.toml": ("RTP 94.17%", "1 in 160,000", True),
    }
    for name, (rtp_text, odds_text, passes) in expect.items():
        a = analyse(load_model(ROOT / "examples" / name))
        row = next(line for line in DOC.splitlines() if line.startswith(f"| `{name}`"))
        if rtp_text:
            assert f"{float(a.rtp) * 100:.2f}%" in rtp_text and rtp_text in row
        if odds_text:
            assert odds_text == f"1 in {float(1 / a.rarest.probability):,.0f}" and odds_text in row
        assert all(c.passed for c in check(a, "jp")) == passes
        assert ("pass" in row.split("|")[3]) == passes


def _fragment(heading: str) -> str:
    """The first code block under ``## heading``."""
    section = DOC.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```\n(.*?)```", section, re.S).group(1)


def test_cascade_fragment_is_the_example_and_valid():
    fragment = _fragment("Cascades")
    example = (ROOT / "examples" / "slot_cascade.toml").read_text(encoding="utf-8")
    assert fragment in example
    m = load_model(ROOT / "examples" / "slot_cascade.toml")
    assert m.cascade.ladder == (1, 2, 3, 5) and len(m.cascade.refill) == m.reels
    a = analyse(m)
    assert a.parts["cascade"] > 0 and a.cascade.states > 1


def test_cascade_heights_fragment_is_the_example():
    fragment = _fragment("Cascades with reel heights")
    path = ROOT / "examples" / "slot_cascade_megaways.toml"
    assert fragment in path.read_text(encoding="utf-8")
    m = load_model(path)
    assert m.heights == (((1, 1), (2, 3)),) * 3 and m.cascade.ladder == (1, 2, 3)
    a = analyse(m)
    assert a.cascade.exact and a.parts["cascade"] > 0 and a.cycle == 14 ** 3 * 4 ** 3


def test_sticky_wilds_fragment_is_a_valid_model():
    m = parse_model(_fragment("Sticky wilds"), source="docs/slot_model.md")
    assert [s.name for s in m.symbols if s.sticky] == ["W", "V"] and m.free_spins.retrigger
    assert m.free_spins.max_spins == 6
    a = analyse(m)
    assert a.sticky.chain_states > a.sticky.states > 1 and a.parts["feature"] > 0 and all(c.exact for c in a.classes)
    assert a.feature.spins_per_feature > 2  # retriggers add spins


def test_jackpot_fragment_is_the_example():
    fragment = _fragment("Jackpot levels")
    assert fragment in (ROOT / "examples" / "slot_jackpot_levels.toml").read_text(encoding="utf-8")
    m = load_model(ROOT / "examples" / "slot_jackpot_levels.toml")
    assert [(lv.name, lv.count) for lv in m.jackpots] == [("MINOR", 3), ("MAJOR", 4), ("GRAND", 5)]


def test_line_jackpot_fragment_is_the_example():
    section = DOC.split("\n## Jackpot levels\n", 1)[1].split("\n## ", 1)[0]
    fragment = re.findall(r"```\n(.*?)```", section, re.S)[1]
    path = ROOT / "examples" / "slot_jackpot_lines.toml"
    assert fragment in path.read_text(encoding="utf-8")
    m = load_model(path)
    assert [(lv.name, lv.on, lv.count) for lv in m.jackpots] == [
        ("MINOR", "scatter", 3), ("MAJOR", "scatter", 4), ("SUPER", "line", 4), ("GRAND", "line", 5)]
    a = analyse(m)
    assert a.rarest.name == "jackpot GRAND (5 x SEVEN on a line)" and len(a.bet_levels) == 2
    assert all(c.passed for c in check(a, "jp"))


def test_both_ways_fragment_is_a_valid_model():
    m = parse_model(_fragment("Both-ways pays"), source="docs/slot_model.md")
    assert m.both_ways and not m.ways
    a = analyse(m)
    assert a.parts["lines"] > 0 and a.parts["scatters"] > 0 and all(c.exact for c in a.classes)


def test_reel_heights_fragment_is_a_valid_model():
    m = parse_model(_fragment("Reel heights per spin"), source="docs/slot_model.md")
    assert m.heights is not None and m.total_bet == 10 and len(m.paylines) == 27
    a = analyse(m)
    assert a.cycle == 4 * 5 * 3 * 3 * 3 * 3 and all(c.exact for c in a.classes)
